// An account's equity between its samples, drawn from the prints that moved it (src/reports/market-moves.ts;
// docs/scenarios.md#outputs-of-propsim-replay): hand-computed on ES (0.25 a tick, $12.50 a tick).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { withMarketMoves } from '../../src/reports/market-moves.js';
import type { TimelinePoint } from '../../src/scenario/account-timeline.js';
import { loadScenarioFile } from '../../src/scenario/load-scenario.js';
import { PricePaths } from '../../src/scenario/price-paths.js';
import { runScenario } from '../../src/scenario/runner.js';
import type { FillJson } from '../../src/core/shapes/fill.js';

/** Tuesday 2026-03-10 09:00 CDT. */
const T0 = Date.parse('2026-03-10T14:00:00Z');

function buy(quantity: number, price: string, atMs: number): FillJson {
  return {
    execution_id: 'e',
    account_id: 'a',
    instrument_id: 'ESM6',
    side: 'buy',
    quantity,
    price,
    commission: '0.00',
    realized_pnl: '0.00',
    trade_id: 't',
    occurred_at: atMs,
    trade_date: '2026-03-10',
  };
}

describe('equity between samples (withMarketMoves)', () => {
  it('moves by quantity x ticks x tick value from the price the sample was marked at', () => {
    const prices = new PricePaths();
    prices.add('ESM6', 20_000, T0); // 5000.00, print 1, before the first sample
    const first = prices.pin(); // the sample at T0 + 1 s: long 2, marked at print 1
    prices.add('ESM6', 19_960, T0 + 10_000); // 4990.00
    prices.add('ESM6', 20_040, T0 + 20_000); // 5010.00
    const samples: TimelinePoint[] = [
      [T0 + 1_000, 10_000_000, 9_800_000, null, first, 1],
      [T0 + 60_000, 10_100_000, 9_800_000, null, prices.pin(), 1],
    ];
    expect([first, samples[1]![4]]).toEqual([1, 3]);
    const points = withMarketMoves(samples, [buy(2, '5000.00', T0 + 1_000)], prices);
    // 4990.00: -40 ticks x 2 x $12.50 = -$1,000; 5010.00: +40 ticks x 2 x $12.50 = +$1,000.
    expect(points).toEqual([
      samples[0],
      [T0 + 10_000, 9_900_000, 9_800_000, null],
      [T0 + 20_000, 10_100_000, 9_800_000, null],
      samples[1],
    ]);
  });

  it('a sample taken at a fill comes before its own print, which is the first move after it', () => {
    const prices = new PricePaths();
    prices.add('ESM6', 20_000, T0); // print 1: 5000.00
    // At T0 + 5 s a print of 5001.00 fills a buy of 1: the sample at the fill has seen print 1 only, so the position
    // is marked at 5000.00; the print then marks it at 5001.00: +4 ticks x $12.50 = +$50.
    const atFill = prices.pin();
    prices.add('ESM6', 20_004, T0 + 5_000); // print 2
    const samples: TimelinePoint[] = [
      [T0 + 5_000, 5_000_000, 4_800_000, null, atFill, 1],
      [T0 + 9_000, 5_005_000, 4_800_000, null, prices.pin(), 1],
    ];
    const points = withMarketMoves(samples, [buy(1, '5001.00', T0 + 5_000)], prices);
    expect(points[1]).toEqual([T0 + 5_000, 5_005_000, 4_800_000, null]);
  });

  it('an instrument that has not printed is marked at its fill price; nothing moves a flat account', () => {
    const prices = new PricePaths();
    const atFill = prices.pin();
    prices.add('ESM6', 19_996, T0 + 10_000); // 4999.00, the first print
    const long: TimelinePoint[] = [
      [T0, 5_000_000, 4_800_000, 4_900_000, atFill, 1],
      [T0 + 60_000, 4_995_000, 4_800_000, 4_900_000, prices.pin(), 1],
    ];
    // Bought 1 at 5000.00 with no print yet: marked at 5000.00, then 4999.00 is -4 ticks x $12.50 = -$50.
    expect(withMarketMoves(long, [buy(1, '5000.00', T0)], prices)[1]).toEqual([
      T0 + 10_000,
      4_995_000,
      4_800_000,
      4_900_000,
    ]);
    const flat = long.map((p) => [p[0], p[1], p[2], p[3], p[4], 0] as TimelinePoint);
    expect(withMarketMoves(flat, [], prices), 'a flat account has its samples only').toEqual(flat);
  });
});

describe('a fill dated in the past', () => {
  it('moves equity only from the sample that applied it, not from its date', () => {
    const prices = new PricePaths();
    const before = prices.pin();
    prices.add('ESM6', 20_040, T0 + 10_000); // 5010.00, while the account was flat
    const applied = prices.pin();
    prices.add('ESM6', 20_080, T0 + 70_000); // 5020.00
    // At T0 + 60 s a fill dated T0 is applied: bought 1 at 5000.00, marked at 5010.00 (+$500 in its sample's equity).
    const samples: TimelinePoint[] = [
      [T0, 5_000_000, 4_800_000, null, before, 0],
      [T0 + 60_000, 5_050_000, 4_800_000, null, applied, 1],
      [T0 + 90_000, 5_100_000, 4_800_000, null, prices.pin(), 1],
    ];
    // Nothing moves while flat; then 5020.00 is +40 ticks x $12.50 = +$500 from the 5010.00 mark.
    expect(withMarketMoves(samples, [buy(1, '5000.00', T0)], prices)).toEqual([
      samples[0],
      samples[1],
      [T0 + 70_000, 5_100_000, 4_800_000, null],
      samples[2],
    ]);
  });
});

describe('the price a sample was marked at', () => {
  it('is exact even when the stretches kept other prints of its second', () => {
    const prices = new PricePaths();
    // Four prints in one second: the stretch keeps 4990.00 (low), 5010.00 (high) and 5001.00 (last), not 5000.00,
    // the price as of the sample taken after the second print.
    prices.add('ESM6', 19_960, T0);
    prices.add('ESM6', 20_000, T0 + 100);
    const sampled = prices.pin();
    prices.add('ESM6', 20_040, T0 + 200);
    prices.add('ESM6', 20_004, T0 + 300);
    expect(prices.of('ESM6')!.ticks).toEqual([19_960, 20_040, 20_004]);
    expect(prices.printAsOf('ESM6', sampled)?.ticks, 'the print before the sample').toBe(20_000);
    const samples: TimelinePoint[] = [
      [T0 + 100, 5_000_000, 4_800_000, null, sampled, 1],
      [T0 + 1_000, 5_000_200, 4_800_000, null, prices.pin(), 1],
    ];
    // Long 1 marked at 5000.00: 5010.00 is +40 ticks x $12.50 = +$500, 5001.00 +4 ticks = +$50.
    expect(withMarketMoves(samples, [buy(1, '5000.00', T0)], prices).slice(1, 3)).toEqual([
      [T0 + 200, 5_050_000, 4_800_000, null],
      [T0 + 300, 5_005_000, 4_800_000, null],
    ]);
  });
});

describe('the last print before a sample', () => {
  it('is drawn even when its stretch kept others (the print a breach or a fill came after)', () => {
    const prices = new PricePaths();
    prices.add('ESM6', 20_000, T0); // 5000.00
    const a = prices.pin();
    prices.add('ESM6', 20_040, T0 + 100); // 5010.00, the second's high
    prices.add('ESM6', 19_992, T0 + 200); // 4998.00, the print the next sample came after
    const b = prices.pin();
    prices.add('ESM6', 20_008, T0 + 300); // 5002.00
    prices.add('ESM6', 19_980, T0 + 400); // 4995.00, the second's low and last
    expect(
      prices.of('ESM6')!.ticks,
      'the stretch keeps its high and its low (also its last), not 4998.00',
    ).not.toContain(19_992);
    const samples: TimelinePoint[] = [
      [T0, 5_000_000, 4_800_000, null, a, 1],
      [T0 + 200, 4_997_500, 4_800_000, null, b, 1],
    ];
    // Long 1 from 5000.00: 5010.00 is +$500; 4998.00 is -8 ticks x $12.50 = -$100.
    expect(withMarketMoves(samples, [buy(1, '5000.00', T0)], prices).slice(1, 3)).toEqual([
      [T0 + 100, 5_050_000, 4_800_000, null],
      [T0 + 200, 4_990_000, 4_800_000, null],
    ]);
  });
});

describe('a replay draws equity through the market prints between its steps', () => {
  it('the line follows each print, and the next sample agrees with it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'propsim-moves-'));
    const rows = [
      [10, '4990.00'],
      [20, '5010.00'],
      [30, '5002.50'],
    ].map(([s, price]) => `${T0 + Number(s) * 1000},ESM6,${price},1`);
    writeFileSync(join(folder, 'es.csv'), ['ts,instrument,price,size', ...rows].join('\n') + '\n');
    const run = await replayIn(folder, 'moves', [
      '  - fill: { account: a, instrument: ESM6, side: buy, quantity: 2, price: "5000.00" }',
      '  - at: 2026-03-10T09:01:00-05:00',
    ]);
    const accountId = run.final.accounts[0]!.account_id;
    const points = withMarketMoves(run.timelines.get(accountId)!.points, run.final.fills, run.prices);
    // Long 2 from 5000.00 ($25 a tick for 2): 4990.00 -$1,000, 5010.00 +$1,000, 5002.50 +$250.
    expect(points.map((p) => [p[0] - T0, p[1] / 100])).toEqual([
      [0, 100_000],
      [10_000, 99_000],
      [20_000, 101_000],
      [30_000, 100_250],
      [60_000, 100_250],
    ]);
  });

  it('matches, print by print, the equity a step after every print samples', async () => {
    // 300 prints a second apart (each its own stretch, all kept), a walk of ±1 tick; the same fills in both runs.
    const folder = mkdtempSync(join(tmpdir(), 'propsim-moves-'));
    let ticks = 20_000;
    const times: number[] = [];
    const rows: string[] = [];
    for (let i = 1; i <= 300; i++) {
      ticks += ((i * 7919) % 3) - 1;
      times.push(T0 + i * 1000);
      rows.push(`${T0 + i * 1000},ESM6,${(ticks / 4).toFixed(2)},1`);
    }
    writeFileSync(join(folder, 'es.csv'), ['ts,instrument,price,size', ...rows].join('\n') + '\n');
    const sell = '  - fill: { account: a, instrument: ESM6, side: sell, quantity: 3, price: "5000.00" }';
    const scenario = (name: string, steps: string[]) => replayIn(folder, name, [sell, ...steps]);
    const atEachPrint = await scenario(
      'each',
      times.map((ms) => `  - at: ${new Date(ms).toISOString()}`),
    );
    const atTheEnd = await scenario('end', [`  - at: ${new Date(T0 + 301_000).toISOString()}`]);
    const sampled = new Map(
      atEachPrint.timelines
        .values()
        .next()
        .value!.points.map((p) => [p[0], p[1]]),
    );
    const drawn = withMarketMoves(
      atTheEnd.timelines.values().next().value!.points,
      atTheEnd.final.fills,
      atTheEnd.prices,
    );
    const drawnAtPrints = drawn.filter((p) => p[4] === undefined);
    expect(drawnAtPrints).toHaveLength(300);
    for (const [ms, equityCents] of drawnAtPrints)
      expect(equityCents, `equity at +${ms - T0} ms`).toBe(sampled.get(ms));
  });
});

/** Replays `name` in `folder` (beside its es.csv): one account `a` of a static $5,000-drawdown plan, then `steps`. */
function replayIn(folder: string, name: string, steps: string[]) {
  writeFileSync(
    join(folder, `${name}.yaml`),
    [
      `name: ${name}`,
      'start: 2026-03-10T09:00:00-05:00',
      'market: { files: [ { path: es.csv, format: ticks } ] }',
      'plans:',
      '  p: { starting_balance: "100000", risk_profile: { max_drawdown_mode: static, max_drawdown_value: "5000" }, passing_criteria: { profit_target: "6000" } }',
      'accounts: [ { alias: a, plan: p } ]',
      'steps:',
      ...steps,
    ].join('\n'),
  );
  return runScenario(loadScenarioFile(join(folder, `${name}.yaml`)), {
    calendar: new GlobexCalendar(loadHolidayFile()),
  });
}
