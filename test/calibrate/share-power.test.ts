// What a comparison of two failure shares could have seen (src/calibrate/share-power.ts): the normal approximation
// for two independent proportions, 80 % power at 0.05 two-sided, c = z₀.₉₇₅ + z₀.₈₀ = 1.959964 + 0.841621 = 2.801585
// (c² = 7.848880), with p(1 − p) taken at m, the share halfway between the two told apart.
import { describe, expect, it } from 'vitest';
import { detectableShareDifference, heldOutFor } from '../../src/calibrate/share-power.js';

describe('power of a comparison of failure shares', () => {
  it('the held-out traders needed for 10 points: ⌈c² · m(1 − m) · (1 + 1/k) / δ²⌉', () => {
    // Pooled share 15 %, 4 synthetic traders to each held-out one: m = 0.15 + 0.05 = 0.20, m(1 − m) = 0.16;
    // 7.848880 × 0.16 × 1.25 / 0.01 = 156.98 → 157.
    expect(heldOutFor(0.1, 0.15, 4)).toBe(157);
    // Nobody failed: m = 0.05, m(1 − m) = 0.0475; 7.848880 × 0.0475 × 1.25 / 0.01 = 46.60 → 47 (a pooled share
    // of 0 would have said 0 traders: the variance is the alternative's, not the null's).
    expect(heldOutFor(0.1, 0, 4)).toBe(47);
    // Above one half, m leans the other way: 85 % gives 0.80, as 15 % gives 0.20.
    expect(heldOutFor(0.1, 0.85, 4)).toBe(157);
    // Equal groups (k = 1): 7.848880 × 0.16 × 2 / 0.01 = 251.16 → 252.
    expect(heldOutFor(0.1, 0.15, 1)).toBe(252);
  });

  it('the smallest difference this run tells: δ = c · √(m(1 − m)(1/n_h + 1/n_s)), m = p + δ/2, solved', () => {
    // p = 0.15, 100 held-out and 400 synthetic: V = c² (1/100 + 1/400) = 0.098111. With m = p + δ/2,
    // m(1 − m) = p(1 − p) + (1 − 2p) δ/2 − δ²/4, so (1 + V/4) δ² − V (1 − 2p)/2 · δ − V p(1 − p) = 0:
    // 1.024528 δ² − 0.034339 δ − 0.012509 = 0, δ = (0.034339 + √(0.001179 + 0.051264)) / 2.049056 = 0.12852.
    // Check: m = 0.21426, m(1 − m) = 0.168352, × V = 0.016517, √ = 0.12852.
    expect(detectableShareDifference(0.15, 100, 400)).toBeCloseTo(0.12852, 5);
    // Nobody failed: (1 + V/4) δ² − V/2 · δ = 0, δ = (V/2) / (1 + V/4) = 0.049056 / 1.024528 = 0.047881.
    expect(detectableShareDifference(0, 100, 400)).toBeCloseTo(0.047881, 5);
    // Symmetric about one half.
    expect(detectableShareDifference(0.85, 100, 400)).toBeCloseTo(0.12852, 5);
    // Two held-out traders and eight synthetic: V = 7.848880 × 0.625 = 4.905550, and δ from p = 0 is
    // 2.452775 / 2.226388 = 1.10: more than a share can move, so 1.
    expect(detectableShareDifference(0, 2, 8)).toBe(1);
  });

  it('the two agree: the count needed for the difference found tells that difference', () => {
    const found = detectableShareDifference(0.2, 60, 240);
    // n_h = c² m(1 − m)(1 + 1/4)/δ² at that δ is 60 again, up to the rounding up.
    expect(heldOutFor(found, 0.2, 4)).toBe(60);
  });
});
