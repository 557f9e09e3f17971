// The replay report's point budget (src/reports/chart-budget.ts): a long timeline is cut to a few points per
// column of the chart, and the lowest equity of every column survives, so a breach stays on the chart.
import { describe, expect, it } from 'vitest';
import { withinBudget, withoutFlatRuns } from '../../src/reports/chart-budget.js';
import type { TimelinePoint } from '../../src/scenario/account-timeline.js';

const point = (timeMs: number, equityCents: number): TimelinePoint => [timeMs, equityCents, 4_800_000, null];

describe('withinBudget', () => {
  it('keeps a short timeline as it is', () => {
    const points = [point(0, 5_000_000), point(1, 4_990_000), point(2, 5_010_000)];
    expect(withinBudget(points, 10)).toEqual(points);
  });

  it('keeps per column its lowest, its highest and its last point, in time order', () => {
    // 100 points over 10 columns of 10: column c holds times 10c .. 10c+9.
    const points = Array.from({ length: 100 }, (_, i) => point(i, 5_000_000 + ((i * 37) % 11) * 100));
    points[42] = point(42, 4_700_000); // a dip under the floor in column 4
    points[77] = point(77, 5_600_000); // a spike in column 7
    const kept = withinBudget(points, 10);
    expect(kept.length).toBeLessThanOrEqual(30);
    expect(kept).toContainEqual(point(42, 4_700_000));
    expect(kept).toContainEqual(point(77, 5_600_000));
    expect(kept[kept.length - 1]).toEqual(points[99]);
    expect(kept.map((p) => p[0])).toEqual([...kept.map((p) => p[0])].sort((a, b) => a - b));
    // Column 4 (times 40..49): the dip is its lowest; its last point is time 49.
    expect(kept.filter((p) => p[0] >= 40 && p[0] < 50).map((p) => p[0])).toContain(49);
  });

  it('draws a million points as at most three per column', () => {
    const points = Array.from({ length: 1_000_000 }, (_, i) => point(i * 1000, 5_000_000 + (i % 1000)));
    expect(withinBudget(points).length).toBeLessThanOrEqual(3 * 550);
  });
});

describe('withoutFlatRuns', () => {
  it('keeps the ends and the first and last point of each run of equal values', () => {
    // A floor at 48,000 for four samples, a step up to 48,250 held for three, then 48,500 once.
    const line: [number, number][] = [
      [0, 48_000],
      [1, 48_000],
      [2, 48_000],
      [3, 48_000],
      [4, 48_250],
      [5, 48_250],
      [6, 48_250],
      [7, 48_500],
    ];
    expect(withoutFlatRuns(line)).toEqual([
      [0, 48_000],
      [3, 48_000],
      [4, 48_250],
      [6, 48_250],
      [7, 48_500],
    ]);
  });

  it('leaves a line that never holds its value as it is, and a flat line as its two ends', () => {
    const moving: [number, number][] = [
      [0, 1],
      [1, 2],
      [2, 1],
      [3, 3],
    ];
    expect(withoutFlatRuns(moving)).toEqual(moving);
    const flat = Array.from({ length: 1_000 }, (_, i): [number, number] => [i, 47_500]);
    expect(withoutFlatRuns(flat)).toEqual([
      [0, 47_500],
      [999, 47_500],
    ]);
    expect(withoutFlatRuns([])).toEqual([]);
  });
});
