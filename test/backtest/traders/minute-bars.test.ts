import { describe, expect, it } from 'vitest';
import { MinuteBars } from '../../../src/backtest/traders/minute-bars.js';

describe('MinuteBars', () => {
  it('keeps every bar past the first 1,024 minutes it has room for', () => {
    const bars = new MinuteBars();
    // Minute m prints m ticks: 1,030 bars, so the arrays have doubled once.
    for (let m = 0; m < 1030; m++) bars.onPrint(m * 60_000, m);
    // Mean close of the last 10 bars: (1020 + … + 1029) / 10 = 10,245 / 10 = 1024.5.
    expect(bars.meanClose(10)).toBe(1024.5);
    // The 5 bars before the current one (1029) are 1024 … 1028.
    expect(bars.range(5)).toEqual({ high: 1028, low: 1024 });
    // The first bar is still there: the 1,029 bars before the current one reach back to minute 0.
    expect(bars.range(1029)).toEqual({ high: 1028, low: 0 });
    expect(bars.range(1030)).toBeUndefined();
  });

  it('updates the current bar with prints of the same minute', () => {
    const bars = new MinuteBars();
    bars.onPrint(0, 100);
    bars.onPrint(60_000, 200); // minute 1 opens at 200
    bars.onPrint(90_000, 210); // high 210
    bars.onPrint(100_000, 190); // low 190, close 190
    bars.onPrint(120_000, 300); // minute 2
    // Bars before minute 2: minute 0 (100, 100) and minute 1 (high 210, low 190).
    expect(bars.range(2)).toEqual({ high: 210, low: 100 });
    // Closes 100, 190, 300: mean (100 + 190 + 300) / 3 = 590 / 3.
    expect(bars.meanClose(3)).toBe(590 / 3);
    expect(bars.lastTicks).toBe(300);
  });
});
