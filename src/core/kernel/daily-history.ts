// Daily position records of a live kernel (GET /v1/accounts/{id}/positions/daily). They are computed as the
// `report daily-positions` command computes them, from the journal's fills and prints (positions/daily.ts); this
// keeps what it has read of the journal and reads only the lines added since, so a read costs what happened since
// the last one, not the whole history. What it keeps lives as long as the sandbox (and is in its snapshots), so it is
// kept as columns, an array per field, rather than an object per fill or print: a few long arrays are smaller and
// are written and read back much faster (docs/architecture.md#snapshots).
import type { GlobexCalendar } from '../calendar/globex-calendar.js';
import {
  dailyPositions,
  positionHistoryOf,
  type DailyPositionQuery,
  type RunAccount,
  type RunFill,
  type RunPrint,
} from '../positions/daily.js';
import type { DailyPositionJson } from '../shapes/position.js';
import type { Journal, JournalEntry } from './journal.js';

/** The fills read so far, a column per field. */
interface FillColumns {
  seq: number[];
  accountId: string[];
  symbol: string[];
  side: RunFill['side'][];
  quantity: number[];
  priceTicks: number[];
  occurredAtMs: number[];
  tradeDate: string[];
}

/** The prints read so far, a column per field. */
interface PrintColumns {
  seq: number[];
  symbol: string[];
  priceTicks: number[];
  timeMs: number[];
}

export class DailyHistory {
  private readLines = 0;
  private readonly accounts: RunAccount[] = [];
  private readonly fills: FillColumns = {
    seq: [],
    accountId: [],
    symbol: [],
    side: [],
    quantity: [],
    priceTicks: [],
    occurredAtMs: [],
    tradeDate: [],
  };
  private readonly prints: PrintColumns = { seq: [], symbol: [], priceTicks: [], timeMs: [] };

  constructor(private readonly journal: Journal) {}

  records(calendar: GlobexCalendar, nowMs: number, query: DailyPositionQuery): DailyPositionJson[] {
    this.catchUp();
    return dailyPositions(
      { accounts: this.accounts, fills: this.fillRows(), prints: this.printRows(), endMs: nowMs },
      calendar,
      query,
    );
  }

  /** Reads the lines added to the journal since the last read (before the journal lets go of them). */
  catchUp(): void {
    if (!this.journal.enabled) throw new Error('daily position records need the kernel journal, which is off');
    if (this.journal.length === this.readLines) return;
    const added = this.journal.linesSince(this.readLines).map((line) => JSON.parse(line) as JournalEntry);
    this.readLines = this.journal.length;
    const more = positionHistoryOf(added);
    const { accounts, fills, prints } = this;
    for (const account of more.accounts) accounts.push(account);
    for (const fill of more.fills) {
      fills.seq.push(fill.seq);
      fills.accountId.push(fill.accountId);
      fills.symbol.push(fill.symbol);
      fills.side.push(fill.side);
      fills.quantity.push(fill.quantity);
      fills.priceTicks.push(fill.priceTicks);
      fills.occurredAtMs.push(fill.occurredAtMs);
      fills.tradeDate.push(fill.tradeDate);
    }
    for (const print of more.prints) {
      prints.seq.push(print.seq);
      prints.symbol.push(print.symbol);
      prints.priceTicks.push(print.priceTicks);
      prints.timeMs.push(print.timeMs);
    }
  }

  /**
   * The fills as rows. A fill's journal line number stands in for its execution id, which is not kept: the records
   * never show it, and the position book they are computed in needs it only to be unique.
   */
  private fillRows(): RunFill[] {
    const f = this.fills;
    return f.seq.map((seq, i) => ({
      seq,
      executionId: `line-${seq}`,
      accountId: f.accountId[i]!,
      symbol: f.symbol[i]!,
      side: f.side[i]!,
      quantity: f.quantity[i]!,
      priceTicks: f.priceTicks[i]!,
      occurredAtMs: f.occurredAtMs[i]!,
      tradeDate: f.tradeDate[i]!,
    }));
  }

  private printRows(): RunPrint[] {
    const p = this.prints;
    return p.seq.map((seq, i) => ({ seq, symbol: p.symbol[i]!, priceTicks: p.priceTicks[i]!, timeMs: p.timeMs[i]! }));
  }
}
