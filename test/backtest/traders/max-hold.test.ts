// max_hold_minutes (docs/backtesting.md#synthetic-traders): a position held that long is closed at market, its
// bracket cancelled, as the close-out before the session's close does. Worked by hand on one ES account ($50 a point,
// 0.25 a tick, no commission), with a trader whose signal is always to buy, once with the knob and once without.
import { describe, expect, it } from 'vitest';
import { parsePlanTemplate } from '../../../src/core/accounts/plans.js';
import { GlobexCalendar } from '../../../src/core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';
import { AFTER_NEXT_PRINT } from '../../../src/backtest/traders/strategy.js';
import { esAccountWithBuyer } from './es-trader-view.js';

const calendar = new GlobexCalendar(loadHolidayFile());
/** Tuesday 2026-03-10 at a Chicago time (CDT, UTC−5). */
const ct = (hhmmss: string) => Date.parse(`2026-03-10T${String(Number(hhmmss.slice(0, 2)) + 5)}${hhmmss.slice(2)}Z`);
const PLAN = parsePlanTemplate(
  {
    starting_balance: '50000',
    risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '2000' },
    passing_criteria: { profit_target: '3000' },
  },
  'plan',
);

/**
 * A 1-lot bought at 09:31:00 CT at 5000.25, its bracket 40 ticks (10.00) away, so prints between 4990.50 and 5010.00
 * reach neither exit; the trader is woken as the cell runner wakes it, at the times it asks for.
 */
function boughtAt0931(params: Record<string, unknown>) {
  const { kernel, accountId, trader, bars, view } = esAccountWithBuyer(
    ct('09:30:00'),
    PLAN,
    { contracts: 1, stop_ticks: 40, target_ticks: 40, trades_per_day: 1, ...params },
    calendar,
  );
  // As the cell runner does: wake-ups due at or before a print first, then the print, then a trader waiting for it.
  let next = trader.wake(view);
  const wakeUntil = (untilMs: number) => {
    while (typeof next === 'number' && next <= untilMs) {
      kernel.advanceTo(next);
      next = trader.wake(view);
    }
  };
  const print = (atMs: number, price: number) => {
    wakeUntil(atMs);
    kernel.advanceTo(atMs);
    kernel.print('ESM6', price * 4, Infinity, atMs);
    bars.onPrint(atMs, price * 4);
    if (next === AFTER_NEXT_PRINT) next = trader.wake(view);
  };
  print(ct('09:30:00'), 5000);
  kernel.advanceTo(ct('09:30:30'));
  next = trader.wake(view);
  expect(next).toBe(AFTER_NEXT_PRINT);
  print(ct('09:31:00'), 5000.25); // the entry fills; the trader is woken right after this print
  const fills = () => {
    const read = kernel.read.fills({}, { account_id: accountId }, { limit: 10 });
    if (!read.ok) throw new Error(read.body.error);
    return read.body.items.map((f) => [f.side, f.price, f.occurred_at]);
  };
  return { kernel, accountId, print, wakeUntil, fills };
}

describe('max_hold_minutes', () => {
  it('max_hold_minutes: a position held that long is closed at market at the first print at or after entry + N', () => {
    const s = boughtAt0931({ max_hold_minutes: 15 });
    // 09:31:00 + 15 minutes = 09:46:00. A print at 09:40 inside the bracket: still held.
    s.print(ct('09:40:00'), 5001);
    s.wakeUntil(ct('09:45:59'));
    expect(s.kernel.read.netQuantity(s.accountId, 'ESM6')).toBe(1);
    // The wake at 09:46:00 (before that instant's print, as in the cell runner) cancels the bracket and sells at
    // market; it fills at the first print at or after it, 09:46:00 at 5001.50.
    s.wakeUntil(ct('09:46:00'));
    expect(s.kernel.read.workingOrderIds(s.accountId, 'client')).toHaveLength(1); // the market sell alone
    s.print(ct('09:46:00'), 5001.5);
    expect(s.kernel.read.netQuantity(s.accountId, 'ESM6')).toBe(0);
    expect(s.kernel.read.workingOrderIds(s.accountId)).toEqual([]);
    expect(s.fills()).toEqual([
      ['buy', '5000.25', ct('09:31:00')],
      ['sell', '5001.50', ct('09:46:00')],
    ]);
    // (5001.50 − 5000.25) = 5 ticks × $12.50 × 1 contract = +$62.50.
    expect(s.kernel.read.accountState(s.accountId)).toMatchObject({ balance: '50062.50' });
  });

  it('without max_hold_minutes the same position is still held, its bracket working, after 09:46', () => {
    const s = boughtAt0931({});
    s.print(ct('09:40:00'), 5001);
    s.wakeUntil(ct('09:46:00'));
    s.print(ct('09:46:00'), 5001.5);
    s.wakeUntil(ct('10:30:00'));
    expect(s.kernel.read.netQuantity(s.accountId, 'ESM6')).toBe(1);
    expect(s.kernel.read.workingOrderIds(s.accountId)).toHaveLength(2); // the target and the stop
  });

  it('a position its bracket closed first is not closed again', () => {
    const s = boughtAt0931({ max_hold_minutes: 15 });
    // 5010.25 is 40 ticks above 5000.25: the target fills at 09:35, flat before 09:46.
    s.print(ct('09:35:00'), 5010.25);
    s.wakeUntil(ct('09:50:00'));
    expect(s.kernel.read.workingOrderIds(s.accountId)).toEqual([]); // trades_per_day 1: no new entry either
    expect(s.fills().map(([side]) => side)).toEqual(['buy', 'sell']);
  });
});
