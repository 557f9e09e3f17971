// Times and durations as users write them (docs/scenarios.md#top-level-keys): ISO 8601 with an offset or Z, or Unix
// ms integers; durations like 250ms, 15s, 30m, 2h, 1d. Parsing is pure: nothing here reads the wall clock.

export class TimeInputError extends Error {
  constructor(
    readonly field: string,
    readonly expected: string,
    readonly received: unknown,
  ) {
    super(`${field}: expected ${expected}, got ${JSON.stringify(received) ?? String(received)}`);
    this.name = 'TimeInputError';
  }
}

export const TIME_EXPECTED = 'an ISO 8601 time with an offset or Z (2026-03-02T17:00:00-06:00) or Unix milliseconds';

// Date and time with seconds optional, fraction optional, and a mandatory offset or Z.
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:?\d{2})$/;
const UNIX_MS = /^-?\d{1,16}$/;

/** Parses an ISO 8601 time with offset or Z, or a Unix ms integer (number or digit string), to Unix ms. */
export function parseTimeMs(value: unknown, field: string): number {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return value;
    throw new TimeInputError(field, TIME_EXPECTED, value);
  }
  if (typeof value !== 'string') throw new TimeInputError(field, TIME_EXPECTED, value);
  if (UNIX_MS.test(value)) return Number(value);
  const match = ISO_WITH_OFFSET.exec(value);
  if (!match || !validCalendarFields(match)) throw new TimeInputError(field, TIME_EXPECTED, value);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new TimeInputError(field, TIME_EXPECTED, value);
  return ms;
}

function validCalendarFields(match: RegExpExecArray): boolean {
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  if (mo === undefined || d === undefined || h === undefined || mi === undefined || y === undefined) return false;
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return (
    mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth && h <= 23 && mi <= 59 && (Number.isNaN(s) || (s ?? 0) <= 59)
  );
}

const DURATION = /^(\d+)(ms|s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses a duration such as 250ms, 15s, 30m, 2h or 1d to milliseconds. */
export function parseDurationMs(value: unknown, field: string): number {
  const match = typeof value === 'string' ? DURATION.exec(value) : null;
  const amount = match?.[1];
  const unit = match?.[2];
  if (amount === undefined || unit === undefined) {
    throw new TimeInputError(field, 'a duration like 250ms, 15s, 30m, 2h or 1d', value);
  }
  const ms = Number(amount) * (UNIT_MS[unit] ?? 0);
  if (!Number.isSafeInteger(ms)) throw new TimeInputError(field, 'a duration below 2^53 ms', value);
  return ms;
}

/** Formats Unix ms as an ISO 8601 UTC string (2026-03-02T23:00:00.000Z). */
export function isoUtc(timeMs: number): string {
  return new Date(timeMs).toISOString();
}
