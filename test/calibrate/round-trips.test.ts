// Round trips and traits (src/calibrate/round-trips.ts, trader-traits.ts), worked out by hand on ES (tick 0.25).
import { describe, expect, it } from 'vitest';
import type { TraderFill } from '../../src/backtest/fills/trader-fills.js';
import { roundTripsOf } from '../../src/calibrate/round-trips.js';
import { isClosingTimeExit, traitsOf, tradeDateOf } from '../../src/calibrate/trader-traits.js';

let line = 1;
function fill(ts: string, side: 'buy' | 'sell', quantity: number, price: string, trader = 'ann'): TraderFill {
  return { timeMs: Date.parse(ts), trader, symbol: 'ESH4', side, quantity, price, line: line++ };
}

describe('round trips', () => {
  it('a round trip runs from flat to flat: an entry filled in parts is one trip, its P&L FIFO in ticks', () => {
    const trips = roundTripsOf([
      fill('2024-01-03T15:00:00Z', 'buy', 1, '4800.00'),
      fill('2024-01-03T15:00:01Z', 'buy', 2, '4800.50'), // last entry fill: 2 ticks above the first
      fill('2024-01-03T15:10:00Z', 'sell', 3, '4797.50'), // 12 ticks below the last entry: a stop
    ]);
    // P&L: 1 × (4797.50 − 4800.00) / 0.25 = −10 ticks, 2 × (4797.50 − 4800.50) / 0.25 = −24 ticks: −34.
    expect(trips).toEqual([
      {
        symbol: 'ESH4',
        side: 'buy',
        quantity: 3,
        entryMs: Date.parse('2024-01-03T15:00:00Z'),
        exitMs: Date.parse('2024-01-03T15:10:00Z'),
        pnlTicks: -34,
        exitDistanceTicks: 12,
      },
    ]);
  });

  it('a fill that reverses the position closes one trip and opens the next with what is left', () => {
    const trips = roundTripsOf([
      fill('2024-01-03T15:00:00Z', 'sell', 2, '4800.00'),
      fill('2024-01-03T15:05:00Z', 'buy', 3, '4798.00'), // closes 2 short (+8 ticks each), opens 1 long
      fill('2024-01-03T15:20:00Z', 'sell', 1, '4801.00'), // +12 ticks on the long
    ]);
    expect(trips.map((t) => [t.side, t.quantity, t.pnlTicks, t.exitDistanceTicks])).toEqual([
      ['sell', 2, 16, 8],
      ['buy', 1, 12, 12],
    ]);
  });

  it('an exit in parts keeps the distance of its first part; a position still open is no round trip', () => {
    const trips = roundTripsOf([
      fill('2024-01-03T15:00:00Z', 'buy', 2, '4800.00'),
      fill('2024-01-03T15:01:00Z', 'sell', 1, '4802.00'), // 8 ticks: the target
      fill('2024-01-03T15:02:00Z', 'sell', 1, '4803.00'),
      fill('2024-01-03T16:00:00Z', 'buy', 1, '4810.00'), // never closed
    ]);
    // P&L 8 + 12 = 20 ticks.
    expect(trips.map((t) => [t.quantity, t.pnlTicks, t.exitDistanceTicks])).toEqual([[2, 20, 8]]);
  });
});

describe('trader traits', () => {
  it('counts trade dates from 17:00 CT, splits exits into stops and targets, leaves closing-time exits out', () => {
    // 2024-01-03 17:30 CT (23:30Z) belongs to trade date 2024-01-04.
    expect(tradeDateOf(Date.parse('2024-01-03T23:30:00Z'))).toBe('2024-01-04');
    expect(tradeDateOf(Date.parse('2024-01-03T22:59:00Z'))).toBe('2024-01-03');
    // 15:50 CT is closing time; 15:44 is not (CST = UTC−6).
    expect(isClosingTimeExit(Date.parse('2024-01-03T21:50:00Z'))).toBe(true);
    expect(isClosingTimeExit(Date.parse('2024-01-03T21:44:00Z'))).toBe(false);
    const [ann] = traitsOf([
      fill('2024-01-03T15:00:00Z', 'buy', 1, '4800.00'), // 09:00 CT
      fill('2024-01-03T15:30:00Z', 'sell', 1, '4798.00'), // −8 ticks: a stop of 8
      fill('2024-01-03T16:00:00Z', 'sell', 2, '4800.00'), // 10:00 CT
      fill('2024-01-03T16:45:00Z', 'buy', 2, '4797.00'), // +12 ticks each: a target of 12
      fill('2024-01-04T15:00:00Z', 'buy', 1, '4800.00'), // next trade date
      fill('2024-01-04T21:50:00Z', 'sell', 1, '4799.00'), // a loss at 15:50 CT: closing time, no stop
    ]);
    expect(ann).toEqual({
      trader: 'ann',
      roundTrips: 3,
      activeDays: 2,
      entriesPerDay: [2, 1],
      contracts: [1, 2, 1],
      stopTicks: [8],
      targetTicks: [12],
      holdMinutes: [30, 45, 410],
      wins: 1,
      losses: 2,
      entryMinutes: [540, 600, 540],
      tripsByRoot: { ES: 3 },
    });
  });
});
