// Calendar-date arithmetic on 'YYYY-MM-DD' strings and wall-clock conversion in America/Chicago.
// Dates are plain strings (no time zone attached); UTC Date objects are used only to count days. Wall time to
// instant is date-fns-tz's fromZonedTime; instant to wall time reads Intl's Chicago fields directly, because
// date-fns-tz's formatInTimeZone loads date-fns' whole formatter, a cost every command would pay at start-up.
import { fromZonedTime } from 'date-fns-tz/fromZonedTime';

export const EXCHANGE_TIME_ZONE = 'America/Chicago';

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(ms).toISOString().slice(0, 10) === value;
}

function dateToUtcMs(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}

export function addDays(date: string, days: number): string {
  return new Date(dateToUtcMs(date) + days * 86_400_000).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: string): number {
  return new Date(dateToUtcMs(date)).getUTCDay();
}

export function isWeekend(date: string): boolean {
  const day = dayOfWeek(date);
  return day === 0 || day === 6;
}

/** The Chicago calendar date of an instant. */
export function chicagoDateOf(timeMs: number): string {
  return chicagoWall(timeMs).date;
}

/** The instant at which Chicago wall-clock time `minutes` past midnight occurs on `date`. */
export function chicagoTimeToMs(date: string, minutes: number): number {
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return fromZonedTime(`${date}T${hh}:${mm}:00`, EXCHANGE_TIME_ZONE).getTime();
}

/** ISO 8601 in Chicago time with its offset: 2026-03-08T17:00:00.000-05:00. */
export function chicagoIso(timeMs: number): string {
  const wall = chicagoWall(timeMs);
  const ms = String(((timeMs % 1000) + 1000) % 1000).padStart(3, '0');
  const offset = Math.abs(wall.offsetMinutes);
  const sign = wall.offsetMinutes < 0 ? '-' : '+';
  const hh = String(Math.floor(offset / 60)).padStart(2, '0');
  const mm = String(offset % 60).padStart(2, '0');
  return `${wall.date}T${wall.time}.${ms}${sign}${hh}:${mm}`;
}

const CHICAGO_FIELDS = new Intl.DateTimeFormat('en-US', {
  timeZone: EXCHANGE_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** An instant's Chicago wall date (YYYY-MM-DD), time (HH:mm:ss) and offset from UTC in minutes. */
function chicagoWall(timeMs: number): { date: string; time: string; offsetMinutes: number } {
  const field: Record<string, string> = {};
  for (const part of CHICAGO_FIELDS.formatToParts(timeMs)) field[part.type] = part.value;
  const [y, mo, d, h, mi, s] = [field.year, field.month, field.day, field.hour, field.minute, field.second].map(Number);
  const wallAsUtcMs = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  const offsetMinutes = Math.round((wallAsUtcMs - Math.floor(timeMs / 1000) * 1000) / 60_000);
  return {
    date: `${field.year}-${field.month}-${field.day}`,
    time: `${field.hour}:${field.minute}:${field.second}`,
    offsetMinutes,
  };
}

/** The Monday on or before a date: trade dates with the same Monday are in the same week. */
export function mondayOf(date: string): string {
  return addDays(date, -((dayOfWeek(date) + 6) % 7));
}
