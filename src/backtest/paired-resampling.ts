// The money side of signal or noise (docs/backtesting.md#signal-or-noise): a paired bootstrap over traders for the
// intervals of the net per trader, and a sign-flip test for the p-value of a difference in it. Seeded from the
// config seed, so a run's outputs stay byte-identical; the sums are of integer cents, exact in a double.
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Bootstrap resamples of the traders: the percentiles of 2,000 are steady to about a tenth of the interval. */
export const RESAMPLES = 2_000;

type Random = ReturnType<typeof xoroshiro128plus>;

/**
 * The statistics' random stream for a config seed: two jumps (2 × 2⁶⁴ draws) on from the stream the kernel's ids
 * draw from the same seed, so the two never overlap.
 */
export function statisticsRandom(seed: number): Random {
  const rng = xoroshiro128plus(seed);
  rng.jump();
  rng.jump();
  return rng;
}

/**
 * The paired bootstrap: `resamples` draws of N traders with replacement, the same draw for every cell (that is the
 * pairing), and each cell's sum over the drawn traders: `sums[cell][r]`. `values[cell][trader]` are whole numbers.
 */
export function bootstrapSums(
  values: ReadonlyArray<readonly number[]>,
  resamples: number,
  rng: Random,
): Float64Array[] {
  const traders = values[0]?.length ?? 0;
  const cells = values.length;
  // Trader by trader, every cell's value side by side: one draw adds a contiguous run.
  const byTrader = new Float64Array(traders * cells);
  values.forEach((cell, c) => cell.forEach((v, t) => (byTrader[t * cells + c] = v)));
  const sums = new Float64Array(resamples * cells);
  for (let r = 0; r < resamples && traders > 0; r++) {
    const row = r * cells;
    for (let k = 0; k < traders; k++) {
      const from = uniformInt(rng, 0, traders - 1) * cells;
      for (let c = 0; c < cells; c++) sums[row + c]! += byTrader[from + c]!;
    }
  }
  return values.map((_, c) => Float64Array.from({ length: resamples }, (_, r) => sums[r * cells + c]!));
}

/**
 * The 95 % percentile interval of bootstrap values, by nearest rank: the ⌈0.025·R⌉-th and ⌈0.975·R⌉-th smallest
 * (the 50th and 1,950th of 2,000).
 */
export function percentileInterval(values: Float64Array): { low: number; high: number } {
  const sorted = Float64Array.from(values).sort();
  const rank = (q: number) => sorted[Math.max(0, Math.ceil((q * sorted.length) / 1000) - 1)]!;
  return { low: rank(25), high: rank(975) };
}

/**
 * How many sign flips a run's net comparisons use: at least RESAMPLES, and 200 per comparison the run reports, so
 * that the smallest p a flip test can give, 1 / (flips + 1), stays ten times under 0.05 after Holm multiplies it by
 * the number of comparisons.
 */
export function signFlipsFor(comparisons: number): number {
  return Math.max(RESAMPLES, 200 * comparisons);
}

/**
 * The paired sign-flip (permutation) test of "the plan makes no difference to a trader's net": each trader's
 * difference dᵢ is then as likely to be −dᵢ, so Σ dᵢ is compared with the sums of `flips` random sign patterns.
 * p = (1 + #{|Σ sᵢdᵢ| ≥ |Σ dᵢ|}) / (1 + flips), two-sided; 1 when no trader's net differs. Exact in level for
 * any number of traders, which a bootstrap p is not when a few large payouts carry the difference.
 */
export function signFlipP(differences: readonly number[], flips: number, rng: Random): number {
  const moved = differences.filter((d) => d !== 0);
  if (moved.length === 0) return 1;
  const observed = Math.abs(moved.reduce((a, b) => a + b, 0));
  let asExtreme = 0;
  for (let r = 0; r < flips; r++) {
    let sum = 0;
    for (let i = 0; i < moved.length; i += 32) {
      const bits = rng.next(); // 32 random signs a draw
      const end = Math.min(moved.length, i + 32);
      for (let j = i; j < end; j++) sum += (bits >>> (j - i)) & 1 ? moved[j]! : -moved[j]!;
    }
    if (Math.abs(sum) >= observed) asExtreme++;
  }
  return (1 + asExtreme) / (1 + flips);
}
