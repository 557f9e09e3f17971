// Positions the account opened that the trader's own fills never had (docs/backtesting.md#fills-the-engine-dropped):
// the count's rule on hand-made sequences, then a back-test worked out by hand
// (fixtures/positions-never-had.yaml on fixtures/esm6-ticks.csv).
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { PositionsNeverHad } from '../../../src/backtest/fills/positions-never-had.js';
import { runBacktest, type BacktestRun } from '../../../src/backtest/run-backtest.js';
import { cellsCsv, summaryDocument, tradersCsv } from '../../../src/reports/backtest-outputs.js';

const CONFIG = fileURLToPath(new URL('../fixtures/positions-never-had.yaml', import.meta.url));

/** Replays [signed quantity, account before, account after] fills of one instrument; returns the count. */
function counted(fills: Array<[number, number, number]>): number {
  const positions = new PositionsNeverHad();
  for (const [quantity, before, after] of fills) positions.afterFill('ESM6', quantity, before, after);
  return positions.count;
}

describe('positions never had: the rule', () => {
  it('counts an exit booked on a flat account (its entry dropped): the account opens short, the trader is flat', () => {
    // buy 1 dropped (own +1, account 0 → 0), sell 1 booked (own 0, account 0 → −1): one opening, own flat.
    expect(
      counted([
        [1, 0, 0],
        [-1, 0, -1],
      ]),
    ).toBe(1);
  });

  it('counts a reversal the trader did not make: long 1 flattened by the engine, then her sell 2 books', () => {
    // buy 2 booked (own +2, account +2); the engine flattens (account 0); sell 1 books (own +1, account 0 → −1):
    // short while she is long, one opening; sell 1 more (own 0, account −1 → −2): not an opening.
    expect(
      counted([
        [2, 0, 2],
        [-1, 0, -1],
        [-1, -1, -2],
      ]),
    ).toBe(1);
  });

  it('does not count the trader’s own trades, nor a smaller position on her own side', () => {
    // buy 1, sell 1 both booked: the account follows her. Then buy 1 dropped, buy 1 booked: account +1, own +2,
    // the same side: her position, only smaller.
    expect(
      counted([
        [1, 0, 1],
        [-1, 1, 0],
        [1, 0, 0],
        [1, 0, 1],
      ]),
    ).toBe(0);
  });
});

/*
 * Plan mini-50k: $50,000, eod_balance, drawdown $1,500 (floor min(peak − 1,500, 50,000)), $2.50 a side; grid
 * daily_loss_value none (cell 0) or 300 (cell 1). ESM6 prints from fixtures/esm6-ticks.csv.
 *
 * ann 04-07  buy 1 @ 5000.00, sell 1 @ 5014.00: +14 × 50 − 5 = +695 → 50,695.00 (floor 49,195).
 *     04-08  buy 1 @ 5020.00 (08:31). Cell 1: daily trigger 50,695 − 300 = 50,395; the 09:30 print 5012.00 gives
 *            equity 50,692.50 − 400 = 50,292.50 ≤ 50,395: locked, flattened at the 10:00 print: account flat, her
 *            own position long 1. Her sell 1 @ 5005.00 (10:31) is dropped (own flat) and her buy 1 @ 5005.00 (10:32)
 *            too (own long 1): 2 dropped, locked.
 *     04-09  the roll lifts the lock; her sell 1 @ 5030.00 (08:31) books on a flat account: short 1 while her own
 *            position is flat: 1 position never had.
 *            Cell 0: nothing locks (the lowest equity, 50,692.50 − 750 = 49,942.50 at 5005.00, is above 49,195),
 *            every fill books and the account follows her own position: 0 dropped, 0 positions never had.
 */
describe('positions never had in a back-test (1 historical trader, 3 ES trade dates, daily loss none or 300)', () => {
  let run: BacktestRun;
  beforeAll(async () => {
    run = await runBacktest(loadBacktestConfig(CONFIG), { workers: 1 });
  });

  it('traders.csv: beside fills_dropped_*, 0 in cell 0 and 1 in cell 1', () => {
    const rows = tradersCsv(run).trim().split('\n');
    // Followed by first_outcome and first_outcome_day, then fills_off_market and fills_no_market: her 04-07 sell at
    // 5014.00 (09:01) lies 16 ticks above 09:00's 5010.00 (test/backtest/fills/off-market-fills.test.ts), in both cells.
    expect(rows[0]!.split(',').slice(-8)).toEqual([
      'fills_dropped_locked',
      'fills_dropped_failed',
      'fills_dropped_passed',
      'positions_never_had',
      'first_outcome',
      'first_outcome_day',
      'fills_off_market',
      'fills_no_market',
    ]);
    expect(rows.slice(1).map((row) => [...row.split(',').slice(-8, -4), ...row.split(',').slice(-2)])).toEqual([
      ['0', '0', '0', '0', '1', '0'],
      ['2', '0', '0', '1', '1', '0'],
    ]);
  });

  it('cells.csv and summary.json: the sums of the cell’s traders', () => {
    const rows = cellsCsv(run).trim().split('\n');
    // `failed` (every failure, by any rule) came after them, at the end: columns are only ever added there.
    expect(rows[0]!.split(',').slice(-4)).toEqual([
      'positions_never_had',
      'fills_off_market',
      'fills_no_market',
      'failed',
    ]);
    expect(rows.slice(1).map((row) => row.split(',').at(-4))).toEqual(['0', '1']);
    const cells = summaryDocument(run).cells as Array<Record<string, unknown>>;
    expect(cells.map((c) => [c.fills_dropped, c.positions_never_had])).toEqual([
      [{ locked: 0, failed: 0, passed: 0 }, 0],
      [{ locked: 2, failed: 0, passed: 0 }, 1],
    ]);
  });
});
