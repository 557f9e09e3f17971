// How the replay report shows an expectation's expected and actual values: a decimal string as the figure it is
// (48000.00, not "48000.00"), the expected one with as many places as the actual, since "48000" beside 48000.00
// read as two values; other strings stay quoted, so that "true" and true, or "" and null, stay apart.
import { Dec } from '../core/money.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** The expected and actual cells of an expectation row. */
export function shownExpectation(expected: unknown, actual: unknown): [string, string] {
  const places = typeof actual === 'string' && DECIMAL.test(actual) ? (actual.split('.')[1]?.length ?? 0) : undefined;
  return [shown(expected, places), shown(actual, undefined)];
}

function shown(value: unknown, places: number | undefined): string {
  if (typeof value !== 'string' || !DECIMAL.test(value)) return JSON.stringify(value) ?? '';
  if (places === undefined) return value;
  const decimal = new Dec(value);
  // Zeros added only: an expected value written with more places than the actual keeps them.
  return decimal.decimalPlaces() <= places ? decimal.toFixed(places) : value;
}
