// Daily position records (docs/order-lifecycle.md#daily-position-records): one per (instrument_id, trade_date) where
// the account held or traded the instrument that trade date. net_quantity and average_price are those at the session
// close, realized_pnl is that trade date's, unrealized_pnl is taken at the last print at or before the close (else,
// like the live mark, the last fill price of the instrument).
//
// Computed from a finished run's journal, not from a live kernel: the fills (`fills.created`) are re-applied,
// in the order they occurred, to a fresh PositionBook (FIFO lots, the same arithmetic as the kernel), and the
// prints (`input.print`, `input.tick`, and the `input.market_prints` ranges of referenced market files) mark it,
// stopping at each session close to read the positions. Pure: no I/O; the caller parses the journal, reads the
// referenced market files and supplies the calendar.
import type { Execution } from '../../positions/execution.js';
import type { GlobexCalendar } from '../../calendar/globex-calendar.js';
import { addDays } from '../../calendar/dates.js';
import { canonicalSymbol, parseSymbol } from '../../instruments.js';
import type { JournalEntry } from '../persistence/journal.js';
import type { MarketPrintCursor } from '../persistence/market-prints.js';
import { Dec, formatCents, parseCents, parseDecimal, priceToTicks } from '../../money.js';
import type { DailyPositionJson } from '../../shapes/position.js';
import { PositionBook } from '../../positions/position-book.js';
import { RunPrints } from '../../positions/run-prints.js';

export { RunPrints, type RunPrint } from '../../positions/run-prints.js';

/** Daily position record of the interface: average_price is left out when flat at the close. */
export type DailyPositionRecord = DailyPositionJson;

export const DAILY_POSITION_FIELDS = [
  'trade_date',
  'instrument_id',
  'net_quantity',
  'average_price',
  'realized_pnl',
  'unrealized_pnl',
] as const;

/** An account of the run: its id and, when it was opened with one, its alias. */
export interface RunAccount {
  readonly accountId: string;
  readonly alias: string | null;
}

/**
 * One execution of the run (any account), as journaled in `fills.created`, in journal order (`seq`). Its commission
 * is kept for the report's commissions column; the position book never charges it to lots.
 */
export type RunFill = Omit<Execution, 'orderId'> & { readonly seq: number };

/** What the daily records are computed from: the run's accounts, fills and prints, and when it ended. */
export interface PositionHistory {
  readonly accounts: readonly RunAccount[];
  readonly fills: readonly RunFill[];
  readonly prints: RunPrints;
  /** Where the run's clock stopped (its last line or last advance): nothing is known of the market after it. */
  readonly endMs: number;
}

/** A journal line this reader cannot use (a field missing or of the wrong type). */
export class JournalReadError extends Error {
  override name = 'JournalReadError';
}

type Data = Record<string, unknown>;

/** The journal lines from which `positionHistoryOf` takes fills and prints. */
export const FILL_AND_PRINT_TYPES: ReadonlySet<string> = new Set([
  'fills.created',
  'input.print',
  'input.tick',
  'input.market_prints',
]);

/** The journal lines `positionHistoryOf` reads; a journal that keeps only these still gives daily positions. */
export const POSITION_HISTORY_TYPES: ReadonlySet<string> = new Set([
  ...FILL_AND_PRINT_TYPES,
  'input.advance',
  'input.open_account',
  'accounts.created',
  'input.market_files',
]);

/**
 * The accounts, fills and prints of a run's journal (entries in seq order). An alias comes from the
 * `input.open_account` line that opened the account (the `accounts.created` line that follows it). `market`
 * supplies the prints of the market files the journal references, when it does.
 */
export function positionHistoryOf(entries: readonly JournalEntry[], market?: MarketPrintCursor): PositionHistory {
  const accounts: RunAccount[] = [];
  const fills: RunFill[] = [];
  const prints = new RunPrints();
  let endMs = Number.NEGATIVE_INFINITY;
  let pendingAlias: string | null | undefined;
  for (const entry of entries) {
    const where = `line seq ${entry.seq} (${entry.type})`;
    if (typeof entry.time_ms !== 'number' || !Number.isSafeInteger(entry.time_ms))
      throw new JournalReadError(`${where}: time_ms is not integer milliseconds`);
    const d = (entry.data ?? {}) as Data;
    if (entry.type === 'input.market_prints') {
      // The kernel's clock is where the run had got to (endMs): it skipped prints stamped before it.
      if (!market) throw new JournalReadError(`${where}: the journal references market files; their prints are needed`);
      for (const p of market.range(integer(d, 'from', where), integer(d, 'to', where))) {
        if (p.timeMs < endMs) continue;
        endMs = p.timeMs;
        prints.push(entry.seq, p.symbol, p.priceTicks, p.timeMs);
      }
    }
    endMs = Math.max(endMs, entry.time_ms);
    switch (entry.type) {
      case 'input.advance': {
        // Journaled at the time the clock moves from: the run reached `to_ms` (`to` in journals before 0.2).
        const to = d.to_ms ?? d.to;
        if (typeof to === 'number' && Number.isSafeInteger(to)) endMs = Math.max(endMs, to);
        break;
      }
      case 'input.open_account':
        pendingAlias = typeof d.alias === 'string' ? d.alias : null;
        break;
      case 'accounts.created':
        accounts.push({ accountId: text(d, 'account_id', where), alias: pendingAlias ?? null });
        pendingAlias = undefined;
        break;
      case 'fills.created': {
        const symbol = canonical(text(d, 'instrument_id', where));
        const side = text(d, 'side', where);
        if (side !== 'buy' && side !== 'sell') throw new JournalReadError(`${where}: side is ${JSON.stringify(side)}`);
        fills.push({
          seq: entry.seq,
          executionId: text(d, 'execution_id', where),
          accountId: text(d, 'account_id', where),
          symbol,
          side,
          quantity: integer(d, 'quantity', where),
          priceTicks: ticksOf(symbol, text(d, 'price', where)),
          occurredAtMs: integer(d, 'occurred_at', where),
          tradeDate: text(d, 'trade_date', where),
          commissionCents: parseCents(text(d, 'commission', where), `${where}: commission`),
        });
        break;
      }
      case 'input.print':
        prints.push(
          entry.seq,
          canonical(text(d, 'instrument', where)),
          integer(d, 'price_ticks', where),
          entry.time_ms,
        );
        break;
      case 'input.tick': {
        const symbol = canonical(text(d, 'instrument_id' in d ? 'instrument_id' : 'instrument', where));
        prints.push(entry.seq, symbol, ticksOf(symbol, text(d, 'price', where)), entry.time_ms);
        break;
      }
    }
  }
  return { accounts, fills, prints, endMs: Number.isFinite(endMs) ? endMs : 0 };
}

export interface DailyPositionQuery {
  accountId: string;
  /** YYYY-MM-DD trade dates, inclusive. */
  fromDate: string;
  toDate: string;
  /** Only this instrument (canonical symbol). */
  instrumentId?: string;
}

interface Sample {
  symbol: string;
  tradeDate: string;
  openMs: number;
  closeMs: number;
}

/**
 * The account's daily position records for trade dates in [fromDate, toDate], sorted by trade_date then
 * instrument_id. A trade date is one of the instrument's GLOBEX sessions; it gets a record when the account
 * traded the instrument that date (a fill stamped with it) or held it at the close. Sessions that had not
 * opened by the end of the run get none: the run says nothing about them. The session in progress at the end
 * reads the run's final state.
 */
export function dailyPositions(
  history: PositionHistory,
  calendar: GlobexCalendar,
  query: DailyPositionQuery,
): DailyPositionRecord[] {
  const own = history.fills.filter(
    (f) => f.accountId === query.accountId && (query.instrumentId === undefined || f.symbol === query.instrumentId),
  );
  if (own.length === 0 || query.fromDate > query.toDate) return [];

  // Which (instrument, trade date) closes to look at: from the account's first trade date in the instrument to
  // its last, or the last session opened by the end of the run when later, clipped to the range.
  const samples: Sample[] = [];
  for (const symbol of new Set(own.map((f) => f.symbol))) {
    const family = parseSymbol(symbol).spec.family;
    const dates = own.filter((f) => f.symbol === symbol).map((f) => f.tradeDate);
    const first = dates.reduce((a, b) => (b < a ? b : a));
    const lastFill = dates.reduce((a, b) => (b > a ? b : a));
    const atEnd = calendar.sessionAtFamily(history.endMs, family).tradeDate;
    const last = lastFill > atEnd ? lastFill : atEnd;
    const start = first > query.fromDate ? first : query.fromDate;
    const stop = last < query.toDate ? last : query.toDate;
    for (let date = start; date <= stop; date = addDays(date, 1)) {
      const session = calendar.sessionOf(date, family);
      if (session) samples.push({ symbol, tradeDate: date, openMs: session.openMs, closeMs: session.closeMs });
    }
  }
  samples.sort((a, b) => a.closeMs - b.closeMs || compare(a.symbol, b.symbol));

  // Every account's fills of these instruments go into the book: a mark falls back to the last fill of any
  // account while the instrument has not printed, as it does live.
  const symbols = new Set(own.map((f) => f.symbol));
  const tradedDates = new Set(own.map((f) => `${f.symbol}|${f.tradeDate}`));
  const fills = history.fills
    .filter((f) => symbols.has(f.symbol))
    .sort((a, b) => a.occurredAtMs - b.occurredAtMs || a.seq - b.seq);
  const prints = history.prints.positionsOf(symbols);
  let tradeIds = 0;
  const book = new PositionBook({ newId: () => `daily-${++tradeIds}` });
  let nextFill = 0;
  let nextPrint = 0;
  const records: DailyPositionRecord[] = [];
  for (const sample of samples) {
    // Trading runs in [open, close): a fill at the close belongs to the next session; a print at the close
    // is still "at or before" it.
    for (; nextFill < fills.length && fills[nextFill]!.occurredAtMs < sample.closeMs; nextFill++) {
      const f = fills[nextFill]!;
      book.applyFill({ ...f, orderId: null, commissionCents: 0 });
    }
    for (; nextPrint < prints.length; nextPrint++) {
      const p = history.prints.at(prints[nextPrint]!);
      if (p.timeMs > sample.closeMs) break;
      book.markPrice(p.symbol, p.priceTicks);
    }
    const traded = tradedDates.has(`${sample.symbol}|${sample.tradeDate}`);
    // A session that had not opened by the end of the run is not reported, unless the account traded on it.
    if (!traded && sample.openMs > history.endMs) continue;
    const view = book.position(query.accountId, sample.symbol);
    if (view === undefined) continue;
    if (!traded && view.netQuantity === 0) continue;
    const realized = book.realizedByTradeDate(query.accountId, sample.symbol).get(sample.tradeDate);
    records.push(dailyRecord(sample.tradeDate, sample.symbol, view, realized));
  }
  return records.sort(byTradeDateThenInstrument);
}

/**
 * The account's commissions by instrument and GLOBEX trade date, keyed `${instrument_id}|${trade_date}`, in cents:
 * each fill's own commission, on the trade date it was stamped with (the balance is charged the same amounts).
 */
export function commissionsByTradeDate(history: PositionHistory, accountId: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const fill of history.fills) {
    if (fill.accountId !== accountId) continue;
    const key = `${fill.symbol}|${fill.tradeDate}`;
    sums.set(key, (sums.get(key) ?? 0) + fill.commissionCents);
  }
  return sums;
}

/** A record from a position's figures at a close (`realizedCents` undefined: nothing traded that date). */
export function dailyRecord(
  tradeDate: string,
  symbol: string,
  position: { netQuantity: number; averagePrice: string | null; unrealizedCents: number },
  realizedCents: number | undefined,
): DailyPositionRecord {
  return {
    trade_date: tradeDate,
    instrument_id: symbol,
    net_quantity: position.netQuantity,
    ...(position.averagePrice === null ? {} : { average_price: position.averagePrice }),
    realized_pnl: formatCents(realizedCents ?? 0),
    unrealized_pnl: formatCents(position.unrealizedCents),
  };
}

/** The records' order: by trade_date, then instrument_id. */
export function byTradeDateThenInstrument(a: DailyPositionRecord, b: DailyPositionRecord): number {
  return compare(a.trade_date, b.trade_date) || compare(a.instrument_id, b.instrument_id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const CANONICAL = new Map<string, string>();

/** One spelling per contract (ESM26 -> ESM6), memoized: a journal repeats few symbols many times. */
function canonical(symbol: string): string {
  let found = CANONICAL.get(symbol);
  if (found === undefined) {
    found = canonicalSymbol(parseSymbol(symbol));
    CANONICAL.set(symbol, found);
  }
  return found;
}

function ticksOf(symbol: string, price: string): number {
  return priceToTicks(parseDecimal(price, 'price', { maxPlaces: 9 }), new Dec(parseSymbol(symbol).spec.tickSize));
}

function text(d: Data, field: string, where: string): string {
  const value = d[field];
  if (typeof value !== 'string') throw new JournalReadError(`${where}: ${field} is not a string`);
  return value;
}

function integer(d: Data, field: string, where: string): number {
  const value = d[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new JournalReadError(`${where}: ${field} is not an integer`);
  return value;
}
