// The money side of signal or noise (docs/backtesting.md#signal-or-noise): the paired bootstrap of the net per
// trader and the sign-flip test of a difference in it. Seeded, so every number below comes back the same.
import { describe, expect, it } from 'vitest';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import {
  bootstrapSums,
  percentileInterval,
  RESAMPLES,
  signFlipP,
  signFlipsFor,
  statisticsRandom,
} from '../../src/backtest/paired-resampling.js';

describe('the paired bootstrap over traders', () => {
  const nets = [
    [16_500, 16_500, -50_000, 16_500, 16_500],
    [16_500, -20_000, 16_500, 16_500, 16_500],
  ];

  it('is deterministic: the same seed gives the same sums, another seed others', () => {
    const a = bootstrapSums(nets, RESAMPLES, statisticsRandom(7));
    const b = bootstrapSums(nets, RESAMPLES, statisticsRandom(7));
    const c = bootstrapSums(nets, RESAMPLES, statisticsRandom(8));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('pairs the cells: each resample draws the same traders for every cell', () => {
    // Cell 1 is cell 0 plus 100 cents for every trader: each resample of 5 traders sums exactly 500 more.
    const shifted = [nets[0]!, nets[0]!.map((x) => x + 100)];
    const [first, second] = bootstrapSums(shifted, 500, statisticsRandom(1));
    expect(second!.every((sum, r) => sum - first![r]! === 500)).toBe(true);
  });

  it('takes the 2.5th and 97.5th percentiles by nearest rank: the 50th and 1,950th of 2,000', () => {
    const values = Float64Array.from({ length: 2000 }, (_, i) => 2000 - i); // 2000 … 1, shuffled order
    expect(percentileInterval(values)).toEqual({ low: 50, high: 1950 });
  });

  it('covers the true mean about 95 times in 100 (coverage sanity, 200 samples of 100 traders)', () => {
    // Traders' nets are 165.00 or −500.00 with a 1-in-5 chance of the loss: a true mean of 0.8 · 16,500 − 0.2 · 50,000
    // = 3,200 cents. Draw 200 rosters, bootstrap each (500 resamples to keep the test quick), count the intervals
    // that hold 3,200.
    const draw = statisticsRandom(99);
    let covered = 0;
    for (let sample = 0; sample < 200; sample++) {
      const roster = Array.from({ length: 100 }, () => (uniformInt(draw, 0, 4) === 0 ? -50_000 : 16_500));
      const { low, high } = percentileInterval(bootstrapSums([roster], 500, statisticsRandom(sample))[0]!);
      if (low / 100 <= 3_200 && 3_200 <= high / 100) covered++;
    }
    expect(covered).toBeGreaterThanOrEqual(180); // 95 % of 200 is 190; ±2 standard errors is about ±6
    expect(covered).toBeLessThanOrEqual(198);
  });
});

describe('the sign-flip test of a difference in net', () => {
  it('is 1 when no trader fares differently', () => {
    expect(signFlipP([0, 0, 0], 2000, statisticsRandom(1))).toBe(1);
  });

  it('12 traders all better off: the exact p is 2 / 2^12 = 0.00049, the flips find about that', () => {
    // (1 + hits) / 2001 with about 2000 · 0.00049 ≈ 1 hit expected.
    const p = signFlipP(
      Array.from({ length: 12 }, () => 1_000),
      2000,
      statisticsRandom(3),
    );
    expect(p).toBeLessThan(0.005);
    expect(p).toBeGreaterThanOrEqual(1 / 2001);
  });

  it('5 and −3: every sign pattern is as extreme as the observed 2, p = 1; 5 and 3: half of them are, p ≈ 0.5', () => {
    // The sums are ±5 ± 3: 8, 2, −2, −8. |Σ| ≥ |5 − 3| = 2 for every pattern: p = (1 + 2000) / 2001 = 1.
    expect(signFlipP([5, -3, 0], 2000, statisticsRandom(4))).toBe(1);
    // |Σ| ≥ 8 for the two patterns with equal signs: half the flips, p ≈ 0.5.
    expect(signFlipP([5, 3], 2000, statisticsRandom(4))).toBeCloseTo(0.5, 1);
  });

  it('uses 200 flips a comparison, at least 2,000, so the smallest p survives Holm: 33 comparisons, 6,600', () => {
    expect(signFlipsFor(33)).toBe(6_600);
    expect(signFlipsFor(3)).toBe(2_000);
    // 33 · 1 / 6,601 = 0.005 < 0.05.
    expect(33 / (signFlipsFor(33) + 1)).toBeLessThan(0.05);
  });
});
