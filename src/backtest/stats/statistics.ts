// How far a back-test's rates can be trusted (docs/backtesting.md#signal-or-noise): a 95 % Wilson interval per
// cell, an exact McNemar test and a paired interval between two cells (the same traders trade in every cell, so a
// comparison is paired), and Holm's adjustment over every comparison a run reports. Probabilities, not money:
// plain floats, printed with four places so the outputs stay byte-identical.
import { Dec } from '../../core/money.js';

/** z for a two-sided 95 % interval. */
export const Z_95 = 1.959963984540054;
/** The level under which a Holm-adjusted p says two cells differ. */
export const SIGNIFICANCE = 0.05;

export interface Interval {
  low: number;
  high: number;
}

/**
 * The Wilson score interval of `passed` out of `n` at 95 % (or at the level of `z`: optimize's Bonferroni-corrected
 * checks); [0, 0] when n is 0 (nothing was measured).
 */
export function wilsonInterval(passed: number, n: number, z = Z_95): Interval {
  if (n === 0) return { low: 0, high: 0 };
  return wilsonRateInterval(passed / n, n, z);
}

/**
 * The Wilson score interval of a rate p measured on n subjects, n not necessarily whole (an effective sample size:
 * incidence.ts). It takes p rather than a count because (p · n) / n is not always p when n is not whole.
 */
export function wilsonRateInterval(p: number, n: number, z = Z_95): Interval {
  if (n === 0) return { low: 0, high: 0 };
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At p = 0 (or 1) the bound is exactly 0 (or 1): float error must not put the estimate outside its interval.
  return { low: p === 0 ? 0 : Math.max(0, centre - half), high: p === 1 ? 1 : Math.min(1, centre + half) };
}

/** Pass/fail of the same traders in two cells: who passed in only one of them. */
export interface PairedCounts {
  /** Traders that passed in the first cell and not in the second. */
  onlyFirst: number;
  /** Traders that passed in the second cell and not in the first. */
  onlySecond: number;
}

export function pairedCounts(first: readonly boolean[], second: readonly boolean[]): PairedCounts {
  if (first.length !== second.length)
    throw new Error(`paired cells need the same traders: ${first.length} against ${second.length}`);
  let onlyFirst = 0;
  let onlySecond = 0;
  for (let i = 0; i < first.length; i++) {
    if (first[i] && !second[i]) onlyFirst++;
    else if (!first[i] && second[i]) onlySecond++;
  }
  return { onlyFirst, onlySecond };
}

/**
 * The exact (binomial) McNemar test, two-sided: under "the two cells pass the same traders as often", each
 * discordant trader is a fair coin, so p = min(1, 2 · P(X ≤ min(b, c))) with X ~ Binomial(b + c, 1/2).
 * 1 when no trader is discordant.
 */
export function mcnemarExactP({ onlyFirst, onlySecond }: PairedCounts): number {
  const n = onlyFirst + onlySecond;
  const k = Math.min(onlyFirst, onlySecond);
  if (n === 0) return 1;
  // Σ_{i ≤ k} C(n, i) / 2^n, the terms built in log space so that thousands of traders do not overflow.
  let logTerm = -n * Math.LN2;
  let tail = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logTerm);
  }
  return Math.min(1, 2 * tail);
}

/**
 * The 95 % interval of a paired difference in rates, second − first (Newcombe's hybrid score interval for paired
 * proportions, his method 10): each rate's Wilson interval, joined with the correlation φ of the two cells' outcomes
 * over the same traders. `both` passed (or failed) in both cells, `onlyFirst`/`onlySecond` in one only, of `n`.
 */
export function pairedDifferenceInterval(counts: PairedCounts & { both: number }, n: number): Interval {
  if (n === 0) return { low: 0, high: 0 };
  const { both, onlyFirst, onlySecond } = counts;
  const neither = n - both - onlyFirst - onlySecond;
  const first = (both + onlyFirst) / n;
  const second = (both + onlySecond) / n;
  const w1 = wilsonInterval(both + onlyFirst, n);
  const w2 = wilsonInterval(both + onlySecond, n);
  const product = (both + onlyFirst) * (neither + onlySecond) * (both + onlySecond) * (neither + onlyFirst);
  const phi = product === 0 ? 0 : (both * neither - onlyFirst * onlySecond) / Math.sqrt(product);
  const difference = second - first;
  const below = (second - w2.low) ** 2 - 2 * phi * (second - w2.low) * (w1.high - first) + (w1.high - first) ** 2;
  const above = (w2.high - second) ** 2 - 2 * phi * (w2.high - second) * (first - w1.low) + (first - w1.low) ** 2;
  return { low: difference - Math.sqrt(Math.max(0, below)), high: difference + Math.sqrt(Math.max(0, above)) };
}

/**
 * Holm's step-down adjustment of p-values, so that "any adjusted p < 0.05" is wrong with probability at most 5 %
 * over the whole family: the i-th smallest p (from 1) times (m − i + 1), kept non-decreasing, at most 1.
 * Returned in the order given.
 */
export function holmAdjusted(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/** A probability or rate with four places, the outputs' format. */
export function fourPlaces(x: number): string {
  // decimal.js rounds the number as written, half to even, as summarizeCell's pass_rate is: 3/20,000 is 0.0002 in both.
  return new Dec(x).toFixed(4);
}
