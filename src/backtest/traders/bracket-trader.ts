// The shape every synthetic strategy shares: during the session it checks its signal every few minutes; when
// flat and under its daily trade count it enters at market, and once filled it places an OCO stop and target a few
// ticks away; a few minutes before the close, or once it has held a position max_hold_minutes, it cancels what is
// working and closes what it holds. Subclasses give the signal.
import { Dec, ticksToPrice } from '../../core/money.js';
import type { Side } from '../../core/orders/order-types.js';
import { AFTER_NEXT_PRINT, type NextWake, type TraderRandom, type Trader, type TraderView } from './strategy.js';
import { ActiveHours } from './active-hours.js';
import type { BracketParams } from './strategy-params.js';

export type { BracketParams };

/** An entry sent and not filled yet, with the exits it gets once filled (ticks from the fill's print). */
interface PendingEntry {
  orderId: string;
  stopTicks: number;
  targetTicks: number;
}

export abstract class BracketTrader implements Trader {
  private tradeDate = '';
  private tradesToday = 0;
  private pending: PendingEntry | undefined;
  /** With max_hold_minutes: when the position its last entry opened is closed at market, if it is still held. */
  private holdUntilMs: number | undefined;
  /** Each trader checks at its own phase within the check interval, so traders do not all act at once. */
  private readonly phaseMs: number;
  private readonly activeHours: ActiveHours | undefined;

  constructor(
    readonly id: string,
    protected readonly random: TraderRandom,
    protected readonly params: BracketParams,
  ) {
    this.phaseMs = random.int(0, params.checkEveryMinutes * 60 - 1) * 1000;
    this.activeHours = params.activeHours && new ActiveHours(params.activeHours);
  }

  /** buy, sell, or no trade now. */
  protected abstract signal(view: TraderView): Side | undefined;

  wake(view: TraderView): NextWake {
    const { kernel, session } = view;
    const nowMs = kernel.nowMs;
    if (!session) return undefined;
    if (this.params.quitAfterFailure && kernel.read.riskNumbers(view.accountId)!.failed) return undefined;
    const flatAtMs = session.closeMs - this.params.flatMinutesBeforeClose * 60_000;
    if (nowMs >= flatAtMs) {
      this.pending = undefined;
      this.holdUntilMs = undefined;
      this.closeOut(view);
      return undefined; // the runner wakes it again when the next session opens
    }
    if (this.pending) {
      if (!this.attachExits(view, this.pending)) return AFTER_NEXT_PRINT;
      this.pending = undefined;
    } else if (this.heldTooLong(view)) {
      this.closeOut(view); // its market order fills at the next print; the next check finds it flat
    } else {
      if (session.tradeDate !== this.tradeDate) {
        this.tradeDate = session.tradeDate;
        this.tradesToday = 0;
      }
      if (this.params.stopAfterDailyLock && view.kernel.read.riskNumbers(view.accountId)!.dailyLossLocked)
        return undefined; // done for this session: the runner wakes it again when the next one opens
      if (
        this.tradesToday < this.params.tradesPerDay &&
        !this.reachedDailyProfitStop(view) &&
        (this.activeHours?.contains(nowMs, session.tradeDate) ?? true) &&
        this.isFlat(view) &&
        (view = this.nextMarket(view)).bars.lastTicks !== undefined
      ) {
        const side = this.signal(view);
        if (side) {
          view.markets?.entered();
          this.pending = this.enter(view, side);
          this.tradesToday++;
          if (this.pending) return AFTER_NEXT_PRINT;
        }
      }
    }
    const next = Math.min(this.nextCheck(nowMs), this.holdUntilMs ?? Infinity);
    return next < flatAtMs ? next : flatAtMs;
  }

  /**
   * max_hold_minutes: true once the position has been held that long (it is then no longer tracked); a position its
   * bracket has closed already is forgotten here too.
   */
  private heldTooLong(view: TraderView): boolean {
    if (this.holdUntilMs === undefined) return false;
    if (view.kernel.read.netQuantity(view.accountId, view.symbol) === 0) {
      this.holdUntilMs = undefined;
      return false;
    }
    if (view.kernel.nowMs < this.holdUntilMs) return false;
    this.holdUntilMs = undefined;
    return true;
  }

  /** quit_after_failure: after a failed account it trades no more, and with the funnel takes no reset. */
  get quitsAfterFailure(): boolean {
    return this.params.quitAfterFailure;
  }

  /** The first wake-up of a session. */
  firstWake(openMs: number): number {
    return this.nextCheck(openMs);
  }

  private nextCheck(nowMs: number): number {
    const step = this.params.checkEveryMinutes * 60_000;
    return Math.floor((nowMs - this.phaseMs) / step) * step + step + this.phaseMs;
  }

  /** Flat and about to ask for a signal: a trader of several roots looks at the market of its next entry. */
  private nextMarket(view: TraderView): TraderView {
    if (!view.markets) return view;
    // Set on the view (the runner refreshes it at each wake-up): a new object at every check, spread, was a fifth of a
    // multi-instrument run's time.
    const { symbol, tickSize, priceDecimals, bars } = view.markets.choose();
    view.symbol = symbol;
    view.tickSize = tickSize;
    view.priceDecimals = priceDecimals;
    view.bars = bars;
    return view;
  }

  /** daily_profit_stop: the day's net P&L has reached it, so no new entries this session. */
  private reachedDailyProfitStop(view: TraderView): boolean {
    const stop = this.params.dailyProfitStopCents;
    return stop !== undefined && view.kernel.read.riskNumbers(view.accountId)!.dayNetCents >= stop;
  }

  /** size_down_within: one contract while equity is within that much of the max-loss floor, else the drawn size. */
  private sizeFor(view: TraderView, drawn: number): number {
    const within = this.params.sizeDownWithinCents;
    if (within === undefined) return drawn;
    const numbers = view.kernel.read.riskNumbers(view.accountId)!;
    return numbers.equityCents - numbers.maxLossTriggerCents <= within ? 1 : drawn;
  }

  private isFlat(view: TraderView): boolean {
    const { read } = view.kernel;
    return read.netQuantity(view.accountId, view.symbol) === 0 && read.workingOrderIds(view.accountId).length === 0;
  }

  /**
   * Sends the entry at market; its exits wait for its fill. Sent with it, while the account is still flat, both
   * exits would count toward max_contracts as new exposure (docs/risk-rules.md#position-limits): a 3-lot's stop
   * was refused on a 5-contract plan, and the trade ran without it.
   */
  private enter(view: TraderView, side: Side): PendingEntry | undefined {
    const { kernel, accountId, symbol } = view;
    const quantity = this.sizeFor(view, this.random.pick(this.params.contracts)); // drawn either way: same stream
    const stopTicks = this.random.pick(this.params.stopTicks);
    const targetTicks = this.random.pick(this.params.targetTicks);
    const entry = kernel.dispatch({
      type: 'place_order',
      body: { account_id: accountId, instrument_id: symbol, quantity, side, type: 'market', time_in_force: 'day' },
    });
    return entry.ok ? { orderId: entry.body.order_id, stopTicks, targetTicks } : undefined;
  }

  /**
   * Once the entry is done: a limit target and a stop for what it filled, `targetTicks` and `stopTicks` from the
   * last print (the one that filled it), linked as OCO. False while the entry still works (not filled, or in part).
   */
  private attachExits(view: TraderView, entry: PendingEntry): boolean {
    const { kernel, accountId, symbol } = view;
    if (kernel.read.workingOrderIds(accountId).includes(entry.orderId)) return false;
    const held = kernel.read.netQuantity(accountId, symbol);
    const lastTicks = view.bars.lastTicks;
    if (held === 0 || lastTicks === undefined) return true; // refused, or never filled: nothing to protect
    // Woken right after the print that filled the entry: the hold is counted from it.
    if (this.params.maxHoldMinutes !== undefined) this.holdUntilMs = kernel.nowMs + this.params.maxHoldMinutes * 60_000;
    const dir = Math.sign(held); // the entry's side: the account was flat when it was sent
    const price = (ticks: number) => ticksToPrice(ticks, new Dec(view.tickSize), view.priceDecimals);
    const exit = {
      account_id: accountId,
      instrument_id: symbol,
      side: held > 0 ? 'sell' : 'buy',
      quantity: Math.abs(held),
      time_in_force: 'day',
    };
    const target = kernel.dispatch({
      type: 'place_order',
      body: { ...exit, type: 'limit', limit_price: price(lastTicks + dir * entry.targetTicks) },
    });
    const stop = kernel.dispatch({
      type: 'place_order',
      body: { ...exit, type: 'stop', stop_price: price(lastTicks - dir * entry.stopTicks) },
    });
    if (target.ok && stop.ok)
      kernel.dispatch({ type: 'link_oco', body: { order_ids: [target.body.order_id, stop.body.order_id] } });
    return true;
  }

  /** Before the close, or after max_hold_minutes: cancel what is working, close what is held. */
  private closeOut(view: TraderView): void {
    const { kernel, accountId, symbol } = view;
    for (const orderId of kernel.read.workingOrderIds(accountId, 'client'))
      kernel.dispatch({ type: 'cancel_order', order_id: orderId });
    const net = kernel.read.netQuantity(accountId, symbol);
    if (net !== 0)
      kernel.dispatch({
        type: 'place_order',
        body: {
          account_id: accountId,
          instrument_id: symbol,
          side: net > 0 ? 'sell' : 'buy',
          type: 'market',
          quantity: Math.abs(net),
          time_in_force: 'day',
        },
      });
  }
}
