// Exact money and prices. Public values are decimal strings; inside, money is integer cents and prices are
// integer ticks, both plain JS numbers (exact up to 2^53). Binary floating point never touches money.
//
// Rounding rule (the only one): where a value can fall between cents — P&L of a contract whose tick value is
// not a whole cent, such as ZN's $15.625 — it is rounded half to even ("banker's rounding") to the cent.
// Splits of a total across accounts do not round: they hand out remainder cents (see splitCents).
import { Decimal } from 'decimal.js';

/** decimal.js configured for money: ample precision, half-even, never exponent notation. */
export const Dec = Decimal.clone({
  precision: 50,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -50,
  toExpPos: 50,
});
export type Dec = InstanceType<typeof Dec>;

/** Input that is not an exact decimal string of the expected shape. `field` names where it came from. */
export class DecimalInputError extends Error {
  constructor(
    readonly field: string,
    readonly expected: string,
    readonly received: unknown,
  ) {
    super(`${field}: expected ${expected}, got ${describe(received)}`);
    this.name = 'DecimalInputError';
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return `the JSON number ${String(value)}`;
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  return typeof value;
}

// Plain decimal notation only: optional minus, no leading zeros (but "0.x"), no exponent, no padding.
const DECIMAL_PATTERN = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

export interface DecimalRules {
  /** Most digits allowed after the point; default 2 (cents). */
  maxPlaces?: number;
  /** Refuse values below zero. */
  nonNegative?: boolean;
}

/**
 * Parses a decimal string such as "50000.00" or "-250.5". Refuses JSON numbers, exponents, NaN/Infinity,
 * empty or padded strings, and more places than `maxPlaces` (default 2).
 */
export function parseDecimal(value: unknown, field: string, rules: DecimalRules = {}): Dec {
  const maxPlaces = rules.maxPlaces ?? 2;
  const expected = `a decimal string with at most ${maxPlaces} decimal places, like "${example(maxPlaces)}"`;
  if (typeof value !== 'string' || !DECIMAL_PATTERN.test(value)) {
    throw new DecimalInputError(field, expected, value);
  }
  const point = value.indexOf('.');
  const places = point < 0 ? 0 : value.length - point - 1;
  if (places > maxPlaces) throw new DecimalInputError(field, expected, value);
  if (rules.nonNegative && value.startsWith('-') && !/^-0(\.0+)?$/.test(value)) {
    throw new DecimalInputError(field, 'a decimal string that is zero or more', value);
  }
  return new Dec(value);
}

function example(places: number): string {
  return places === 0 ? '50000' : `50000.${'0'.repeat(places)}`;
}

/** Parses a money string (at most two places) straight to integer cents. */
export function parseCents(value: unknown, field: string, rules: Omit<DecimalRules, 'maxPlaces'> = {}): number {
  return decimalToCents(parseDecimal(value, field, { ...rules, maxPlaces: 2 }), field);
}

/** Converts an exact decimal to integer cents; refuses sub-cent values and values beyond 2^53 cents. */
export function decimalToCents(value: Dec, field = 'amount'): number {
  const cents = value.times(100);
  if (!cents.isInteger()) throw new DecimalInputError(field, 'a whole number of cents', value.toFixed());
  const n = cents.toNumber();
  if (!Number.isSafeInteger(n)) throw new DecimalInputError(field, 'an amount below 2^53 cents', value.toFixed());
  return n;
}

/** Formats integer cents as a decimal string with exactly two places: 5000000 -> "50000.00". */
export function formatCents(cents: number): string {
  return formatFixed(cents, 2);
}

/**
 * An integer count of 10^-places units as a decimal string with `places` decimals: (500025, 2) -> "5000.25",
 * (-5, 3) -> "-0.005", (40000, 0) -> "40000". `negative` writes a minus on a zero too, as decimal.js does for a
 * negative value rounded to zero.
 */
export function formatFixed(units: number, places: number, negative = units < 0): string {
  assertSafeInteger(units, 'units');
  const sign = negative ? '-' : '';
  const abs = Math.abs(units);
  if (places === 0) return `${sign}${abs}`;
  const scale = 10 ** places;
  // Both exact for safe integers: the remainder, and the division of a multiple of the scale.
  const fraction = abs % scale;
  return `${sign}${(abs - fraction) / scale}.${String(fraction).padStart(places, '0')}`;
}

/**
 * numerator / denominator rounded half to even, for integers (denominator > 0). Used to bring a value kept
 * in finer units (mills, tenth-cents) to cents under the one rounding rule.
 */
export function divideHalfEven(numerator: number, denominator: number): number {
  assertSafeInteger(numerator, 'numerator');
  if (!Number.isSafeInteger(denominator) || denominator <= 0)
    throw new RangeError('denominator must be a positive integer');
  const quotient = Math.floor(numerator / denominator);
  const remainder = numerator - quotient * denominator;
  const twice = remainder * 2;
  if (twice < denominator) return quotient;
  if (twice > denominator) return quotient + 1;
  return quotient % 2 === 0 ? quotient : quotient + 1;
}

/**
 * Splits a total into `parts` shares in cents; the remainder cents go one each to the first shares
 * (100.00 over 3 -> 33.34, 33.33, 33.33). Negative totals are split the same way by magnitude.
 */
export function splitCents(totalCents: number, parts: number): number[] {
  assertSafeInteger(totalCents, 'totalCents');
  if (!Number.isSafeInteger(parts) || parts < 1) throw new RangeError('parts must be an integer >= 1');
  const sign = totalCents < 0 ? -1 : 1;
  const abs = Math.abs(totalCents);
  const base = Math.floor(abs / parts);
  const extra = abs - base * parts;
  // "+ 0" turns the -0 of a zero share of a negative total into 0.
  return Array.from({ length: parts }, (_, i) => sign * (base + (i < extra ? 1 : 0)) + 0);
}

/** Error for a price that is not a whole number of ticks. */
export class OffTickGridError extends Error {
  constructor(
    readonly field: string,
    readonly price: string,
    readonly tickSize: string,
  ) {
    super(`${field}: ${price} is not on the tick grid of ${tickSize}`);
    this.name = 'OffTickGridError';
  }
}

/** An exact price in integer ticks of `tickSize`; refuses prices off the grid. */
export function priceToTicks(price: Dec, tickSize: Dec, field = 'price'): number {
  const ticks = price.dividedBy(tickSize);
  if (!ticks.isInteger()) throw new OffTickGridError(field, price.toFixed(), tickSize.toFixed());
  const n = ticks.toNumber();
  if (!Number.isSafeInteger(n)) throw new DecimalInputError(field, 'a price below 2^53 ticks', price.toFixed());
  return n;
}

/** Formats integer ticks as a price with `places` decimals: 20001 ticks of 0.25 with 2 places -> "5000.25". */
export function ticksToPrice(ticks: number, tickSize: Dec, places: number): string {
  assertSafeInteger(ticks, 'ticks');
  return tickSize.times(ticks).toFixed(places);
}

function assertSafeInteger(value: number, name: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be a safe integer, got ${value}`);
}
