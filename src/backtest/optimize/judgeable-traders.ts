// How many traders a stage needs before its rate constraints can drop anything (docs/optimizing.md#how-the-search-narrows).
// A candidate is dropped only when its Wilson interval lies wholly outside a bound; on few traders no interval can:
// 0 passes of 30 still reach a pass rate of 0.1135, above a floor of 0.06, so a candidate that passed nobody is kept.
// The least such stage is the one where the far end of the data is clearly outside the bound: for a floor b, nobody
// passing puts Wilson's upper end z² / (n + z²) below b when n > z² (1 − b) / b; for a cap b, everybody failing puts
// the lower end n / (n + z²) above b when n > z² b / (1 − b).
import { Z_95 } from '../stats/statistics.js';
import type { Constraint } from './optimize-config.js';

/** The fewest traders that let each rate bound drop a candidate at its far end; 0 without rate bounds. */
export function tradersToJudge(constraints: readonly Constraint[]): number {
  const z2 = Z_95 * Z_95;
  const needs = constraints
    .filter((c) => c.metric !== 'net_per_trader')
    .flatMap(({ min, max }) => [
      ...(min !== undefined && min > 0 ? [(z2 * (1 - min)) / min] : []),
      ...(max !== undefined && max < 1 ? [(z2 * max) / (1 - max)] : []),
    ]);
  // Strictly more than the bound: the least whole number above it.
  return needs.reduce((most, need) => Math.max(most, Math.floor(need) + 1), 0);
}
