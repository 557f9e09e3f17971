// The position book: every fill (venue or replayed history, docs/risk-rules.md#historical-fills) goes through
// `applyFill`; every trade print through `markPrice`. Pure and in memory; ids of trades come from the injected seeded
// `newId`.
// Order is deterministic everywhere: accounts' positions in the order first traded, fills in the order
// applied, trades in the order opened (Maps and arrays keep insertion order).
import { IdIndex } from '../id-index.js';
import { assertValidExecution, InvalidExecutionError, type Execution } from './execution.js';
import { fillRecordOf, type FillRecord } from './fills.js';
import type { LotRecord } from './lots.js';
import { markIn, type InstrumentMark } from './marks.js';
import { Position, type PositionChange, type PositionView } from './positions.js';
import type { TradeRecord } from './trades.js';
import { declareSnapshot } from '../snapshot/snapshot-fields.js';

export interface PositionBookOptions {
  /** Trade ids (seeded, deterministic); called once per trade opened. */
  readonly newId: () => string;
}

/** What `applyFill` did. */
export interface FillResult {
  readonly fill: FillRecord;
  /** Σ realized P&L of the lots this fill closed (commission not included). */
  readonly realizedCents: number;
  /** The position after the fill, made when read (most fills never need it): read it before the next fill. */
  readonly position: PositionView;
  /** The position went from flat (or never traded) to open: the kernel emits positions.created. */
  readonly openedPosition: boolean;
  /** Lots this fill closed, oldest opening first. */
  readonly closedLots: readonly LotRecord[];
  /** Trade brought to flat by this fill (at most one). */
  readonly tradesClosed: readonly string[];
  /** Trade opened by this fill (from flat, or the remainder of a reversal). */
  readonly tradeOpened: string | undefined;
}

/**
 * A FillResult as a class: one shape for every fill, and the position's view made only when read (most fills never
 * need it). An object literal with a getter and a spread cost a fill more than the rest of its bookkeeping.
 */
class AppliedFill implements FillResult {
  readonly realizedCents: number;
  readonly closedLots: readonly LotRecord[];
  readonly tradesClosed: readonly string[];
  readonly tradeOpened: string | undefined;

  constructor(
    readonly fill: FillRecord,
    private readonly after: Position,
    readonly openedPosition: boolean,
    change: PositionChange,
  ) {
    this.realizedCents = change.realizedCents;
    this.closedLots = change.closedLots;
    this.tradesClosed = change.closedTrade === null ? NO_TRADE_IDS : [change.closedTrade.tradeId];
    this.tradeOpened = change.openedTrade?.tradeId;
  }

  get position(): PositionView {
    return this.after.view();
  }
}

const NO_TRADE_IDS: readonly string[] = Object.freeze([]);

interface AccountEntries {
  /** By symbol, in the order first traded. */
  readonly positions: Map<string, Position>;
  readonly fills: FillRecord[];
  /** In the order opened. */
  readonly trades: TradeRecord[];
}

const NO_FILLS: readonly FillRecord[] = [];
const NO_TRADES: readonly TradeRecord[] = [];
const NO_DATES: ReadonlyMap<string, number> = new Map();

export class PositionBook {
  private readonly newId: () => string;
  private readonly marks = new Map<string, InstrumentMark>();
  private readonly accounts = new Map<string, AccountEntries>();
  /** Every fill in the order applied, of every account (firm-wide and admin lists page through it). */
  private readonly allFills: FillRecord[] = [];
  /** Every trade in the order opened. */
  private readonly allTrades: TradeRecord[] = [];
  private readonly fillsByExecutionId = new IdIndex(
    () => this.allFills,
    (fill: FillRecord) => fill.executionId,
  );
  private readonly tradesById = new IdIndex(
    () => this.allTrades,
    (trade: TradeRecord) => trade.tradeId,
  );
  /** Every position in the order first traded. */
  private readonly allPositions: Position[] = [];

  constructor(options: PositionBookOptions) {
    this.newId = options.newId;
  }

  /**
   * Applies one execution. Checks it before changing anything: InvalidExecutionError for a malformed
   * execution or a repeated execution id, UnknownInstrumentError for a symbol outside the catalog.
   */
  applyFill(e: Execution): FillResult {
    assertValidExecution(e);
    if (this.fillsByExecutionId.has(e.executionId))
      throw new InvalidExecutionError(e.executionId, 'executionId', 'was already applied');
    const mark = this.markOf(e.symbol);
    const account = this.accountOf(e.accountId);
    let position = account.positions.get(e.symbol);
    if (position === undefined) {
      position = new Position(e.accountId, e.symbol, mark, this.allPositions.length + 1);
      account.positions.set(e.symbol, position);
      this.allPositions.push(position);
    }
    const wasFlat = position.netQuantity === 0;
    const change = position.apply(e, this.newId);
    mark.lastFillTicks = e.priceTicks;
    mark.hasFill = true;
    const fill = fillRecordOf(e, change.realizedCents, change.tradeId, this.allFills.length + 1);
    account.fills.push(fill);
    this.allFills.push(fill);
    if (change.openedTrade !== null) {
      change.openedTrade.seq = this.allTrades.length + 1;
      account.trades.push(change.openedTrade);
      this.allTrades.push(change.openedTrade);
    }
    return new AppliedFill(fill, position, wasFlat && position.netQuantity !== 0, change);
  }

  /** Indexes the fills and trades a restore put in the lists (docs/architecture.md#indexes-by-id). */
  catchUpIndexes(): void {
    this.fillsByExecutionId.catchUp();
    this.tradesById.catchUp();
  }

  /** Takes the last trade print of an instrument. O(1) and allocation-free after the symbol's first print. */
  markPrice(symbol: string, priceTicks: number): void {
    if (!Number.isSafeInteger(priceTicks))
      throw new RangeError(`${symbol}: print of ${priceTicks} ticks is not an integer`);
    const mark = this.markOf(symbol);
    mark.lastPrintTicks = priceTicks;
    mark.hasPrint = true;
  }

  /** The price positions in `symbol` are marked at, in ticks: last print, else last fill; null if neither. */
  markTicks(symbol: string): number | null {
    return this.marks.get(symbol)?.markTicks ?? null;
  }

  /**
   * The account's open positions as the live objects (read only): the risk engine derives its floor
   * thresholds from their lot totals without copying views.
   */
  openPositions(accountId: string): Position[] {
    const account = this.accounts.get(accountId);
    const open: Position[] = [];
    if (account) for (const position of account.positions.values()) if (position.netQuantity !== 0) open.push(position);
    return open;
  }

  /** Signed net quantity of an (account, symbol), 0 when flat or never traded; no copy made. */
  livePositionQuantity(accountId: string, symbol: string): number {
    return this.accounts.get(accountId)?.positions.get(symbol)?.netQuantity ?? 0;
  }

  /** The position of an (account, symbol), flat or open; undefined when it never traded. */
  position(accountId: string, symbol: string): PositionView | undefined {
    return this.accounts.get(accountId)?.positions.get(symbol)?.view();
  }

  /** Every position the account traded, flat ones included, first traded first. */
  positions(accountId: string): PositionView[] {
    const account = this.accounts.get(accountId);
    if (account === undefined) return [];
    const views: PositionView[] = [];
    for (const position of account.positions.values()) views.push(position.view());
    return views;
  }

  /** Σ over the account's positions of their unrealized P&L (each rounded to cents once) at each mark. */
  unrealizedCents(accountId: string): number {
    const account = this.accounts.get(accountId);
    if (account === undefined) return 0;
    let total = 0;
    for (const position of account.positions.values()) total += position.unrealizedCents();
    return total;
  }

  /**
   * Realized P&L of one position by GLOBEX trade date (live, read-only): one entry per trade date the position
   * traded on, 0 when nothing was realized; its keys, in order, are the position's trade dates.
   */
  realizedByTradeDate(accountId: string, symbol: string): ReadonlyMap<string, number> {
    return this.accounts.get(accountId)?.positions.get(symbol)?.realizedByTradeDateCents ?? NO_DATES;
  }

  /** A trade by id (live, read-only: an open trade keeps changing). */
  trade(tradeId: string): Readonly<TradeRecord> | undefined {
    return this.tradesById.get(tradeId);
  }

  /** The account's trades in the order opened (live, read-only). */
  trades(accountId: string): readonly Readonly<TradeRecord>[] {
    return this.accounts.get(accountId)?.trades ?? NO_TRADES;
  }

  /** The account's fills in the order applied (live, read-only). */
  fills(accountId: string): readonly FillRecord[] {
    return this.accounts.get(accountId)?.fills ?? NO_FILLS;
  }

  /** Every account's fills in the order applied (live, read-only). */
  everyFill(): readonly FillRecord[] {
    return this.allFills;
  }

  /** Every account's trades in the order opened (live, read-only). */
  everyTrade(): readonly Readonly<TradeRecord>[] {
    return this.allTrades;
  }

  /** Every position of every account in the order first traded (live, read-only). */
  everyPosition(): readonly Position[] {
    return this.allPositions;
  }

  private markOf(symbol: string): InstrumentMark {
    return markIn(this.marks, symbol);
  }

  private accountOf(accountId: string): AccountEntries {
    let account = this.accounts.get(accountId);
    if (account === undefined) {
      account = { positions: new Map(), fills: [], trades: [] };
      this.accounts.set(accountId, account);
    }
    return account;
  }
}

// The indexes by id are caught up after a restore (docs/architecture.md#indexes-by-id).
declareSnapshot(PositionBook, {
  kept: ['marks', 'accounts', 'allFills', 'allTrades', 'allPositions'],
  skipped: ['newId', 'fillsByExecutionId', 'tradesById'],
});
