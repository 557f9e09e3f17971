// One grid cell of a back-test: a fresh kernel, one account per trader on the cell's plan, the market replayed
// over the period with the traders waking in between, then the outcomes. Input and output are plain data, so
// a cell runs the same in this thread, a worker thread, or another machine.
import { parsePlanTemplate } from '../core/accounts/plans.js';
import { GlobexCalendar, type Session } from '../core/calendar/index.js';
import { SimClock } from '../core/clock.js';
import { canonicalSymbol, parseSymbol } from '../core/instruments.js';
import { Kernel } from '../core/kernel/kernel.js';
import { planJson } from '../core/kernel/read/risk-json.js';
import { formatCents } from '../core/money.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import type { BacktestConfig } from './backtest-config.js';
import { planForCell, splitCellValues, type GridCell } from './grid.js';
import {
  evaluationOnlyEconomics,
  failureDayCount,
  firstOutcomeOf,
  funnelEconomics,
  summarizeCell,
  traderOutcome,
  type CellSummary,
  type TraderOutcome,
} from './outcomes.js';
import { droppedBecause, noDroppedFills, type DroppedFills } from './dropped-fills.js';
import { PositionsNeverHad } from './positions-never-had.js';
import { RecordedResets, ResetDraws, TraderFunnel } from './trader-funnel.js';
import { readRecordsFile } from './validation/records-file.js';
import type { TraderValidation } from './validation/compare-records.js';
import { validateCell } from './validation/validate-cell.js';
import { readFillsFile, type TraderFill } from './trader-fills.js';
import { createTrader, type SyntheticTrader } from './traders/strategies.js';
import { AFTER_NEXT_PRINT, TraderRandom, type TraderView } from './traders/strategy.js';
import { periodSessions, tradersOf, type TraderSpec } from './trader-roster.js';
import { sessionFamily } from './block-instruments.js';
import { TradedMarkets, type MissingPrints, type TradedMarket } from './traded-markets.js';
import { RootChoice } from './root-choice.js';
import { cellTape, type TapeDescription } from './tape/cell-tape.js';
import type { InstrumentWeight } from './traders/strategy.js';

export interface CellInput {
  config: BacktestConfig;
  cell: GridCell;
}

/** [time ms, equity cents, max-loss trigger cents, daily-loss trigger cents or null] */
export type SamplePoint = [number, number, number, number | null];

/** [time ms, p10, p50, p90] of every account's headroom (equity − max-loss trigger, cents) at that time. */
export type FanPoint = [number, number, number, number];

export interface CellResult {
  cell: GridCell;
  summary: CellSummary;
  traders: TraderOutcome[];
  /** Sampled traders' lines; a failed account's line ends at the sample that saw the breach. */
  samples: Array<{ trader: string; points: SamplePoint[] }>;
  /** Percentiles of headroom over all the cell's accounts, every sample time (docs/backtesting.md#reading-reporthtml). */
  fan: FanPoint[];
  prints: number;
  /** Trade dates in the period: the days its outcomes are counted in. */
  periodDays: number;
  accountSessionDays: number;
  /** Sessions in which the contract of a root a block trades had no print, in session order. */
  missingPrints: MissingPrints[];
  /** With market.resample: the real sessions laid on the period (the same in every cell). */
  tape?: TapeDescription;
  /** The reference cell with the firm's records: each recorded trader against its record. */
  validation?: TraderValidation[];
}

const SAMPLE_EVERY_MS = 30 * 60_000;

type Due = { kind: 'wake'; trader: number } | { kind: 'fill'; fill: TraderFill } | { kind: 'sample' };

interface Participant {
  spec: TraderSpec;
  /** The account the trader trades into now (with the funnel, it changes at session opens). */
  accountId: string;
  trader: SyntheticTrader | undefined;
  funnel: TraderFunnel | undefined;
  /** Its historical fills the engine dropped, by why. */
  dropped: DroppedFills;
  /** Without roots: the contract it trades. */
  market: TradedMarket | undefined;
  /** With roots: draws the market of its next entry, and keeps it as the one it trades. */
  choice: RootChoice | undefined;
  /** Positions its account opened that its own fills never had. */
  neverHad: PositionsNeverHad;
  /** What it sees when it wakes: one object, brought up to date at each wake-up (a new one each time was garbage). */
  view: TraderView | undefined;
}

/** Sees the kernel at the end of a cell, with each trader's account: calibration reads the synthetic traders' fills. */
export type CellObserver = (kernel: Kernel, accounts: ReadonlyArray<{ trader: string; accountId: string }>) => void;

export async function runCell(
  { config, cell }: CellInput,
  calendar = new GlobexCalendar(loadHolidayFile()),
  observe?: CellObserver,
): Promise<CellResult> {
  const cellValues = splitCellValues(cell.values);
  const plan = parsePlanTemplate(planForCell(config.basePlan, cellValues.evaluation), `grid cell ${cell.label}`);
  // Synthetic traders without instruments trade the first market file's instrument (the config then names it). On
  // a resampled tape that contract stands for its root, rolled on the period's dates as a block's roots are.
  const first = config.market[0]!.instrument;
  const rolledRoot = config.resample && first !== undefined ? parseSymbol(first).root : undefined;
  const fixedSymbol = first === undefined || rolledRoot ? undefined : canonicalSymbol(parseSymbol(first));
  const instrumentsOf = (spec: TraderSpec): InstrumentWeight[] | undefined =>
    spec.instruments ?? (rolledRoot === undefined ? undefined : [{ root: rolledRoot, weight: 1 }]);
  const family = sessionFamily(config);
  const sessions = periodSessions(calendar, config.period, family);
  if (sessions.length === 0)
    throw new Error(`no ${family} session between ${config.period.from} and ${config.period.to}`);
  const startMs = sessions[0]!.openMs;
  const endMs = sessions[sessions.length - 1]!.closeMs;
  const kernel = new Kernel({
    startMs,
    seed: config.seed,
    calendar,
    fillModel: config.fillModel,
    journal: false,
    rollFamily: family,
  });
  const fills = config.fills ? readFillsFile(config.fills) : [];
  const records = config.fills?.records === undefined ? [] : readRecordsFile(config.fills.records);
  // With records, a recorded trader resets as often as it really did, not by a draw at the configured rate.
  const recordedResets = new Map(records.flatMap((r) => (r.resets === undefined ? [] : [[r.trader, r.resets]])));
  const planDoc = planJson(plan);
  const pricePaid = formatCents(config.economics.pricePaidCents);
  const funnelSpec = config.economics.funnel;
  const funnelPlans = funnelSpec && {
    evaluation: planDoc,
    funded:
      funnelSpec.funded &&
      planJson(parsePlanTemplate(planForCell(funnelSpec.funded.plan, cellValues.funded), `grid cell ${cell.label}`)),
  };
  const roots = [
    ...new Set(
      config.synthetic.flatMap((block) =>
        (block.instruments ?? (rolledRoot === undefined ? [] : [{ root: rolledRoot }])).map((i) => i.root),
      ),
    ),
  ];
  const markets = new TradedMarkets(fixedSymbol, roots, sessions);
  const participants: Participant[] = tradersOf(config, fills).map((traderSpec, index) => {
    const trader =
      traderSpec.strategy === 'fills'
        ? undefined
        : createTrader(traderSpec.strategy, traderSpec.id, traderSpec.seed, traderSpec.params);
    // The reset draws' seed, like a synthetic trader's, comes from the config seed and the roster place.
    const funnel =
      funnelSpec &&
      new TraderFunnel(
        funnelSpec,
        kernel,
        traderSpec.id,
        funnelPlans!,
        recordedResets.has(traderSpec.id)
          ? new RecordedResets(recordedResets.get(traderSpec.id)!)
          : new ResetDraws(config.seed * 1_000_003 + index),
        sessions[0]!,
        trader?.quitsAfterFailure,
      );
    const accountId = funnel ? funnel.accountId : openAccount(kernel, traderSpec.id, planDoc, pricePaid, cell.label);
    const instruments = instrumentsOf(traderSpec);
    const market = trader && !instruments ? markets.market(fixedSymbol!) : undefined;
    const participant: Participant = {
      spec: traderSpec,
      accountId,
      trader,
      funnel,
      dropped: noDroppedFills(),
      market,
      choice: undefined,
      neverHad: new PositionsNeverHad(),
      view: undefined,
    };
    if (trader && instruments)
      // Its roots are drawn from a stream of its own, so its other draws are those it makes without instruments.
      participant.choice = new RootChoice(markets, markets.resolve(instruments), new TraderRandom(traderSpec.seed, 2));
    return participant;
  });
  const byName = new Map(participants.map((p) => [p.spec.id, p]));
  const due = new SimClock<Due>(startMs);
  for (const fill of fills)
    if (fill.timeMs >= startMs && fill.timeMs < endMs) due.schedule(fill.timeMs, { kind: 'fill', fill });
  const sampled = participants.slice(0, config.sampleTraders);
  const samples = sampled.map((p) => ({ trader: p.spec.id, points: [] as SamplePoint[] }));
  const ended = sampled.map(() => false);
  const fan: FanPoint[] = [];
  due.schedule(startMs, { kind: 'sample' });

  let session: Session | undefined;
  const onDue = (item: Due, atMs: number) => {
    kernel.advanceTo(atMs);
    if (item.kind === 'fill') {
      const who = byName.get(item.fill.trader)!;
      // Moved to a live account (payout.max_count): its later fills are the live account's, which no cell simulates.
      if (who.funnel?.trading === false) return;
      const fillSymbol = canonicalSymbol(parseSymbol(item.fill.symbol));
      const accountBefore = kernel.read.netQuantity(who.accountId, fillSymbol);
      const recorded = kernel.dispatch({
        type: 'record_fill',
        account_id: who.accountId,
        instrument_id: item.fill.symbol,
        side: item.fill.side,
        quantity: item.fill.quantity,
        price: item.fill.price,
        occurred_at: item.fill.timeMs,
      });
      if (recorded.ok && 'dropped' in recorded.body)
        who.dropped[droppedBecause(kernel.read.accountState(who.accountId)!)]++;
      const signed = item.fill.side === 'buy' ? item.fill.quantity : -item.fill.quantity;
      who.neverHad.afterFill(fillSymbol, signed, accountBefore, kernel.read.netQuantity(who.accountId, fillSymbol));
    } else if (item.kind === 'sample') {
      sampled.forEach((p, i) => {
        const points = samples[i]!.points;
        if (!ended[i]) points.push(samplePoint(kernel, p.accountId, atMs));
        ended[i] = kernel.read.riskNumbers(p.accountId)!.failed;
      });
      fan.push(headroomPercentiles(kernel, participants, atMs));
      if (atMs + SAMPLE_EVERY_MS < endMs) due.schedule(atMs + SAMPLE_EVERY_MS, { kind: 'sample' });
    } else {
      const p = participants[item.trader]!;
      if (p.funnel?.trading === false) return;
      const market = p.choice ? p.choice.market : p.market!;
      const view = (p.view ??= {
        kernel,
        accountId: p.accountId,
        symbol: market.symbol,
        tickSize: market.tickSize,
        priceDecimals: market.priceDecimals,
        bars: market.bars,
        session,
        markets: p.choice,
      });
      view.accountId = p.accountId;
      view.symbol = market.symbol;
      view.tickSize = market.tickSize;
      view.priceDecimals = market.priceDecimals;
      view.bars = market.bars;
      view.session = session;
      const next = p.trader!.wake(view);
      // The market it entered may be one it has just drawn.
      if (next === AFTER_NEXT_PRINT) (p.choice ? p.choice.market : market).waiting.push(item.trader);
      else if (next !== undefined && next < endMs) due.schedule(next, item);
    }
  };
  /** After the roll, at the session's open: each trader's funnel moves (reset, activation, bill, payout). */
  const openInFunnel = (opening: Session, index: number, previous: Session) => {
    due.advanceTo(Math.max(due.nowMs, opening.openMs), onDue);
    kernel.advanceTo(opening.openMs);
    for (const p of participants) {
      p.funnel!.atSessionOpen(opening, index, previous);
      p.accountId = p.funnel!.accountId;
    }
  };
  /** Traders waiting for the market's next print (an entry waiting for its fill) wake right after it. */
  const wakeAfterPrint = (market: TradedMarket, timeMs: number) => {
    const waiting = market.waiting;
    market.waiting = [];
    for (const trader of waiting) onDue({ kind: 'wake', trader }, timeMs);
  };
  const missingPrints: MissingPrints[] = [];
  /** The session is over: a trader still waiting for a print is woken at its close instead, to close out. */
  const endSession = (closeMs: number) => {
    for (const market of markets.all()) {
      for (const trader of market.waiting) due.schedule(Math.max(due.nowMs, closeMs - 1), { kind: 'wake', trader });
      market.waiting = [];
    }
    due.advanceTo(Math.max(due.nowMs, closeMs - 1), onDue);
    missingPrints.push(...markets.missingIn(markets.sessionIndex));
  };

  let prints = 0;
  const tape = await cellTape(config, sessions, calendar);
  reading: for await (const batch of tape.batches) {
    for (let i = 0; i < batch.length; i++) {
      const timeMs = batch.timeMs[i]!;
      if (timeMs < startMs) continue;
      if (timeMs >= endMs) break reading;
      while (markets.sessionIndex + 1 < sessions.length && timeMs >= sessions[markets.sessionIndex + 1]!.openMs) {
        // Wake-ups of the session that ended (its close-out) happen before the next one starts, even
        // when no print fell between them.
        if (session) endSession(session.closeMs);
        const previous = session;
        session = sessions[++markets.sessionIndex]!;
        if (funnelSpec && previous) openInFunnel(session, markets.sessionIndex, previous);
        participants.forEach((p, index) => {
          if (p.trader)
            due.schedule(Math.max(due.nowMs, p.trader.firstWake(session!.openMs)), { kind: 'wake', trader: index });
        });
      }
      due.advanceTo(timeMs, onDue);
      const printed = markets.ofPrint(batch, i);
      kernel.print(printed.symbol, batch.priceTicks[i]!, batch.size[i]!, timeMs);
      const market = printed.market;
      if (market) {
        market.bars.onPrint(timeMs, batch.priceTicks[i]!);
        market.lastPrintSession = markets.sessionIndex;
        if (market.waiting.length > 0) wakeAfterPrint(market, timeMs);
      }
      prints++;
    }
  }
  if (session) endSession(session.closeMs);
  due.advanceTo(endMs, onDue);
  // Sessions after the last print had none of any contract.
  for (let later = markets.sessionIndex + 1; later < sessions.length; later++)
    missingPrints.push(...markets.missingIn(later));
  // The roll after the last session settles passing (docs/risk-rules.md#passing).
  const finalRollMs = calendar.nextSessionRollFamily(endMs, family);
  kernel.advanceTo(finalRollMs);
  observe?.(
    kernel,
    participants.map((p) => ({ trader: p.spec.id, accountId: p.accountId })),
  );

  // A breach counts the session it happened in; a pass, decided at a roll, counts the sessions closed by then, and so
  // does a failure by a rule judged at a roll (the time limit).
  const dayIndexOf = (timeMs: number, at: 'in_session' | 'at_roll') =>
    at === 'at_roll'
      ? sessions.filter((s) => s.closeMs <= timeMs).length
      : Math.max(1, sessions.filter((s) => s.openMs <= timeMs).length);
  const failedAtDay = (accountId: string) => {
    const account = kernel.read.accountHistory(accountId);
    const history = account.statusHistory;
    return dayIndexOf(history[history.length - 1]!.occurredAtMs, failureDayCount(account.failedRule));
  };
  const traders = participants.map((p): TraderOutcome => {
    const evaluationAccounts = p.funnel ? p.funnel.evaluationAccounts : [p.accountId];
    const histories = evaluationAccounts.map((id) => kernel.read.accountHistory(id));
    const evaluation = traderOutcome(p.spec.id, p.spec.strategy, histories, sessions.length, dayIndexOf);
    const first = firstOutcomeOf(histories[0]!, sessions.length, dayIndexOf);
    if (!p.funnel)
      return {
        ...evaluation,
        ...evaluationOnlyEconomics(evaluation, config.economics.pricePaidCents, config.economics.payoutShare),
        droppedFills: p.dropped,
        positionsNeverHad: p.neverHad.count,
        ...first,
      };
    p.funnel.atEnd(
      sessions[sessions.length - 1]!,
      sessions.length,
      failedAtDay,
      calendar.tradeDateOfFamily(finalRollMs, family),
    );
    return {
      ...evaluation,
      ...funnelEconomics(p.funnel.path),
      funnel: p.funnel.path,
      droppedFills: p.dropped,
      positionsNeverHad: p.neverHad.count,
      ...first,
    };
  });
  const evaluationAccountsOf = new Map(
    participants.map((p) => [p.spec.id, p.funnel ? p.funnel.evaluationAccounts : [p.accountId]]),
  );
  const failuresOf = (trader: string) =>
    evaluationAccountsOf.get(trader)!.flatMap((id) =>
      kernel.read
        .accountHistory(id)
        .statusHistory.filter((record) => record.status === 'failed')
        .map((record) => ({
          atMs: record.occurredAtMs,
          tradeDate: calendar.tradeDateOfFamily(record.occurredAtMs, family),
          reason: record.reason,
          ...(record.rule === undefined ? {} : { rule: record.rule }),
        })),
    );
  const validation =
    records.length > 0 && cell.index === config.compareTo
      ? validateCell(records, traders, failuresOf, sessions, { resets: funnelSpec?.evaluation.reset !== undefined })
      : undefined;
  return {
    cell,
    summary: summarizeCell(traders),
    traders,
    samples,
    fan,
    prints,
    periodDays: sessions.length,
    accountSessionDays: participants.length * sessions.length,
    missingPrints,
    ...(tape.description === undefined ? {} : { tape: tape.description }),
    ...(validation === undefined ? {} : { validation }),
  };
}

function openAccount(kernel: Kernel, alias: string, plan: unknown, pricePaid: string, cellLabel: string): string {
  const opened = kernel.dispatch({ type: 'open_account', alias, plan, price_paid: pricePaid });
  if (!opened.ok) throw new Error(`grid cell ${cellLabel}: ${opened.body.error}`);
  return opened.body.account_id;
}

function samplePoint(kernel: Kernel, accountId: string, atMs: number): SamplePoint {
  const numbers = kernel.read.riskNumbers(accountId)!;
  return [atMs, numbers.equityCents, numbers.maxLossTriggerCents, numbers.dailyLossTriggerCents];
}

/** p10, p50 and p90 (nearest rank) of equity − max-loss trigger over the accounts: 0 or less is a breach. */
function headroomPercentiles(
  kernel: Kernel,
  participants: ReadonlyArray<{ accountId: string }>,
  atMs: number,
): FanPoint {
  const headroom = participants.map((p) => {
    const numbers = kernel.read.riskNumbers(p.accountId)!;
    return numbers.equityCents - numbers.maxLossTriggerCents;
  });
  headroom.sort((a, b) => a - b);
  return [atMs, nearestRank(headroom, 0.1), nearestRank(headroom, 0.5), nearestRank(headroom, 0.9)];
}

function nearestRank(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}
