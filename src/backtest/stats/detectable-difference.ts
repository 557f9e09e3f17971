// What a paired comparison could have seen (docs/backtesting.md#signal-or-noise): the smallest difference a run
// detects with 80 % power at the level Holm's correction asks of its strictest comparison, and the traders a
// question needs. Both come from the observed pairs, not from the independent-groups formula: under "no
// difference" the paired sum Σ dᵢ (dᵢ = a trader's outcome in the cell − in the reference) has variance Σ dᵢ², so
// the mean difference has standard error √(Σ dᵢ²)/N. For a rate dᵢ is −1, 0 or 1 and Σ dᵢ² is the discordant
// traders b + c (McNemar's normal approximation, Connor 1987, with δ² dropped beside the discordance).
import { SIGNIFICANCE } from './statistics.js';

/** z of 80 % power, one-sided: Φ⁻¹(0.80). */
export const Z_POWER_80 = 0.8416212335729143;

/** The two-sided z that Holm's strictest step asks of `comparisons` comparisons: Φ⁻¹(1 − 0.05 / (2m)). */
export function zForComparisons(comparisons: number): number {
  return normalQuantile(1 - SIGNIFICANCE / (2 * Math.max(1, comparisons)));
}

/** (z + Z_POWER_80) · √(Σ dᵢ²) / N: the smallest mean difference N paired traders resolve. */
export function detectableDifference(sumOfSquares: number, traders: number, z: number): number {
  if (traders === 0) return 0;
  return ((z + Z_POWER_80) * Math.sqrt(sumOfSquares)) / traders;
}

/**
 * The fewest discordant traders with which an exact McNemar test can reach Holm's strictest level, 0.05 / m: all k of
 * them one way gives p = 2 / 2ᵏ, so k is the smallest with 2 / 2ᵏ < 0.05 / m (11 for 33 comparisons). A difference in
 * rate smaller than k / N cannot be detected however the traders fall.
 */
export function fewestDiscordant(comparisons: number): number {
  const level = SIGNIFICANCE / Math.max(1, comparisons);
  let k = 1;
  while (2 / 2 ** k >= level) k++;
  return k;
}

/**
 * The smallest difference in a rate a run detects from `discordant` traders of N, over `comparisons` comparisons:
 * (z + Z_POWER_80) · √(b + c) / N, and never under fewestDiscordant / N; at most 1, the widest a rate can move.
 */
export function detectableRateDifference(discordant: number, traders: number, comparisons: number): number {
  if (traders === 0) return 1;
  const z = zForComparisons(comparisons);
  const smallest = Math.max(detectableDifference(discordant, traders, z), fewestDiscordant(comparisons) / traders);
  return Math.min(1, smallest); // 1: no difference in a rate could have been detected
}

/**
 * Traders needed to resolve a difference δ in a rate when a fraction ψ of the traders fare differently in the two
 * cells: ⌈(z + Z_POWER_80)² · ψ / δ²⌉, and at least ⌈fewestDiscordant / δ⌉ (the same two rules, solved for N).
 */
export function tradersForDifference(difference: number, discordance: number, comparisons: number): number {
  const z = zForComparisons(comparisons);
  const byPower = Math.ceil(((z + Z_POWER_80) ** 2 * discordance) / (difference * difference));
  // The 1e-9 keeps 11 / 0.02 at 550 when floating point makes it 550.0000000000001.
  return Math.max(byPower, Math.ceil(fewestDiscordant(comparisons) / difference - 1e-9));
}

/**
 * Φ⁻¹(p), the standard normal quantile, by Acklam's rational approximation (relative error under 1.2e-9), which is
 * far finer than the four places the outputs print.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`a probability strictly between 0 and 1, got ${p}`);
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
    ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}
