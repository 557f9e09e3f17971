// How far a back-test's pass rates can be trusted (docs/backtesting.md#signal-or-noise): a 95 % Wilson interval per
// cell, an exact McNemar test between two cells (the same traders trade in every cell, so a comparison is paired),
// and the guidance on how many traders a question needs. Probabilities, not money: plain floats, printed with
// four places so the outputs stay byte-identical.

/** z for a two-sided 95 % interval. */
const Z_95 = 1.959963984540054;
/** z of 80 % power, one-sided. */
const Z_POWER_80 = 0.8416212335729143;
/** The level under which a paired difference is called real rather than noise. */
export const SIGNIFICANCE = 0.05;

export interface Interval {
  low: number;
  high: number;
}

/** The Wilson score interval of `passed` out of `n` at 95 %; [0, 0] when n is 0 (nothing was measured). */
export function wilsonInterval(passed: number, n: number): Interval {
  if (n === 0) return { low: 0, high: 0 };
  const p = passed / n;
  const z2 = Z_95 * Z_95;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
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
 * The smallest difference in pass rate that N traders per cell resolve (95 % two-sided, 80 % power), near a
 * pass rate p, by the normal approximation for two independent proportions. Paired cells resolve at least this.
 */
export function detectableDifference(traders: number, passRate: number): number {
  if (traders === 0) return 1;
  const p = clampRate(passRate);
  return (Z_95 + Z_POWER_80) * Math.sqrt((2 * p * (1 - p)) / traders);
}

/** Traders per cell needed to resolve a difference in pass rate near p, by the same approximation. */
export function tradersForDifference(difference: number, passRate: number): number {
  const p = clampRate(passRate);
  return Math.ceil(((Z_95 + Z_POWER_80) ** 2 * 2 * p * (1 - p)) / (difference * difference));
}

/** A rate of 0 or 1 would claim no noise at all: measure near one pass (or failure) in a hundred at least. */
function clampRate(p: number): number {
  return Math.min(0.99, Math.max(0.01, p));
}

/** A probability or rate with four places, the outputs' format. */
export function fourPlaces(x: number): string {
  return x.toFixed(4);
}
