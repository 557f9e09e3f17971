// The confirmation's constraint checks (docs/optimizing.md#confirmation): Bonferroni-corrected intervals.
import { describe, expect, it } from 'vitest';
import { boundVerdict } from '../../../src/backtest/optimize/constraint-checks.js';
import { meanInterval } from '../../../src/backtest/stats/mean-test.js';
import { zForComparisons } from '../../../src/backtest/stats/detectable-difference.js';
import { wilsonInterval } from '../../../src/backtest/stats/statistics.js';

describe('constraint checks', () => {
  it('a min bound holds when the interval lies above it, fails below it, else no evidence either way', () => {
    expect(boundVerdict({ low: 0.07, high: 0.12 }, 'min', 0.06)).toBe('holds');
    expect(boundVerdict({ low: 0.01, high: 0.05 }, 'min', 0.06)).toBe('fails');
    expect(boundVerdict({ low: 0.04, high: 0.09 }, 'min', 0.06)).toBe('no_evidence');
    expect(boundVerdict({ low: 0.04, high: 0.09 }, 'max', 0.1)).toBe('holds');
    expect(boundVerdict({ low: 0.11, high: 0.2 }, 'max', 0.1)).toBe('fails');
    expect(boundVerdict({ low: 0.08, high: 0.12 }, 'max', 0.1)).toBe('no_evidence');
  });

  it('Bonferroni over 6 checks reads each interval at 1 − 0.05/6: z = Φ⁻¹(1 − 0.05/12) ≈ 2.638, wider than 1.96', () => {
    const z = zForComparisons(6);
    expect(z).toBeCloseTo(2.638, 3);
    // 20 of 200 pass: p = 0.1. Wilson at z: centre (0.1 + z²/400) / (1 + z²/200), half z·√(0.1·0.9/200 + z²/160000) / (1 + z²/200).
    const z2 = z * z;
    const centre = (0.1 + z2 / 400) / (1 + z2 / 200);
    const half = (z * Math.sqrt(0.00045 + z2 / 160000)) / (1 + z2 / 200);
    const corrected = wilsonInterval(20, 200, z);
    expect(corrected.low).toBeCloseTo(centre - half, 12);
    expect(corrected.high).toBeCloseTo(centre + half, 12);
    // ≈ 0.0590 to 0.1650 against 0.0660 to 0.1488 at 95 %: a bound of 0.06 holds at 95 % but not after the correction.
    expect(boundVerdict(wilsonInterval(20, 200), 'min', 0.06)).toBe('holds');
    expect(boundVerdict(corrected, 'min', 0.06)).toBe('no_evidence');
  });

  it('reads the net per trader by the mean test at the corrected level: wider than at 95 %', () => {
    // 240 traders: 230 net the firm $165.00, 10 cost it $835.00 (a $1,000.00 payout): mean $123.33.
    const nets = [...Array<number>(230).fill(16_500), ...Array<number>(10).fill(-83_500)];
    const at95 = meanInterval(nets, 0.05);
    const corrected = meanInterval(nets, 0.05 / 6);
    expect(at95.low).toBeLessThan(12_333);
    expect(at95.high).toBeGreaterThan(12_334);
    expect(corrected.low).toBeLessThan(at95.low);
    expect(corrected.high).toBeGreaterThan(at95.high);
  });
});
