// Who trades in the search and who in the confirmation (docs/optimizing.md#confirmation).
import { describe, expect, it } from 'vitest';
import { confirmationSeed, splitFillsTraders } from '../../../src/backtest/optimize/search-population.js';

describe('the confirmation population', () => {
  it('draws its synthetic traders from seed + 1,000,000', () => {
    expect(confirmationSeed(8)).toBe(1_000_008);
  });

  it('holds out the fills traders the search never sees: a seeded split, half (rounded down) to the search', () => {
    const traders = ['ann', 'bob', 'cy', 'dee', 'eve'];
    const split = splitFillsTraders(traders, 8);
    expect(split.search).toHaveLength(2); // ⌊5 / 2⌋
    expect(split.heldOut).toHaveLength(3);
    expect([...split.search, ...split.heldOut].sort()).toEqual(traders);
    // Each part keeps roster order, and the same seed splits the same way.
    expect(split.search).toEqual(traders.filter((t) => split.search.includes(t)));
    expect(splitFillsTraders(traders, 8)).toEqual(split);
    // Another seed splits otherwise (some seed among the next few does).
    const others = [9, 10, 11, 12].map((seed) => splitFillsTraders(traders, seed).search.join());
    expect(others.some((s) => s !== split.search.join())).toBe(true);
  });

  it('holds out a lone fills trader: the confirmation is the claim that matters', () => {
    expect(splitFillsTraders(['ann'], 1)).toEqual({ search: [], heldOut: ['ann'] });
  });
});
