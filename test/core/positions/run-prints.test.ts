// The prints of a finished run as columns (src/core/positions/run-prints.ts): what goes in comes out, per symbol, in
// time then journal order.
import { describe, expect, it } from 'vitest';
import { RunPrints } from '../../../src/core/positions/run-prints.js';

describe('RunPrints', () => {
  it('gives back every print pushed, past several doublings of its columns', () => {
    const prints = new RunPrints();
    for (let i = 0; i < 5_000; i++) prints.push(i + 1, i % 3 === 0 ? 'ESM6' : 'NQM6', 20_000 + i, 1_000 * i);
    expect(prints.length).toBe(5_000);
    expect(prints.at(0)).toEqual({ seq: 1, symbol: 'ESM6', priceTicks: 20_000, timeMs: 0 });
    expect(prints.at(4_999)).toEqual({ seq: 5_000, symbol: 'NQM6', priceTicks: 24_999, timeMs: 4_999_000 });
    expect(prints.seqAt(2_048)).toBe(2_049);
  });

  it("positionsOf: the prints of the symbols asked for, in the journal's order when it is time order", () => {
    const prints = new RunPrints();
    prints.push(1, 'ESM6', 100, 10);
    prints.push(2, '6EM6', 200, 10);
    prints.push(3, 'ESM6', 101, 20);
    prints.push(4, 'CLM6', 300, 30);
    expect([...prints.positionsOf(new Set(['ESM6', 'CLM6']))]).toEqual([0, 2, 3]);
    expect([...prints.positionsOf(new Set(['GCM6']))]).toEqual([]);
  });

  it('positionsOf: prints pushed out of order come back by time, then by journal line', () => {
    const prints = new RunPrints();
    prints.push(5, 'ESM6', 100, 30);
    prints.push(2, 'ESM6', 101, 10);
    prints.push(4, 'ESM6', 102, 20);
    prints.push(3, 'ESM6', 103, 20);
    expect([...prints.positionsOf(new Set(['ESM6']))].map((i) => prints.at(i).priceTicks)).toEqual([
      101, 103, 102, 100,
    ]);
  });
});
