// Kinds of traders (src/calibrate/kinds.ts, k-means.ts): the ranges and entry rates written, and seeded clustering.
import { describe, expect, it } from 'vitest';
import { activeHours, cappedBinomialMean, entryRate, uniformRange } from '../../src/calibrate/kinds.js';
import { chooseK, kMeans } from '../../src/calibrate/k-means.js';

describe('kind parameters', () => {
  it('stop and target ranges: the uniform range whose 10th and 90th percentiles the distances have', () => {
    // 11..90: p10 is the 8th value (18), p90 the 72nd (82); a tenth of the range each side: (82 − 18) / 8 = 8.
    const distances = Array.from({ length: 80 }, (_, i) => i + 11);
    expect(uniformRange(distances)).toEqual([10, 90]);
    // No such exit at all: the bracket trader's default.
    expect(uniformRange([])).toEqual([8, 40]);
  });

  it('entry rate: E[min(cap, Binomial(checks, odds))], and the check interval that gives the measured mean', () => {
    // Binomial(2, 0.5) is 0, 1, 2 with 1/4, 1/2, 1/4: E[min(1, X)] = 1/2 + 1/4 = 0.75.
    expect(cappedBinomialMean(2, 0.5, 1)).toBeCloseTo(0.75, 12);
    // trades_per_day 4 every 5 minutes: 276 checks at 1 %. P(0) = 0.99^276 = 0.0624, P(1) = 276 × 0.01 × 0.99^275
    // = 0.1740, P(2) = 0.2417, P(3) = 0.2229; E = 0.1740 + 2 × 0.2417 + 3 × 0.2229 + 4 × (1 − 0.7010) = 2.522.
    const mean = cappedBinomialMean(276, 0.01, 4);
    expect(mean).toBeCloseTo(2.522, 2);
    // Days of up to 4 entries (90th percentile 4), that mean: 4 a day, every 5 minutes.
    expect(entryRate(mean, [1, 2, 3, 4, 4, 4, 2, 3, 4, 4])).toEqual({ tradesPerDay: 4, checkEveryMinutes: 5 });
  });
});

describe('active hours of a kind', () => {
  it('the 5th to 95th percentile of entry times, widened to whole five minutes; none when it spans 85 % of the session', () => {
    // One entry a minute from 08:30 to 10:59 CT: session minutes (from 17:00 CT) 930 to 1079, 150 of them.
    // p5 is the 8th (937), floored to 935 = 08:35 CT; p95 the 143rd (1072), + 1 = 1073, up to 1075 = 10:55 CT.
    const entries = Array.from({ length: 150 }, (_, i) => 930 + i);
    expect(activeHours(entries)).toEqual({ clock: ['08:35', '10:55'], minutes: 140 }); // 1075 − 935
    // Entries all session long: p5 to p95 spans 90 % of its 1380 minutes, more than 85 %.
    const allSession = Array.from({ length: 1380 }, (_, i) => i);
    expect(activeHours(allSession)).toBeUndefined();
  });
});

describe('seeded k-means', () => {
  const blob = (cx: number, cy: number, n: number) =>
    Array.from({ length: n }, (_, i) => [cx + ((i * 7) % 5) / 10, cy + ((i * 3) % 4) / 10]);
  const points = [...blob(0, 0, 12), ...blob(10, 10, 8)];

  it('two groups far apart are two clusters, numbered by first point, and chooseK finds two', () => {
    const { assignment, k } = kMeans(points, 2, 5);
    expect(k).toBe(2);
    expect(assignment).toEqual([...Array(12).fill(0), ...Array(8).fill(1)]);
    expect(chooseK(points, 5)).toBe(2);
  });

  it('the same seed gives the same clusters', () => {
    const noisy = points.map(([x, y], i) => [x! + (i % 3), y! - (i % 2)]);
    expect(kMeans(noisy, 4, 9)).toEqual(kMeans(noisy, 4, 9));
  });
});
