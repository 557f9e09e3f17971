// The test of a mean, and its interval, that a back-test's money uses (docs/backtesting.md#signal-or-noise): a trader's
// net for the firm, or the paired difference of two cells' nets. Prop-firm money is skewed: a few traders take large
// payouts and the rest pay a little more or less in fees. A t-test then rejects a true "no difference" too often, and a
// sign-flip test tests symmetry, not a mean. The adjusted empirical likelihood ratio (Chen, Variyath & Abraham 2008)
// takes its confidence region's shape from the data and holds its level on such samples; where fewer than ten
// traders carry the spread (its chi-square calibration then rests on a handful of values) a difference is also
// required to pass the t-test. Analytic: no resampling, so no Monte Carlo error, and the same numbers every run.
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { normalQuantile } from './detectable-difference.js';
import type { Interval } from './statistics.js';

/** Below this many effective traders (effectiveTraders) a mean rests on a few of them. */
export const FEW_TRADERS = 10;

export interface MeanTest {
  /** Two-sided p of "the mean is μ". */
  p: number;
  /**
   * How many values carry the spread: (Σ eᵢ²)² / Σ eᵢ⁴ over the deviations from the mean; 240 equal-sized moves give
   * 240, one payout among small fees about 1.
   */
  effectiveTraders: number;
  /** Fewer than FEW_TRADERS carry it: the p is the larger of the likelihood's and the t-test's. */
  restsOnFew: boolean;
}

/** The test of "the mean of `values` is μ" (0 for a paired difference). */
export function meanTest(values: readonly number[], mu = 0): MeanTest {
  // Every value the same: the mean is known exactly, and is μ or is not.
  if (!hasSpread(values))
    return { p: values.length === 0 || values[0] === mu ? 1 : 0, effectiveTraders: values.length, restsOnFew: false };
  const effectiveTraders = effectiveCount(values);
  const restsOnFew = effectiveTraders < FEW_TRADERS;
  return { p: pAt(values, mu, restsOnFew), effectiveTraders, restsOnFew };
}

/**
 * A mean's interval at level `alpha`: the μ the likelihood test does not reject. It takes its shape from the data
 * and stays near their range (a cell's net per trader cannot come out above what any trader paid). Only for a
 * sample so small that the likelihood rejects nothing (two or three traders) is it the t-test's.
 */
export function meanInterval(values: readonly number[], alpha: number): Interval {
  const n = values.length;
  if (n === 0) return { low: 0, high: 0 };
  const mean = sumOf(values) / n;
  if (!hasSpread(values)) return { low: mean, high: mean };
  const likelihood = likelihoodInterval(values, alpha);
  return likelihood ?? tInterval(values, alpha);
}

/**
 * The interval of a paired difference's test at level `alpha`, holding 0 exactly when that test (meanTest) does not
 * reject: the likelihood's, or where fewer than ten traders carry the spread, the t-test's, which a comparison then
 * widens to 0 when the two tests together do not reject (decisions.ts).
 */
export function differenceInterval(d: readonly number[], alpha: number): Interval {
  if (!hasSpread(d)) return meanInterval(d, alpha);
  if (effectiveCount(d) < FEW_TRADERS) return tInterval(d, alpha);
  return likelihoodInterval(d, alpha) ?? tInterval(d, alpha);
}

/** The μ the likelihood test at `alpha` does not reject; undefined when it rejects nothing 64 ranges either side. */
function likelihoodInterval(values: readonly number[], alpha: number): Interval | undefined {
  const mean = sumOf(values) / values.length;
  const holds = (mu: number) => chiSquare1Tail(adjustedLikelihoodRatio(values, mu)) >= alpha;
  const range = Math.max(...values) - Math.min(...values);
  const [low, high] = [boundary(mean, -range, holds), boundary(mean, range, holds)];
  return low === undefined || high === undefined ? undefined : { low, high };
}

/** mean ± t(1 − α/2, n − 1) · s/√n. */
function tInterval(values: readonly number[], alpha: number): Interval {
  const n = values.length;
  const mean = sumOf(values) / n;
  if (n < 2) return { low: mean, high: mean };
  const sd = Math.sqrt(values.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
  const half = tQuantile(1 - alpha / 2, n - 1) * (sd / Math.sqrt(n));
  return { low: mean - half, high: mean + half };
}

/** The adjusted likelihood's p, or with few effective traders the larger of it and the t-test's. */
function pAt(values: readonly number[], mu: number, restsOnFew: boolean): number {
  const likelihood = chiSquare1Tail(adjustedLikelihoodRatio(values, mu));
  return restsOnFew ? Math.max(likelihood, tTestP(values, mu)) : likelihood;
}

/**
 * −2 log of the adjusted empirical likelihood ratio at μ: the deviations dᵢ = xᵢ − μ with one pseudo-value
 * −aₙ · mean(d), aₙ = max(1, log(n)/2), which keeps μ inside their range; weights 1/((n+1)(1 + λdᵢ)), λ solving
 * Σ dᵢ/(1 + λdᵢ) = 0. That sum falls as λ rises on the interval where every weight is positive: Newton's steps,
 * kept inside a bracket that bisection narrows when a step would leave it.
 */
export function adjustedLikelihoodRatio(values: readonly number[], mu: number): number {
  const n = values.length;
  const d = values.map((x) => x - mu);
  const meanDeviation = sumOf(d) / n;
  if (meanDeviation === 0) return 0;
  d.push(-Math.max(1, Math.log(n) / 2) * meanDeviation);
  let low = -1 / Math.max(...d);
  let high = -1 / Math.min(...d);
  let lambda = 0;
  for (let i = 0; i < 200; i++) {
    let f = 0;
    let slope = 0;
    for (const x of d) {
      const w = 1 / (1 + lambda * x);
      f += x * w;
      slope -= x * x * w * w;
    }
    if (f > 0) low = lambda;
    else high = lambda;
    const newton = lambda - f / slope;
    const next = newton > low && newton < high ? newton : (low + high) / 2;
    if (next === lambda || Math.abs(next - lambda) <= 1e-15 * Math.abs(lambda)) break;
    lambda = next;
  }
  let statistic = 0;
  for (const x of d) statistic += Math.log1p(lambda * x);
  return 2 * statistic;
}

/** P(χ²₁ ≥ s) = 2 Φ(−√s). */
function chiSquare1Tail(statistic: number): number {
  return Math.min(1, 2 * normalCdf(-Math.sqrt(Math.max(0, statistic)), 0, 1));
}

/** The two-sided t-test of mean μ on n − 1 degrees of freedom. */
function tTestP(values: readonly number[], mu: number): number {
  const n = values.length;
  if (n < 2) return 1;
  const mean = sumOf(values) / n;
  const sd = Math.sqrt(values.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
  const t = (mean - mu) / (sd / Math.sqrt(n));
  return Math.min(1, 2 * tCdf(-Math.abs(t), n - 1));
}

/**
 * The last μ from the mean towards `reach` (a signed distance: the data's range) where `holds` is true, the test's
 * boundary found by bisection; undefined when it still holds 64 ranges past the mean (a test that rejects nothing).
 */
function boundary(mean: number, reach: number, holds: (mu: number) => boolean): number | undefined {
  let inside = mean;
  let outside = mean + reach;
  while (holds(outside)) {
    inside = outside;
    if (Math.abs(outside - mean) >= 64 * Math.abs(reach)) return undefined;
    outside = mean + 2 * (outside - mean);
  }
  for (let i = 0; i < 100; i++) {
    const middle = (inside + outside) / 2;
    if (middle === inside || middle === outside) break;
    if (holds(middle)) inside = middle;
    else outside = middle;
  }
  return inside;
}

function effectiveCount(values: readonly number[]): number {
  const n = values.length;
  const mean = sumOf(values) / n;
  let squares = 0;
  let fourths = 0;
  for (const x of values) {
    const e = (x - mean) ** 2;
    squares += e;
    fourths += e * e;
  }
  return (squares * squares) / fourths;
}

function hasSpread(values: readonly number[]): boolean {
  return values.some((x) => x !== values[0]);
}

function sumOf(values: readonly number[]): number {
  let sum = 0;
  for (const x of values) sum += x;
  return sum;
}

/** z² for a two-sided level: the χ²₁ quantile the likelihood is compared with. */
export function chiSquare1Critical(alpha: number): number {
  return normalQuantile(1 - alpha / 2) ** 2;
}
