// The roots and holding time a kind is written with (src/calibrate/kind-instruments.ts, kinds.ts maxHoldMinutes,
// kinds-file.ts), worked out by hand.
import { describe, expect, it } from 'vitest';
import { firmGroup, kindRoots, rootMix } from '../../src/calibrate/kind-instruments.js';
import { maxHoldMinutes, type TraderKind } from '../../src/calibrate/kinds.js';
import { kindsYaml } from '../../src/calibrate/kinds-file.js';
import type { TraderTraits } from '../../src/calibrate/trader-traits.js';
import { fileURLToPath } from 'node:url';
import { calibrate } from '../../src/calibrate/calibrate.js';
import type { TraderFill } from '../../src/backtest/fills/trader-fills.js';

/** A trader with one round trip a root's worth of trips, measured only for its roots and holds. */
function trader(tripsByRoot: Record<string, number>, holdMinutes: number[] = [10]): TraderTraits {
  const roundTrips = Object.values(tripsByRoot).reduce((a, b) => a + b, 0);
  return {
    trader: 't',
    roundTrips,
    activeDays: 1,
    entriesPerDay: [roundTrips],
    contracts: [1],
    stopTicks: [8],
    targetTicks: [8],
    holdMinutes,
    wins: 1,
    losses: 0,
    entryMinutes: [600],
    tripsByRoot,
  };
}

describe('kind instruments', () => {
  it('instruments: each root floor(100 × its share) of the kind round trips in the group, over their gcd; under 5 % left out', () => {
    const kind = [trader({ ES: 30, NQ: 8 }), trader({ ES: 30, NQ: 20, RTY: 3, CL: 50 })];
    // equity_index 30 + 8 + 30 + 20 + 3 = 91 round trips against energy's 50.
    expect(firmGroup(kind)).toBe('equity_index');
    // ES 60/91 = 65.9 % → 65, NQ 28/91 = 30.8 % → 30, RTY 3/91 = 3.3 % → 3 (under 5: out); gcd(65, 30) = 5: 13 and 6.
    expect(kindRoots(kind, 'equity_index')).toEqual({
      instruments: [
        { root: 'ES', weight: 13 },
        { root: 'NQ', weight: 6 },
      ],
      tooFew: [{ root: 'RTY', percent: 3 }],
      otherGroups: [{ root: 'CL', trips: 50 }],
    });
    // Pooled over every root (141 round trips): ES 60 → 42 %, CL 50 → 35 %, NQ 28 → 19 %, RTY 3 → 2 %.
    expect(rootMix(kind)).toBe('ES 42 % / CL 35 % / NQ 19 % / RTY 2 %');
  });

  it('one root weighs 1, equal shares weigh 1 each; a kind with no round trip in the firm group has no roots', () => {
    expect(kindRoots([trader({ '6E': 12 })], 'fx')!.instruments).toEqual([{ root: '6E', weight: 1 }]);
    // 50 % and 50 %: gcd 50.
    expect(kindRoots([trader({ ES: 10, NQ: 10 })], 'equity_index')!.instruments).toEqual([
      { root: 'ES', weight: 1 },
      { root: 'NQ', weight: 1 },
    ]);
    // energy 50 against equity_index 40: the firm is CL's group, and an ES-only kind has nothing in it.
    expect(firmGroup([trader({ CL: 50 }), trader({ ES: 20, NQ: 20 })])).toBe('energy');
    expect(kindRoots([trader({ ES: 20 })], 'energy')).toBeUndefined();
  });
});

describe('kind holding time', () => {
  it('max_hold_minutes: the 90th percentile of the minutes held plus one; none past a 1,380-minute session', () => {
    // 1..20 minutes: p90 by nearest rank is the 18th value, 18; 18 + 1 = 19.
    expect(maxHoldMinutes(Array.from({ length: 20 }, (_, i) => i + 1))).toBe(19);
    expect(maxHoldMinutes([1379])).toBe(1380);
    expect(maxHoldMinutes([1380])).toBeUndefined();
    expect(maxHoldMinutes([])).toBeUndefined();
  });
});

describe('kinds file', () => {
  it('writes instruments after the strategy: a list of roots of equal weight, else root: weight', () => {
    const block = { count: 3, strategy: 'random_bracket' as const, params: { max_hold_minutes: 19 } };
    const traders = [trader({ ES: 30, NQ: 10, RTY: 1 })];
    const kinds: TraderKind[] = [
      { block: { ...block, instruments: [{ root: '6E', weight: 1 }] }, traders, roots: undefined },
      {
        block: { ...block, instruments: kindRoots(traders, 'equity_index')!.instruments },
        traders,
        roots: kindRoots(traders, 'equity_index'),
      },
    ];
    // ES 30/41 = 73 %, NQ 10/41 = 24 %, RTY 1/41 = 2 % (out); gcd(73, 24) = 1.
    const lines = kindsYaml(kinds, []).split('\n');
    expect(lines[1]).toBe(
      '- { count: 3, strategy: random_bracket, instruments: [6E], params: { max_hold_minutes: 19 } }',
    );
    expect(lines[3]).toBe('# left out of its instruments, under 5 % of its round trips: RTY 2 %');
    expect(lines[4]).toBe(
      '- { count: 3, strategy: random_bracket, instruments: { ES: 73, NQ: 24 }, params: { max_hold_minutes: 19 } }',
    );
  });
});

describe('one product group a file', () => {
  /** `trips` round trips of a trader in a contract, an hour apart from 15:00Z on 2024-01-03, bought and sold at once. */
  const tripsOf = (trader: string, symbol: string, price: string, trips: number): TraderFill[] =>
    Array.from({ length: trips }, (_, i) => {
      const at = Date.parse('2024-01-03T15:00:00Z') + i * 3_600_000;
      return [
        { timeMs: at, trader, symbol, side: 'buy' as const, quantity: 1, price, line: 0 },
        { timeMs: at + 60_000, trader, symbol, side: 'sell' as const, quantity: 1, price, line: 0 },
      ];
    }).flat();
  // Ann: 3 ES round trips and 1 CL; Bob: 2 CL. equity_index 3 against energy 3: a tie, to ES, the first root seen.
  const fills = [
    ...tripsOf('ann', 'ESH4', '4800.00', 3),
    ...tripsOf('ann', 'CLG4', '72.00', 1),
    ...tripsOf('bob', 'CLG4', '72.00', 2),
  ].sort((a, b) => a.timeMs - b.timeMs);

  it('roots of another product group are left out of the kind, a kind with none in the group out of the file, and stderr says so', async () => {
    const one = await calibrate(fills, { seed: 1, kinds: 1, holdout: 0, sources: ['f.csv'] });
    expect(one.kinds.map((k) => k.block.instruments)).toEqual([[{ root: 'ES', weight: 1 }]]);
    expect(one.notes).toEqual([
      "kind 1: left out of its instruments, another product group than the firm's most: CL (3 round trips)",
    ]);
    const two = await calibrate(fills, { seed: 1, kinds: 2, holdout: 0, sources: ['f.csv'] });
    expect(two.kinds.map((k) => k.traders.map((t) => t.trader))).toEqual([['ann']]);
    expect(two.notes).toEqual([
      "kind 1: left out of its instruments, another product group than the firm's most: CL (1 round trip)",
      "a kind of 1 trader left out: none of its round trips is in the product group of the firm's most (CL 100 %), and a back-test runs one group's sessions",
    ]);
  });

  it('the comparison trades a kind on the first market file when the market has no file of its roots, and says so', async () => {
    const esOnly = [...tripsOf('ann', 'ESH4', '4800.00', 2), ...tripsOf('cat', 'ESH4', '4800.00', 2)].sort(
      (a, b) => a.timeMs - b.timeMs,
    );
    const market = {
      market: [
        {
          path: fileURLToPath(new URL('../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url)),
          format: 'bars' as const,
          instrument: '6EH4',
        },
      ],
      period: { from: '2024-01-02', to: '2024-01-03' },
    };
    const result = await calibrate(esOnly, { seed: 1, kinds: 1, holdout: 0.5, market, sources: ['f.csv'] });
    expect(result.kinds[0]!.block.instruments).toEqual([{ root: 'ES', weight: 1 }]); // the file keeps its roots
    expect(result.notes).toEqual(['kind 1: compared on 6EH4: --market has no file of ES']);
    expect(result.comparison).toBeDefined();
  }, 60_000);
});
