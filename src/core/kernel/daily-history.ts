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

/** The fills read so far, a column per field (the execution id is not kept: see fillRows). */
type FillColumns = Columns<Omit<RunFill, 'executionId'>>;
/** The prints read so far, a column per field. */
type PrintColumns = Columns<RunPrint>;

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
    for (const account of more.accounts) this.accounts.push(account);
    for (const fill of more.fills) pushRow(this.fills, fill);
    for (const print of more.prints) pushRow(this.prints, print);
  }

  /**
   * The fills as rows. A fill's journal line number stands in for its execution id, which is not kept: the records
   * never show it, and the position book they are computed in needs it only to be unique.
   */
  private fillRows(): RunFill[] {
    return rowsOf(this.fills).map((fill) => ({ ...fill, executionId: `line-${fill.seq}` }));
  }

  private printRows(): RunPrint[] {
    return rowsOf(this.prints);
  }
}

type Columns<Row> = { -readonly [Field in keyof Row]: Row[Field][] };

/** Appends a row's fields to their columns. */
function pushRow<Row extends object>(columns: Columns<Row>, row: Row): void {
  for (const field of Object.keys(columns) as (keyof Row)[]) columns[field].push(row[field]);
}

/** The columns as rows, one object per index. */
function rowsOf<Row extends object>(columns: Columns<Row>): Row[] {
  const fields = Object.keys(columns) as (keyof Row)[];
  const count = columns[fields[0]!].length;
  return Array.from({ length: count }, (_, i) => {
    const row = {} as Row;
    for (const field of fields) row[field] = columns[field][i]!;
    return row;
  });
}
