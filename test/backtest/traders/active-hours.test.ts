// active_hours of a synthetic trader (src/backtest/traders/active-hours.ts, docs/backtesting.md#synthetic-traders):
// entries only at checks between two Chicago times; off by default.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { ActiveHours } from '../../../src/backtest/traders/active-hours.js';
import { readStrategyParams } from '../../../src/backtest/traders/strategy-params.js';
import { syntheticFills } from '../../../src/calibrate/synthetic-fills.js';
import { traitsOf } from '../../../src/calibrate/trader-traits.js';

describe('active_hours', () => {
  it('reads ["HH:MM", "HH:MM"] as minutes past midnight CT, and refuses anything else naming the param', () => {
    // 08:30 = 8 × 60 + 30 = 510; 11:00 = 660.
    expect(readStrategyParams('random_bracket', { active_hours: ['08:30', '11:00'] }).activeHours).toEqual([510, 660]);
    expect(readStrategyParams('random_bracket', {}).activeHours).toBeUndefined();
    expect(() => readStrategyParams('random_bracket', { active_hours: ['11:00', '11:00'] })).toThrow(
      /^params\.active_hours: expected two different Chicago times \["HH:MM", "HH:MM"\]/,
    );
    for (const bad of [['08:30'], '08:30-11:00'])
      expect(() => readStrategyParams('random_bracket', { active_hours: bad })).toThrow(
        /^params\.active_hours: expected/,
      );
    // A time that is not HH:MM is named by its place in the pair.
    for (const bad of [
      ['8:30', '11:00'],
      ['24:00', '01:00'],
    ])
      expect(() => readStrategyParams('random_bracket', { active_hours: bad })).toThrow(
        /^params\.active_hours\[0\]: expected a Chicago time "HH:MM", like "08:30"/,
      );
  });

  it('holds from inclusive to exclusive in Chicago time, on both dates of a session, across daylight saving', () => {
    const day = new ActiveHours([510, 660]);
    // 2024-01-03 is CST (UTC−6): 08:30 CT = 14:30Z. 2024-03-12 is CDT (UTC−5): 08:30 CT = 13:30Z.
    expect(day.contains(Date.parse('2024-01-03T14:30:00Z'), '2024-01-03')).toBe(true);
    expect(day.contains(Date.parse('2024-01-03T14:29:59Z'), '2024-01-03')).toBe(false);
    expect(day.contains(Date.parse('2024-01-03T17:00:00Z'), '2024-01-03')).toBe(false); // 11:00 CT
    expect(day.contains(Date.parse('2024-03-12T13:30:00Z'), '2024-03-12')).toBe(true);
    expect(day.contains(Date.parse('2024-03-12T14:29:00Z'), '2024-03-12')).toBe(true);
    // A window over midnight: 18:00 to 02:00 CT. Trade date 2024-01-04 opens 2024-01-03 17:00 CT.
    const night = new ActiveHours([1080, 120]);
    expect(night.contains(Date.parse('2024-01-04T00:00:00Z'), '2024-01-04')).toBe(true); // 18:00 CT on the 3rd
    expect(night.contains(Date.parse('2024-01-04T07:59:00Z'), '2024-01-04')).toBe(true); // 01:59 CT
    expect(night.contains(Date.parse('2024-01-04T08:00:00Z'), '2024-01-04')).toBe(false); // 02:00 CT
  });

  it('a trader with active_hours enters only in them; the same trader without them enters all session', async () => {
    const market = [
      {
        path: fileURLToPath(new URL('../../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url)),
        format: 'bars' as const,
        instrument: '6EH4',
      },
    ];
    const params = { trades_per_day: 20, contracts: 1, stop_ticks: 5, target_ticks: 5 };
    const run = (extra: Record<string, unknown>) =>
      syntheticFills([{ count: 3, strategy: 'random_bracket', params: { ...params, ...extra } }], {
        market,
        period: { from: '2024-01-02', to: '2024-01-05' },
        seed: 2,
      });
    const entries = (fills: Awaited<ReturnType<typeof run>>) => traitsOf(fills).flatMap((t) => t.entryMinutes);
    const within = entries(await run({ active_hours: ['08:30', '11:00'] }));
    expect(within.length).toBeGreaterThan(0);
    // The check is before 11:00; its entry fills at the next print, a bar that may start at 11:00 itself.
    expect(within.every((minute) => minute >= 510 && minute <= 660)).toBe(true);
    const all = entries(await run({}));
    expect(all.some((minute) => minute < 510 || minute >= 660)).toBe(true);
  }, 60_000);
});
