// Why the market is closed at an instant, for people reading the calendar: the daily 16:00–17:00 CT halt, the
// weekend, a holiday that closes a trade date, or a holiday's early close. Found from the sessions on either
// side of the instant: trade dates between them that are weekdays yet have no session were closed by a
// holiday; a previous session that a holiday halted early explains the gap after it.
import type { ProductFamily } from '../instruments.js';
import { addDays, chicagoDateOf, chicagoTimeToMs, isWeekend } from './dates.js';
import type { GlobexCalendar, Session } from './globex-calendar.js';
import type { HolidayTable } from './holidays.js';

export interface ClosedReason {
  kind: 'daily_halt' | 'weekend' | 'holiday' | 'early_close';
  /** The holiday's name (or names, joined by "; ") when a holiday keeps the market closed. */
  holiday?: string;
  /** For a table: "weekend", "daily halt 16:00–17:00 CT", "holiday: New Year's Day (no session 2024-01-01)". */
  note: string;
}

const MAX_DAYS_BACK = 14;

/** Why the market is closed at `timeMs`, given `next`, the session that opens after it. */
export function closedReason(
  calendar: GlobexCalendar,
  holidays: HolidayTable,
  timeMs: number,
  next: Session,
  family: ProductFamily,
): ClosedReason {
  const previous = previousSession(calendar, timeMs, next.tradeDate, family);
  const between: string[] = [];
  for (
    let date = addDays(previous?.tradeDate ?? next.tradeDate, previous ? 1 : 0);
    date < next.tradeDate;
    date = addDays(date, 1)
  )
    between.push(date);
  const closedDays = between.filter((date) => !isWeekend(date));
  const weekend = between.some(isWeekend);
  if (closedDays.length > 0) {
    const names = [...new Set(closedDays.map((date) => holidays.nameOf(date) ?? 'exchange holiday'))].join('; ');
    const note = `holiday: ${names} (no session ${closedDays.join(', ')})`;
    // Good Friday morning is the holiday, not yet the weekend; Saturday before a closed Monday is both.
    return { kind: 'holiday', holiday: names, note: isWeekend(nominalTradeDate(timeMs)) ? `weekend; ${note}` : note };
  }
  const early = previous && holidays.ruleFor(previous.tradeDate, family);
  if (previous && early?.kind === 'halt') {
    const name = holidays.nameOf(previous.tradeDate) ?? 'exchange holiday';
    return { kind: 'early_close', holiday: name, note: `early close: ${name}` };
  }
  if (weekend) return { kind: 'weekend', note: 'weekend' };
  return { kind: 'daily_halt', note: 'daily halt 16:00–17:00 CT' };
}

/** The trade date an instant would belong to on a normal week: its CT date, or the next one from 17:00 CT. */
function nominalTradeDate(timeMs: number): string {
  const date = chicagoDateOf(timeMs);
  return timeMs >= chicagoTimeToMs(date, 17 * 60) ? addDays(date, 1) : date;
}

/** The last session that closed at or before `timeMs`, searching back from the trade date before `nextDate`. */
function previousSession(
  calendar: GlobexCalendar,
  timeMs: number,
  nextDate: string,
  family: ProductFamily,
): Session | undefined {
  let date = addDays(nextDate, -1);
  for (let i = 0; i < MAX_DAYS_BACK; i++, date = addDays(date, -1)) {
    const session = calendar.sessionOf(date, family);
    if (session && session.closeMs <= timeMs) return session;
  }
  return undefined;
}
