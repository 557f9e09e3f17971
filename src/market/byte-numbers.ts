// Numbers read straight from the bytes of a CSV field, without making a string: the reader's hot path.
// Each returns NaN for anything that is not exactly the expected shape; the caller then builds the message.

import { DASH, POINT, ZERO } from './byte-codes.js';

/** Powers of ten that are exact doubles. */
const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** At most this many digits always make a safe integer (10^15 < 2^53). */
const MAX_DIGITS = 15;

/** A whole number written with digits only (1 to 15 of them), or NaN. */
export function parseDigits(bytes: Uint8Array, start: number, end: number): number {
  if (end <= start || end - start > MAX_DIGITS) return NaN;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = bytes[i]! - ZERO;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * A plain decimal (`-?digits(.digits)?`) as an integer count of 10^-places units: "5000.25" with 2 places is
 * 500025. Digits past `places` must be zeros ("5000.250" is fine). NaN when malformed, finer than `places`
 * or not a safe integer once scaled.
 */
export function parseScaledDecimal(bytes: Uint8Array, start: number, end: number, places: number): number {
  let i = start;
  const negative = bytes[i] === DASH;
  if (negative) i++;
  let value = 0;
  let digits = 0;
  for (; i < end; i++) {
    const digit = bytes[i]! - ZERO;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
    digits++;
  }
  if (digits === 0) return NaN;
  let scale = places;
  if (i < end) {
    if (bytes[i] !== POINT || i + 1 === end) return NaN;
    for (i++; i < end; i++) {
      const digit = bytes[i]! - ZERO;
      if (digit < 0 || digit > 9) return NaN;
      if (scale > 0) {
        value = value * 10 + digit;
        digits++;
        scale--;
      } else if (digit !== 0) {
        return NaN;
      }
    }
  }
  if (digits + scale > MAX_DIGITS) return NaN;
  value *= POW10[scale]!;
  return negative ? 0 - value : value;
}
