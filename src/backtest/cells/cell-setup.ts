// What a cell starts from (docs/backtesting.md#running): the period's sessions, a fresh kernel, the contracts the
// synthetic traders trade, and one participant per trader of the roster, each with its account on the cell's plan
// (or its funnel, which opens them), its strategy and the market it trades.
import { parsePlanTemplate } from '../../core/accounts/plans.js';
import type { GlobexCalendar, Session } from '../../core/calendar/index.js';
import { canonicalSymbol, parseSymbol, type ProductFamily } from '../../core/instruments.js';
import { Kernel } from '../../core/kernel/kernel.js';
import { planJson } from '../../core/kernel/read/risk-json.js';
import { formatCents } from '../../core/money.js';
import type { BacktestConfig } from '../config/backtest-config.js';
import { planForCell, splitCellValues, type GridCell } from '../config/grid.js';
import { periodSessions, tradersOf, type TraderSpec } from '../config/trader-roster.js';
import { sessionFamily } from '../config/block-instruments.js';
import { noDroppedFills, type DroppedFills } from '../fills/dropped-fills.js';
import { PositionsNeverHad } from '../fills/positions-never-had.js';
import { readFillsFile, type TraderFill } from '../fills/trader-fills.js';
import { RecordedResets, ResetDraws, TraderFunnel } from '../funnel/trader-funnel.js';
import { readRecordsFile, type TraderRecord } from '../validation/records-file.js';
import { createTrader, type SyntheticTrader } from '../traders/strategies.js';
import { TraderRandom, type InstrumentWeight, type TraderView } from '../traders/strategy.js';
import { TradedMarkets, type TradedMarket } from './traded-markets.js';
import { RootChoice } from './root-choice.js';

/** One trader of the roster in a cell. */
export interface Participant {
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

export interface CellSetup {
  kernel: Kernel;
  /** The session family every account rolls by. */
  family: ProductFamily;
  sessions: Session[];
  startMs: number;
  endMs: number;
  markets: TradedMarkets;
  participants: Participant[];
  /** The fills file's executions (all of them: the replay keeps those in the period). */
  fills: TraderFill[];
  /** The firm's records of its traders, when the config names them. */
  records: TraderRecord[];
}

/** The cell's period, kernel, markets and participants, before any print. */
export function setUpCell(config: BacktestConfig, cell: GridCell, calendar: GlobexCalendar): CellSetup {
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
  const records =
    config.fills?.records === undefined ? [] : readRecordsFile(config.fills.records, config.fills.recordsSha256);
  const instruments = cellInstruments(config);
  const markets = new TradedMarkets(instruments.fixedSymbol, instruments.roots, sessions);
  const participants = openParticipants(config, cell, { kernel, sessions, markets, fills, records, instruments });
  return { kernel, family, sessions, startMs, endMs, markets, participants, fills, records };
}

interface CellInstruments {
  /** The one contract of synthetic traders without instruments, when it is fixed (no resampled tape). */
  fixedSymbol: string | undefined;
  /** Every root a synthetic block trades. */
  roots: string[];
  /** The roots a trader trades, or undefined for the fixed contract. */
  of: (spec: TraderSpec) => InstrumentWeight[] | undefined;
}

/**
 * Synthetic traders without instruments trade the first market file's instrument (the config then names it). On a
 * resampled tape that contract stands for its root, rolled on the period's dates as a block's roots are.
 */
function cellInstruments(config: BacktestConfig): CellInstruments {
  const first = config.market[0]!.instrument;
  const rolledRoot = config.resample && first !== undefined ? parseSymbol(first).root : undefined;
  const fixedSymbol = first === undefined || rolledRoot ? undefined : canonicalSymbol(parseSymbol(first));
  const roots = [
    ...new Set(
      config.synthetic.flatMap((block) =>
        (block.instruments ?? (rolledRoot === undefined ? [] : [{ root: rolledRoot }])).map((i) => i.root),
      ),
    ),
  ];
  return {
    fixedSymbol,
    roots,
    of: (spec) => spec.instruments ?? (rolledRoot === undefined ? undefined : [{ root: rolledRoot, weight: 1 }]),
  };
}

/** Every trader of the roster with its account (or funnel), strategy and market, in roster order. */
function openParticipants(
  config: BacktestConfig,
  cell: GridCell,
  setup: Pick<CellSetup, 'kernel' | 'sessions' | 'markets' | 'fills' | 'records'> & { instruments: CellInstruments },
): Participant[] {
  const { kernel, sessions, markets, records, instruments } = setup;
  const cellValues = splitCellValues(cell.values);
  const planDoc = planJson(
    parsePlanTemplate(planForCell(config.basePlan, cellValues.evaluation), `grid cell ${cell.label}`),
  );
  const pricePaid = formatCents(config.economics.pricePaidCents);
  const funnelSpec = config.economics.funnel;
  const funnelPlans = funnelSpec && {
    evaluation: planDoc,
    funded:
      funnelSpec.funded &&
      planJson(parsePlanTemplate(planForCell(funnelSpec.funded.plan, cellValues.funded), `grid cell ${cell.label}`)),
  };
  // With records, a recorded trader resets as often as it really did, not by a draw at the configured rate.
  const recordedResets = new Map(records.flatMap((r) => (r.resets === undefined ? [] : [[r.trader, r.resets]])));
  return tradersOf(config, setup.fills).map((traderSpec, index) => {
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
    const roots = instruments.of(traderSpec);
    // Its roots are drawn from a stream of its own, so its other draws are those it makes without instruments.
    const choice =
      trader && roots
        ? new RootChoice(markets, markets.resolve(roots), new TraderRandom(traderSpec.seed, 2))
        : undefined;
    const market = trader && !roots ? markets.market(instruments.fixedSymbol!) : undefined;
    const neverHad = new PositionsNeverHad();
    return {
      spec: traderSpec,
      accountId,
      trader,
      funnel,
      dropped: noDroppedFills(),
      market,
      choice,
      neverHad,
      view: undefined,
    };
  });
}

function openAccount(kernel: Kernel, alias: string, plan: unknown, pricePaid: string, cellLabel: string): string {
  const opened = kernel.dispatch({ type: 'open_account', alias, plan, price_paid: pricePaid });
  if (!opened.ok) throw new Error(`grid cell ${cellLabel}: ${opened.body.error}`);
  return opened.body.account_id;
}
