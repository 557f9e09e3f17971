// Times as broker exports write them: ISO with an offset or Z (`2024-01-02T14:31:05.123Z`), or a wall-clock time
// with no offset (`2024-01-02 09:31:05`, `1/2/2024 9:31:05 AM`) that means something only in the zone of the
// machine that exported it, given with --tz. A slash date is month/day (US) or day/month (UK and most of Europe)
// as the export's locale wrote it: the caller says which (date-order.ts). Fractions past the millisecond are dropped
// (truncated).
import { fromZonedTime } from 'date-fns-tz/fromZonedTime';

export const TIME_EXPECTED =
  'a time like 2024-01-02T14:31:05Z, 2024-01-02 09:31:05 or 1/2/2024 9:31:05 AM (with --tz when it has no offset)';

/** The order of a slash date's first two numbers: month/day/year (`mdy`) or day/month/year (`dmy`). */
export type DateOrder = 'mdy' | 'dmy';
export const DATE_ORDERS: readonly DateOrder[] = ['mdy', 'dmy'];

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  /** Minutes east of UTC when the text has an offset or Z. */
  offsetMinutes?: number;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;
const SLASH = /^(\d{1,2})\/(\d{1,2})\/(\d{4}) (\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?: ?([AaPp][Mm]))?$/;

/** Whether a zone name is one Intl knows (`America/Chicago`, `UTC`). */
export function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone !== '';
  } catch {
    return false;
  }
}

/** Whether the text carries its own offset (or Z), so it needs no zone. */
export function hasOffset(text: string): boolean {
  // Only ISO times carry an offset, so the order of a slash date does not matter here.
  return readWallTime(text.trim(), 'mdy')?.offsetMinutes !== undefined;
}

/**
 * The calendar dates a slash time's date (`02/01/2024 09:31:05`) is in each order, `YYYY-MM-DD`, or undefined in an
 * order it is impossible in (`15/01/2024` has no month 15); undefined for a time that is not a slash time.
 */
export function slashDateReadings(text: string): Record<DateOrder, string | undefined> | undefined {
  const slash = SLASH.exec(text.trim());
  if (!slash) return undefined;
  const [, first, second, y] = slash.map(Number) as [number, number, number, number];
  return { mdy: calendarDate(y, first, second), dmy: calendarDate(y, second, first) };
}

/** Unix ms of an export's time, or NaN when it is not one; `zone` places a time without an offset. */
export function parseExportTime(text: string, zone: string | undefined, order: DateOrder): number {
  const wall = readWallTime(text.trim(), order);
  if (!wall) return NaN;
  const { year, month, day, hour, minute, second, millis } = wall;
  if (calendarDate(year, month, day) === undefined || hour > 23 || minute > 59 || second > 59) return NaN;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  if (wall.offsetMinutes !== undefined) return asUtc - wall.offsetMinutes * 60_000;
  if (zone === undefined) return NaN;
  const iso = new Date(asUtc).toISOString().slice(0, 23);
  return fromZonedTime(iso, zone).getTime();
}

function readWallTime(text: string, order: DateOrder): WallTime | undefined {
  const iso = ISO.exec(text);
  if (iso) {
    const [, y, mo, d, h, mi, s, fraction, offset] = iso;
    return {
      ...fields(y!, mo!, d!, h!, mi!, s, fraction),
      ...(offset === undefined ? {} : { offsetMinutes: offsetMinutes(offset) }),
    };
  }
  const slash = SLASH.exec(text);
  if (!slash) return undefined;
  const [, first, second, y, h, mi, s, fraction, meridiem] = slash;
  const [mo, d] = order === 'mdy' ? [first!, second!] : [second!, first!];
  const wall = fields(y!, mo, d, h!, mi!, s, fraction);
  if (meridiem === undefined) return wall;
  // 12:05 AM is 00:05, 12:05 PM is 12:05; an hour past 12 with AM/PM is not a time.
  if (wall.hour < 1 || wall.hour > 12) return undefined;
  const pm = meridiem.toUpperCase() === 'PM';
  return { ...wall, hour: (wall.hour % 12) + (pm ? 12 : 0) };
}

/** `YYYY-MM-DD`, or undefined when there is no such day (2024-02-30, month 13). */
function calendarDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2024-02-30 over into March: refuse instead.
  if (date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) return undefined;
  return date.toISOString().slice(0, 10);
}

function fields(
  y: string,
  mo: string,
  d: string,
  h: string,
  mi: string,
  s: string | undefined,
  fraction: string | undefined,
): WallTime {
  return {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h),
    minute: Number(mi),
    second: Number(s ?? 0),
    millis: Number((fraction ?? '').slice(0, 3).padEnd(3, '0')),
  };
}

function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const digits = offset.replace(':', '');
  const sign = digits.startsWith('-') ? -1 : 1;
  return sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
}
