// The market replayed through a cell (docs/backtesting.md#running): each print goes to the kernel, and in between, in
// time order on one due-clock, the traders wake, the fills file's executions are recorded into their accounts and the
// samples are taken; at each session open the funnel moves first. The hot path of every back-test: a print costs the
// kernel's print, a bar update and an index lookup.
import type { Session } from '../../core/calendar/index.js';
import { SimClock } from '../../core/clock.js';
import { canonicalSymbol, parseSymbol } from '../../core/instruments.js';
import type { TickBatch } from '../../market/tick-batch.js';
import { droppedBecause } from '../fills/dropped-fills.js';
import type { TraderFill } from '../fills/trader-fills.js';
import { AFTER_NEXT_PRINT } from '../traders/strategy.js';
import { SAMPLE_EVERY_MS, type CellSamples } from './cell-samples.js';
import type { CellSetup, Participant } from './cell-setup.js';
import type { MissingPrints, TradedMarket } from './traded-markets.js';

type Due = { kind: 'wake'; trader: number } | { kind: 'fill'; fill: TraderFill } | { kind: 'sample' };

export class CellReplay {
  prints = 0;
  /** Sessions in which the contract of a root a block trades had no print, in session order. */
  readonly missingPrints: MissingPrints[] = [];
  private readonly due: SimClock<Due>;
  private readonly byName: Map<string, Participant>;
  private session: Session | undefined;

  constructor(
    private readonly setup: CellSetup,
    readonly samples: CellSamples,
    /** With the funnel, each trader's funnel moves at every session open after the first. */
    private readonly funnel: boolean,
  ) {
    const { startMs, endMs, participants } = setup;
    this.byName = new Map(participants.map((p) => [p.spec.id, p]));
    this.due = new SimClock<Due>(startMs);
    for (const fill of setup.fills)
      if (fill.timeMs >= startMs && fill.timeMs < endMs) this.due.schedule(fill.timeMs, { kind: 'fill', fill });
    this.due.schedule(startMs, { kind: 'sample' });
  }

  /** Every print of the tape in the period, then the last session's end. */
  async replay(batches: AsyncIterable<TickBatch> | Iterable<TickBatch>): Promise<void> {
    const { startMs, endMs, sessions, markets, kernel } = this.setup;
    let prints = 0;
    reading: for await (const batch of batches) {
      for (let i = 0; i < batch.length; i++) {
        const timeMs = batch.timeMs[i]!;
        if (timeMs < startMs) continue;
        if (timeMs >= endMs) break reading;
        while (markets.sessionIndex + 1 < sessions.length && timeMs >= sessions[markets.sessionIndex + 1]!.openMs)
          this.nextSession();
        this.due.advanceTo(timeMs, this.onDue);
        const printed = markets.ofPrint(batch, i);
        kernel.print(printed.symbol, batch.priceTicks[i]!, batch.size[i]!, timeMs);
        const market = printed.market;
        if (market) {
          market.bars.onPrint(timeMs, batch.priceTicks[i]!);
          market.lastPrintSession = markets.sessionIndex;
          if (market.waiting.length > 0) this.wakeAfterPrint(market, timeMs);
        }
        prints++;
      }
    }
    this.prints = prints;
    if (this.session) this.endSession(this.session.closeMs);
    this.due.advanceTo(endMs, this.onDue);
    // Sessions after the last print had none of any contract.
    for (let later = markets.sessionIndex + 1; later < sessions.length; later++)
      this.missingPrints.push(...markets.missingIn(later));
  }

  /**
   * Wake-ups of the session that ended (its close-out) happen before the next one starts, even when no print fell
   * between them; then the funnel moves, and the synthetic traders' first wake-ups of the new session are due.
   */
  private nextSession(): void {
    const { sessions, markets, participants } = this.setup;
    if (this.session) this.endSession(this.session.closeMs);
    const previous = this.session;
    const session = (this.session = sessions[++markets.sessionIndex]!);
    if (this.funnel && previous) this.openInFunnel(session, markets.sessionIndex, previous);
    participants.forEach((p, index) => {
      if (p.trader)
        this.due.schedule(Math.max(this.due.nowMs, p.trader.firstWake(session.openMs)), {
          kind: 'wake',
          trader: index,
        });
    });
  }

  private readonly onDue = (item: Due, atMs: number): void => {
    this.setup.kernel.advanceTo(atMs);
    if (item.kind === 'fill') this.recordFill(item.fill);
    else if (item.kind === 'sample') {
      this.samples.take(atMs);
      if (atMs + SAMPLE_EVERY_MS < this.setup.endMs) this.due.schedule(atMs + SAMPLE_EVERY_MS, item);
    } else this.wake(item);
  };

  /** A historical fill into its trader's account, counted if the engine dropped it (docs/risk-rules.md#historical-fills). */
  private recordFill(fill: TraderFill): void {
    const kernel = this.setup.kernel;
    const who = this.byName.get(fill.trader)!;
    // Moved to a live account (payout.max_count): its later fills are the live account's, which no cell simulates.
    if (who.funnel?.trading === false) return;
    const fillSymbol = canonicalSymbol(parseSymbol(fill.symbol));
    const accountBefore = kernel.read.netQuantity(who.accountId, fillSymbol);
    const recorded = kernel.dispatch({
      type: 'record_fill',
      account_id: who.accountId,
      instrument_id: fill.symbol,
      side: fill.side,
      quantity: fill.quantity,
      price: fill.price,
      occurred_at: fill.timeMs,
    });
    if (recorded.ok && 'dropped' in recorded.body)
      who.dropped[droppedBecause(kernel.read.accountState(who.accountId)!)]++;
    const signed = fill.side === 'buy' ? fill.quantity : -fill.quantity;
    who.neverHad.afterFill(fillSymbol, signed, accountBefore, kernel.read.netQuantity(who.accountId, fillSymbol));
  }

  /** A synthetic trader wakes with its view brought up to date, and says when it wakes next. */
  private wake(item: Due & { kind: 'wake' }): void {
    const p = this.setup.participants[item.trader]!;
    if (p.funnel?.trading === false) return;
    const market = p.choice ? p.choice.market : p.market!;
    const view = (p.view ??= {
      kernel: this.setup.kernel,
      accountId: p.accountId,
      symbol: market.symbol,
      tickSize: market.tickSize,
      priceDecimals: market.priceDecimals,
      bars: market.bars,
      session: this.session,
      markets: p.choice,
    });
    view.accountId = p.accountId;
    view.symbol = market.symbol;
    view.tickSize = market.tickSize;
    view.priceDecimals = market.priceDecimals;
    view.bars = market.bars;
    view.session = this.session;
    const next = p.trader!.wake(view);
    // The market it entered may be one it has just drawn.
    if (next === AFTER_NEXT_PRINT) (p.choice ? p.choice.market : market).waiting.push(item.trader);
    else if (next !== undefined && next < this.setup.endMs) this.due.schedule(next, item);
  }

  /** After the roll, at the session's open: each trader's funnel moves (reset, activation, bill, payout). */
  private openInFunnel(opening: Session, index: number, previous: Session): void {
    this.due.advanceTo(Math.max(this.due.nowMs, opening.openMs), this.onDue);
    this.setup.kernel.advanceTo(opening.openMs);
    for (const p of this.setup.participants) {
      p.funnel!.atSessionOpen(opening, index, previous);
      p.accountId = p.funnel!.accountId;
    }
  }

  /** Traders waiting for the market's next print (an entry waiting for its fill) wake right after it. */
  private wakeAfterPrint(market: TradedMarket, timeMs: number): void {
    const waiting = market.waiting;
    market.waiting = [];
    for (const trader of waiting) this.onDue({ kind: 'wake', trader }, timeMs);
  }

  /** The session is over: a trader still waiting for a print is woken at its close instead, to close out. */
  private endSession(closeMs: number): void {
    const { markets } = this.setup;
    for (const market of markets.all()) {
      for (const trader of market.waiting)
        this.due.schedule(Math.max(this.due.nowMs, closeMs - 1), { kind: 'wake', trader });
      market.waiting = [];
    }
    this.due.advanceTo(Math.max(this.due.nowMs, closeMs - 1), this.onDue);
    this.missingPrints.push(...markets.missingIn(markets.sessionIndex));
  }
}
