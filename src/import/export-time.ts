// Times as broker exports write them: ISO with an offset or Z (`2024-01-02T14:31:05.123Z`), or a wall-clock time
// with no offset (`2024-01-02 09:31:05`, `1/2/2024 9:31:05 AM`) that means something only in the zone of the
// machine that exported it, given with --tz. Fractions past the millisecond are dropped (truncated).
import { fromZonedTime } from 'date-fns-tz/fromZonedTime';

export const TIME_EXPECTED =
  'a time like 2024-01-02T14:31:05Z, 2024-01-02 09:31:05 or 1/2/2024 9:31:05 AM (with --tz when it has no offset)';

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
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4}) (\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?: ?([AaPp][Mm]))?$/;

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
  return readWallTime(text.trim())?.offsetMinutes !== undefined;
}

/** Unix ms of an export's time, or NaN when it is not one; `zone` places a time without an offset. */
export function parseExportTime(text: string, zone: string | undefined): number {
  const wall = readWallTime(text.trim());
  if (!wall) return NaN;
  const { year, month, day, hour, minute, second, millis } = wall;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(asUtc);
  // Date.UTC rolls 2024-02-30 over into March: refuse instead.
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1 || hour > 23 || minute > 59 || second > 59)
    return NaN;
  if (wall.offsetMinutes !== undefined) return asUtc - wall.offsetMinutes * 60_000;
  if (zone === undefined) return NaN;
  const iso = new Date(asUtc).toISOString().slice(0, 23);
  return fromZonedTime(iso, zone).getTime();
}

function readWallTime(text: string): WallTime | undefined {
  const iso = ISO.exec(text);
  if (iso) {
    const [, y, mo, d, h, mi, s, fraction, offset] = iso;
    return {
      ...fields(y!, mo!, d!, h!, mi!, s, fraction),
      ...(offset === undefined ? {} : { offsetMinutes: offsetMinutes(offset) }),
    };
  }
  const us = US.exec(text);
  if (!us) return undefined;
  const [, mo, d, y, h, mi, s, fraction, meridiem] = us;
  const wall = fields(y!, mo!, d!, h!, mi!, s, fraction);
  if (meridiem === undefined) return wall;
  // 12:05 AM is 00:05, 12:05 PM is 12:05; an hour past 12 with AM/PM is not a time.
  if (wall.hour < 1 || wall.hour > 12) return undefined;
  const pm = meridiem.toUpperCase() === 'PM';
  return { ...wall, hour: (wall.hour % 12) + (pm ? 12 : 0) };
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
