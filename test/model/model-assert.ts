// Plain checks for the model tests: expect() per check is too slow for ~10^6 checks a run. Each throws an
// InvariantError whose message says what was expected and why.
import { isDeepStrictEqual } from 'node:util';

export class InvariantError extends Error {
  override name = 'InvariantError';
}

export const show = (value: unknown) =>
  typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);

export function ok(condition: boolean, why: string): void {
  if (!condition) throw new InvariantError(why);
}
export function eq(actual: unknown, expected: unknown, why: string): void {
  if (!Object.is(actual, expected)) throw new InvariantError(`${why}: expected ${show(expected)}, got ${show(actual)}`);
}
export function ne(actual: unknown, unexpected: unknown, why: string): void {
  if (Object.is(actual, unexpected)) throw new InvariantError(`${why}: got ${show(actual)}`);
}
export function deepEq(actual: unknown, expected: unknown, why: string): void {
  if (!isDeepStrictEqual(actual, expected))
    throw new InvariantError(`${why}: expected ${show(expected)}, got ${show(actual)}`);
}
export function contains(list: readonly unknown[], item: unknown, why: string): void {
  if (!list.includes(item)) throw new InvariantError(`${why}: ${show(item)} is not one of ${show(list)}`);
}
export function atMost(actual: number, limit: number, why: string): void {
  if (!(actual <= limit)) throw new InvariantError(`${why}: ${actual} > ${limit}`);
}
export function matches(actual: object, expected: Record<string, unknown>, why: string): void {
  for (const [key, value] of Object.entries(expected)) {
    const got = (actual as Record<string, unknown>)[key];
    if (!isDeepStrictEqual(got, value))
      throw new InvariantError(`${why}: ${key} expected ${show(value)}, got ${show(got)} in ${show(actual)}`);
  }
}
/** None of the violations a watch collected (fill-watch.ts, flattening-watch.ts); the first one fails. */
export function none(violations: readonly string[], where: string): void {
  if (violations.length > 0)
    throw new InvariantError(
      `${where}: ${violations[0]}${violations.length > 1 ? ` (and ${violations.length - 1} more)` : ''}`,
    );
}

export function centsOf(money: unknown): number {
  if (typeof money !== 'string' || !/^-?\d+\.\d{2}$/.test(money))
    throw new Error(`not a money string: ${String(money)}`);
  return Number(money.replace('.', '')) + 0;
}
