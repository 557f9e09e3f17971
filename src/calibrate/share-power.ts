// What a comparison of the held-out traders' failure share with the kinds' could have seen
// (docs/backtesting.md#outcomes-under-a-plan): the normal approximation for two independent proportions, 80 %
// power at 0.05 two-sided. p(1 − p) is taken at m, the share halfway between the two told apart (toward one half):
// at the pooled share itself a firm where nobody failed would be told that any difference shows.
import { Z_95 } from '../backtest/stats/statistics.js';
import { Z_POWER_80 } from '../backtest/stats/detectable-difference.js';

/** z₀.₉₇₅ + z₀.₈₀: a two-sided test at 0.05 with 80 % power. */
const Z = Z_95 + Z_POWER_80;

/** The share on the near side of one half: the formulas are symmetric about it. */
function nearSide(share: number): number {
  return Math.min(share, 1 - share);
}

/**
 * Held-out traders needed to tell `difference` from `share` with `syntheticPerHeldOut` synthetic traders to each:
 * ⌈c² · m(1 − m) · (1 + 1/k) / δ²⌉, m = p + δ/2 (p on the near side of one half), c = z₀.₉₇₅ + z₀.₈₀.
 */
export function heldOutFor(difference: number, share: number, syntheticPerHeldOut: number): number {
  const m = nearSide(share) + difference / 2;
  const needed = (Z * Z * m * (1 - m) * (1 + 1 / syntheticPerHeldOut)) / (difference * difference);
  // The 1e-9 keeps an exact count from rounding up past itself.
  return Math.ceil(needed - 1e-9);
}

/**
 * The smallest difference from `share` that `heldOut` and `synthetic` traders tell: δ = c · √(m(1 − m)(1/n_h + 1/n_s))
 * with m = p + δ/2, that is, with V = c²(1/n_h + 1/n_s), the positive root of (1 + V/4) δ² − V(1 − 2p)/2 · δ −
 * V p(1 − p) = 0; at most 1, the most a share can move.
 */
export function detectableShareDifference(share: number, heldOut: number, synthetic: number): number {
  const p = nearSide(share);
  const v = Z * Z * (1 / heldOut + 1 / synthetic);
  const a = 1 + v / 4;
  const b = (v * (1 - 2 * p)) / 2;
  const c = v * p * (1 - p);
  return Math.min(1, (b + Math.sqrt(b * b + 4 * a * c)) / (2 * a));
}
