// A replay's prints per instrument within a budget (src/scenario/price-paths.ts): each stretch of time keeps its
// lowest, highest and last print in the order applied, and the stretches double when more than 6,600 are kept.
import { describe, expect, it } from 'vitest';
import { PricePaths } from '../../src/scenario/price-paths.js';

describe('PricePaths', () => {
  it('keeps the lowest, highest and last print of each second, in the order applied, numbered across instruments', () => {
    const prices = new PricePaths();
    // Second 0 of ES: 10, 7 (low), 12 (high), 9, 11 (last); then NQ once; then ES in second 1.
    for (const [ms, ticks] of [
      [0, 10],
      [100, 7],
      [200, 12],
      [300, 9],
      [400, 11],
    ])
      prices.add('ESM6', ticks!, ms!);
    prices.add('NQM6', 80_000, 500);
    prices.add('ESM6', 8, 1_200);
    expect(prices.count).toBe(7);
    expect(prices.of('ESM6')).toMatchObject({
      seqs: [2, 3, 5, 7],
      times: [100, 200, 400, 1_200],
      ticks: [7, 12, 11, 8],
    });
    expect(prices.of('NQM6')).toMatchObject({ seqs: [6], ticks: [80_000] });
    expect(prices.of('CLM6')).toBeUndefined();
  });

  it("stays within its budget over a long run, and keeps the run's lowest and highest print", () => {
    const prices = new PricePaths();
    // A print every 10 ms for 30 simulated minutes (180,000 prints), one deep low and one high spike among them.
    for (let i = 0; i < 180_000; i++) {
      const ticks = i === 123_457 ? 1 : i === 45_678 ? 999 : 500 + (i % 7);
      prices.add('ESM6', ticks, i * 10);
    }
    const kept = prices.of('ESM6')!;
    expect(kept.seqs.length).toBeLessThanOrEqual(6_600);
    expect(kept.seqs.length, 'at least a print for each of 550 columns').toBeGreaterThan(550 * 3);
    expect(Math.min(...kept.ticks)).toBe(1);
    expect(Math.max(...kept.ticks)).toBe(999);
    expect(kept.seqs.at(-1), 'the last print is kept').toBe(180_000);
    expect([...kept.seqs].sort((x, y) => x - y)).toEqual(kept.seqs);
  });
});
