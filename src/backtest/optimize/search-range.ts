// A search axis written as a range (docs/optimizing.md#the-config): `{ from: "1500", to: "3500", step: "250" }` is
// 1500, 1750, …, 3500, computed with decimal.js so that no value drifts ("0.1" steps stay exact). Decimal strings
// give decimal strings with the places of the most precise of from and step ("1500.00" → "1750.00"); integers give
// integers (for integer plan fields such as passing_criteria.min_trading_days).
import { fail } from '../../core/validation/input-fields.js';
import { Dec } from '../../core/money.js';

/** The most values one range may expand to: more is surely a mistyped step. */
export const MAX_RANGE_VALUES = 1_000;

export interface SearchRange {
  from: string | number;
  to: string | number;
  step: string | number;
}

/** The range's values, from `from` up to `to` (included when a whole number of steps away); `path` names it. */
export function expandRange(range: SearchRange, path: string): Array<string | number> {
  const kinds = new Set([range.from, range.to, range.step].map((v) => typeof v));
  if (kinds.size > 1) fail(path, 'from, to and step all decimal strings or all integers', `${describe(range)} (mixed)`);
  const from = new Dec(range.from);
  const to = new Dec(range.to);
  const step = new Dec(range.step);
  if (step.lte(0)) fail(`${path}.step`, 'a step greater than 0', range.step);
  if (to.lt(from)) fail(`${path}.to`, `a value no less than from (${String(range.from)})`, range.to);
  const count = to.minus(from).dividedToIntegerBy(step).toNumber() + 1;
  if (count > MAX_RANGE_VALUES)
    fail(path, `a range of at most ${MAX_RANGE_VALUES} values`, `${describe(range)} (${count} values)`);
  // As written: decimal.js drops trailing zeros ("1500.00" has 0 places to it).
  const places = Math.max(placesOf(range.from), placesOf(range.step));
  return Array.from({ length: count }, (_, i) => {
    const value = from.plus(step.times(i));
    return typeof range.from === 'number' ? value.toNumber() : value.toFixed(places);
  });
}

function placesOf(value: string | number): number {
  return String(value).split('.')[1]?.length ?? 0;
}

function describe(range: SearchRange): string {
  return `{ from: ${JSON.stringify(range.from)}, to: ${JSON.stringify(range.to)}, step: ${JSON.stringify(range.step)} }`;
}
