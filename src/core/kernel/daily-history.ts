// Daily position records of a live kernel (GET /v1/accounts/{id}/positions/daily). They are computed as the
// `report daily-positions` command computes them, from the journal's fills and prints (positions/daily.ts); this
// keeps what it has read of the journal and reads only the lines added since, so a read costs what happened since
// the last one, not the whole history.
import type { GlobexCalendar } from '../calendar/globex-calendar.js';
import {
  dailyPositions,
  positionHistoryOf,
  type DailyPositionQuery,
  type PositionHistory,
} from '../positions/daily.js';
import type { DailyPositionJson } from '../shapes/position.js';
import type { Journal, JournalEntry } from './journal.js';

export class DailyHistory {
  private readLines = 0;
  private readonly history: {
    accounts: PositionHistory['accounts'][number][];
    fills: PositionHistory['fills'][number][];
    prints: PositionHistory['prints'][number][];
  } = {
    accounts: [],
    fills: [],
    prints: [],
  };

  constructor(private readonly journal: Journal) {}

  records(calendar: GlobexCalendar, nowMs: number, query: DailyPositionQuery): DailyPositionJson[] {
    this.catchUp();
    return dailyPositions({ ...this.history, endMs: nowMs }, calendar, query);
  }

  /** Reads the lines added to the journal since the last read (before the journal lets go of them). */
  catchUp(): void {
    if (!this.journal.enabled) throw new Error('daily position records need the kernel journal, which is off');
    if (this.journal.length === this.readLines) return;
    const added = this.journal.linesSince(this.readLines).map((line) => JSON.parse(line) as JournalEntry);
    this.readLines = this.journal.length;
    const more = positionHistoryOf(added);
    for (const account of more.accounts) this.history.accounts.push(account);
    for (const fill of more.fills) this.history.fills.push(fill);
    for (const print of more.prints) this.history.prints.push(print);
  }
}
