// Times read straight from bytes: ISO 8601 of the common shape `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`, Databento's
// pretty_ts (nine fraction digits) and timestamp_utc's `YYYY-MM-DD HH:MM:SS`. An ISO time of another shape gives NaN and goes to core's
// parseTimeMs, which stays the authority: the fast path accepts only what it accepts, with the same value
// (byte-times.test.ts checks both against it).

import { COLON, DASH, LETTER_T, LETTER_Z, PLUS, POINT, SPACE, ZERO } from './byte-codes.js';

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MS_PER_MINUTE = 60_000;

/** Unix ms of an ISO time of the common shape, or NaN to leave it to parseTimeMs. */
export function parseIsoTimeMs(bytes: Uint8Array, start: number, end: number): number {
  if (end - start < 20) return NaN;
  const localMs = dateTimeMs(bytes, start, LETTER_T);
  let i = start + 19;
  let millis = 0;
  if (bytes[i] === POINT) {
    // One to three fraction digits: ".5" is 500 ms.
    let scale = 100;
    for (i++; scale >= 1 && i < end && isDigit(bytes[i]!); i++, scale /= 10) millis += (bytes[i]! - ZERO) * scale;
    if (scale === 100) return NaN;
  }
  return localMs + millis - parseOffsetMinutes(bytes, i, end) * MS_PER_MINUTE;
}

/** Databento's pretty_ts, `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z`, as Unix ms (the fraction cut to the ms), or NaN. */
export function parseIsoNanosMs(bytes: Uint8Array, start: number, end: number): number {
  if (end - start < 20 || bytes[end - 1] !== LETTER_Z) return NaN;
  const secondsMs = dateTimeMs(bytes, start, LETTER_T);
  let millis = 0;
  let i = start + 19;
  if (bytes[i] === POINT) {
    let digits = 0;
    for (i++; i < end - 1; i++, digits++) {
      const digit = bytes[i]! - ZERO;
      if (digit < 0 || digit > 9 || digits === 9) return NaN;
      if (digits < 3) millis += digit * 10 ** (2 - digits);
    }
    if (digits === 0) return NaN;
  }
  return i === end - 1 ? secondsMs + millis : NaN;
}

/** Unix ms of a `YYYY-MM-DD HH:MM:SS` UTC time (timestamp_utc columns), or NaN. */
export function parseUtcStampMs(bytes: Uint8Array, start: number, end: number): number {
  return end - start === 19 ? dateTimeMs(bytes, start, SPACE) : NaN;
}

/** `YYYY-MM-DD?HH:MM:SS` at `start`, `?` being `separator`, read as UTC; NaN when any field is off. */
export function dateTimeMs(bytes: Uint8Array, start: number, separator: number): number {
  if (bytes[start + 4] !== DASH || bytes[start + 7] !== DASH || bytes[start + 10] !== separator) return NaN;
  if (bytes[start + 13] !== COLON || bytes[start + 16] !== COLON) return NaN;
  const year = digits(bytes, start, 4);
  const month = digits(bytes, start + 5, 2);
  const day = digits(bytes, start + 8, 2);
  const hour = digits(bytes, start + 11, 2);
  const minute = digits(bytes, start + 14, 2);
  const second = digits(bytes, start + 17, 2);
  // Date.UTC reads years below 100 as 19xx: leave those to the slow path.
  if (!(year >= 100 && month >= 1 && month <= 12 && hour <= 23 && minute <= 59 && second <= 59)) return NaN;
  if (!(day >= 1 && day <= daysInMonth(year, month))) return NaN;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** `Z` as 0, `+HH:MM` / `-HH:MM` as signed minutes east of UTC, NaN for anything else. */
function parseOffsetMinutes(bytes: Uint8Array, i: number, end: number): number {
  if (end - i === 1 && bytes[i] === LETTER_Z) return 0;
  if (end - i !== 6 || bytes[i + 3] !== COLON) return NaN;
  const sign = bytes[i] === PLUS ? 1 : bytes[i] === DASH ? -1 : NaN;
  const hours = digits(bytes, i + 1, 2);
  const minutes = digits(bytes, i + 4, 2);
  return hours <= 23 && minutes <= 59 ? sign * (hours * 60 + minutes) : NaN;
}

function digits(bytes: Uint8Array, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const byte = bytes[i]!;
    if (!isDigit(byte)) return NaN;
    value = value * 10 + byte - ZERO;
  }
  return value;
}

function isDigit(byte: number): boolean {
  return byte >= ZERO && byte <= ZERO + 9;
}

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
}
