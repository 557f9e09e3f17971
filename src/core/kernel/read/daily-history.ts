// Daily position records of a live kernel (GET /v1/accounts/{id}/positions/daily), as the `report daily-positions`
// command computes them from a whole journal (positions/daily.ts, docs/order-lifecycle.md#daily-position-records),
// but as the journal goes: the fills and prints of the lines added since the last read are applied to positions of
// their own (the same FIFO arithmetic), and each instrument's session close, once time has passed it, leaves its
// records. A read then costs what happened since the last one plus the account's records, not the whole history,
// and what is kept (the positions, the records of closed sessions) grows with accounts and days, not with fills or
// prints; it lives as long as the sandbox, in its snapshots too.
import { addDays } from '../../calendar/dates.js';
import type { GlobexCalendar } from '../../calendar/globex-calendar.js';
import { parseSymbol, type ProductFamily } from '../../instruments.js';
import {
  byTradeDateThenInstrument,
  dailyRecord,
  FILL_AND_PRINT_TYPES,
  positionHistoryOf,
  type DailyPositionQuery,
  type RunFill,
  type RunPrint,
  type RunPrints,
} from './daily-positions.js';
import { assertValidExecution } from '../../positions/execution.js';
import { markIn, type InstrumentMark } from '../../positions/marks.js';
import { Position } from '../../positions/positions.js';
import type { DailyPositionJson } from '../../shapes/position.js';
import { lineType, type Journal, type JournalEntry } from '../persistence/journal.js';
import { declareSnapshot } from '../../snapshot/snapshot-fields.js';

/** Where an instrument is in its sessions: the one whose close is still ahead. */
interface NextClose {
  family: ProductFamily;
  tradeDate: string;
  openMs: number;
  /** Infinity when the calendar has no later session. */
  closeMs: number;
  /** Fills stamped at the close itself: they belong to the next session, after every print stamped at the close. */
  heldFills: RunFill[];
  /** The last close recorded (-Infinity before the first). */
  closedMs: number;
}

/** The fill and print lines catchUp parses and applies at a time. */
const CATCH_UP_SLICE = 4096;

/** The calendar's sessions are looked for this many days ahead (weekends and holiday runs are shorter). */
const SESSION_SEARCH_DAYS = 30;

export class DailyHistory {
  private readLines = 0;
  private readonly marks = new Map<string, InstrumentMark>();
  /** By symbol, then account: each account's position, in the order first traded. */
  private readonly positions = new Map<string, Map<string, Position>>();
  /** By symbol, from the instrument's first fill. */
  private readonly nextCloses = new Map<string, NextClose>();
  /** Each account's records of the sessions closed so far, in the order closed. */
  private readonly closed = new Map<string, DailyPositionJson[]>();
  private tradeIds = 0;
  private readonly newTradeId = () => `daily-${++this.tradeIds}`;

  constructor(
    private readonly journal: Journal,
    private readonly calendar: GlobexCalendar,
  ) {}

  /**
   * The account's records for trade dates in the query's range, sorted by trade_date then instrument_id: the sessions
   * closed by `nowMs`, and the one in progress (or next to open) as things stand now.
   */
  records(nowMs: number, query: DailyPositionQuery): DailyPositionJson[] {
    this.catchUp();
    for (const [symbol, next] of this.nextCloses) {
      // No line can come stamped before now: every close before it is final.
      this.closeSessionsBefore(symbol, nowMs);
      // Fills held at a close that is now: read as the next session's. (The kernel never fills at a close, when the
      // market is shut; a print stamped at this instant after this read would not move this close's mark.)
      if (next.closeMs === nowMs && next.heldFills.length > 0) this.closeSession(symbol, next);
    }
    const wanted = (record: DailyPositionJson) =>
      record.trade_date >= query.fromDate &&
      record.trade_date <= query.toDate &&
      (query.instrumentId === undefined || record.instrument_id === query.instrumentId);
    const records = (this.closed.get(query.accountId) ?? []).filter(wanted);
    for (const [symbol, next] of this.nextCloses) {
      const position = this.positions.get(symbol)?.get(query.accountId);
      if (position === undefined) continue;
      const traded = position.realizedByTradeDateCents.has(next.tradeDate);
      if (!traded && next.openMs > nowMs) continue; // not opened yet: nothing is known of it
      const record = recordOf(position, next.tradeDate);
      if (record && wanted(record)) records.push(record);
    }
    return records.sort(byTradeDateThenInstrument);
  }

  /**
   * Reads the lines added to the journal since the last read (before the journal lets go of them): only the lines of
   * fills and prints are parsed (the others give accounts and a run's end, which a live history does not use; an
   * `input.market_prints` line is refused, as a live history has no market files), a slice at a time, so that lines
   * and entries die young. (A snapshot reads up to a few
   * hundred thousand lines here; held all at once, every line and entry was promoted and marked: half the read.)
   */
  catchUp(): void {
    if (!this.journal.enabled) throw new Error('daily position records need the kernel journal, which is off');
    if (this.journal.length === this.readLines) return;
    const added = this.journal.eachLineSince(this.readLines);
    this.readLines = this.journal.length;
    let entries: JournalEntry[] = [];
    for (const line of added) {
      if (!FILL_AND_PRINT_TYPES.has(lineType(line))) continue;
      entries.push(JSON.parse(line) as JournalEntry);
      if (entries.length < CATCH_UP_SLICE) continue;
      this.applyInOrder(positionHistoryOf(entries));
      entries = [];
    }
    this.applyInOrder(positionHistoryOf(entries));
  }

  /** A history's fills and prints, in journal order, which is time order (one line's fills and prints never mix). */
  private applyInOrder({ fills, prints }: { fills: readonly RunFill[]; prints: RunPrints }): void {
    let f = 0;
    let p = 0;
    while (f < fills.length || p < prints.length) {
      if (p === prints.length || (f < fills.length && fills[f]!.seq < prints.seqAt(p))) this.fill(fills[f++]!);
      else this.print(prints.at(p++));
    }
  }

  private fill(fill: RunFill): void {
    let next = this.nextCloses.get(fill.symbol);
    if (next === undefined) {
      next = this.firstSession(fill);
      this.nextCloses.set(fill.symbol, next);
    }
    inTimeOrder(next, fill.occurredAtMs, fill.seq);
    this.closeSessionsBefore(fill.symbol, fill.occurredAtMs);
    // Trading runs in [open, close): a fill at the close belongs to the next session.
    if (fill.occurredAtMs === next.closeMs) next.heldFills.push(fill);
    else this.apply(fill);
  }

  private print(print: RunPrint): void {
    // A print at the close is still "at or before" it: it marks that close.
    const next = this.nextCloses.get(print.symbol);
    if (next) inTimeOrder(next, print.timeMs, print.seq);
    this.closeSessionsBefore(print.symbol, print.timeMs);
    const mark = this.markOf(print.symbol);
    mark.lastPrintTicks = print.priceTicks;
    mark.hasPrint = true;
  }

  private apply(fill: RunFill): void {
    // The execution id is not shown in a record: the fill's line number stands in for it.
    const execution = { ...fill, executionId: `line-${fill.seq}`, orderId: null, commissionCents: 0 };
    assertValidExecution(execution);
    const mark = this.markOf(fill.symbol);
    let byAccount = this.positions.get(fill.symbol);
    if (byAccount === undefined) {
      byAccount = new Map();
      this.positions.set(fill.symbol, byAccount);
    }
    let position = byAccount.get(fill.accountId);
    if (position === undefined) {
      position = new Position(fill.accountId, fill.symbol, mark, byAccount.size + 1);
      byAccount.set(fill.accountId, position);
    }
    position.apply(execution, this.newTradeId);
    mark.lastFillTicks = fill.priceTicks;
    mark.hasFill = true;
  }

  private closeSessionsBefore(symbol: string, timeMs: number): void {
    const next = this.nextCloses.get(symbol);
    while (next !== undefined && next.closeMs < timeMs) this.closeSession(symbol, next);
  }

  /** The records of the close `next` waits for, then on to the next session, with the fills held at the close. */
  private closeSession(symbol: string, next: NextClose): void {
    for (const [accountId, position] of this.positions.get(symbol) ?? []) {
      const record = recordOf(position, next.tradeDate);
      if (record === undefined) continue;
      let records = this.closed.get(accountId);
      if (records === undefined) {
        records = [];
        this.closed.set(accountId, records);
      }
      records.push(record);
    }
    const held = next.heldFills;
    next.closedMs = next.closeMs;
    Object.assign(next, this.sessionFrom(addDays(next.tradeDate, 1), next.family), { heldFills: [] });
    for (const fill of held) this.apply(fill);
  }

  /** Where an instrument's records start: the session of its first fill's trade date. */
  private firstSession(fill: RunFill): NextClose {
    const family = parseSymbol(fill.symbol).spec.family;
    return { family, ...this.sessionFrom(fill.tradeDate, family), heldFills: [], closedMs: Number.NEGATIVE_INFINITY };
  }

  /** The first session on or after `date` (trade dates without one, weekends and holidays, are passed over). */
  private sessionFrom(date: string, family: ProductFamily): Pick<NextClose, 'tradeDate' | 'openMs' | 'closeMs'> {
    for (let day = 0, d = date; day < SESSION_SEARCH_DAYS; day++, d = addDays(d, 1)) {
      const session = this.calendar.sessionOf(d, family);
      if (session) return { tradeDate: d, openMs: session.openMs, closeMs: session.closeMs };
    }
    return { tradeDate: date, openMs: Number.POSITIVE_INFINITY, closeMs: Number.POSITIVE_INFINITY };
  }

  private markOf(symbol: string): InstrumentMark {
    return markIn(this.marks, symbol);
  }
}

declareSnapshot(DailyHistory, {
  kept: ['journal', 'readLines', 'marks', 'positions', 'nextCloses', 'closed', 'tradeIds'],
  skipped: ['calendar', 'newTradeId'],
});

/**
 * A close once recorded is final: a fill or print stamped before it cannot be taken. A live kernel's clock never goes
 * back (a replayed history's `record_fill` may be stamped earlier, and is not for this reader).
 */
function inTimeOrder(next: NextClose, timeMs: number, seq: number): void {
  if (timeMs < next.closedMs)
    throw new Error(
      `daily position records: journal line ${seq} is stamped ${timeMs}, before the close at ${next.closedMs} already recorded`,
    );
}

/** A position's record for a trade date: when it traded that date or is open (undefined otherwise). */
function recordOf(position: Position, tradeDate: string): DailyPositionJson | undefined {
  const realized = position.realizedByTradeDateCents.get(tradeDate);
  if (realized === undefined && position.netQuantity === 0) return undefined;
  const figures = {
    netQuantity: position.netQuantity,
    averagePrice: position.averagePrice(),
    unrealizedCents: position.unrealizedCents(),
  };
  return dailyRecord(tradeDate, position.symbol, figures, realized);
}
