// A payout's withdrawal (docs/backtesting.md#the-funnel): the balance falls, the max-loss floor and its trailing peak
// stay where they were, and the day keeps its whole daily-loss allowance. Worked by hand on a kernel account.
import { describe, expect, it } from 'vitest';
import { withdraw } from '../../../src/backtest/funnel/trader-funnel.js';
import { GlobexCalendar } from '../../../src/core/calendar/globex-calendar.js';
import { Kernel } from '../../../src/core/kernel/kernel.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';

const calendar = new GlobexCalendar(loadHolidayFile());
/** Tuesday 2026-03-10, 09:00 CT (CDT), and that evening's 17:00 CT roll. */
const NINE = Date.parse('2026-03-10T14:00:00Z');
const ROLL = Date.parse('2026-03-10T22:00:00Z');
const FUNDED = {
  starting_balance: '50000',
  currency: 'USD',
  risk_profile: {
    max_drawdown_mode: 'eod_balance',
    max_drawdown_value: '1000',
    max_drawdown_limit: '0',
    daily_loss_value: '400',
  },
  passing_criteria: { profit_target: '1000000' },
  commission_per_contract: '0',
};

/** A funded account that made +10 × $50 = +$500 on 03-10 and has rolled: balance 50,500. */
function fundedAfterAWinningDay() {
  const kernel = new Kernel({ startMs: NINE, seed: 1, calendar, journal: false });
  const opened = kernel.dispatch({ type: 'open_account', plan: FUNDED });
  if (!opened.ok) throw new Error(opened.body.error);
  const id = opened.body.account_id;
  const fill = (side: 'buy' | 'sell', price: string, atMs: number) => {
    kernel.advanceTo(atMs);
    kernel.dispatch({
      type: 'record_fill',
      account_id: id,
      instrument_id: 'ESM6',
      side,
      quantity: 1,
      price,
      occurred_at: atMs,
    });
  };
  fill('buy', '5000.00', NINE + 60_000);
  fill('sell', '5010.00', NINE + 120_000);
  kernel.advanceTo(ROLL);
  return { kernel, id };
}

describe('a payout withdrawal leaves the floors unchanged', () => {
  it('the max-loss floor stays; the balance falls by the amount; the daily allowance is whole', () => {
    const { kernel, id } = fundedAfterAWinningDay();
    // At the roll: eod peak 50,500; trigger min(50,500 − 1,000, 50,000) = 49,500; daily 50,500 − 400 = 50,100.
    expect(kernel.read.riskNumbers(id)).toMatchObject({
      maxLossTriggerCents: 4_950_000,
      dailyLossTriggerCents: 5_010_000,
    });
    withdraw(kernel, id, 25_000);
    // Balance 50,250; max-loss trigger still 49,500; daily 50,250 − 400 = 49,850; still active.
    expect(kernel.read.accountHistory(id)).toMatchObject({ balanceCents: 5_025_000, status: 'active' });
    expect(kernel.read.riskNumbers(id)).toMatchObject({
      equityCents: 5_025_000,
      maxLossTriggerCents: 4_950_000,
      dailyLossTriggerCents: 4_985_000,
      failed: false,
    });
  });

  it('the trailing peak does not follow the withdrawal down: the next roll keeps the floor at 49,500', () => {
    const { kernel, id } = fundedAfterAWinningDay();
    withdraw(kernel, id, 25_000);
    // 03-11 roll: equity 50,250 < peak 50,500, so the peak and the trigger 49,500 stay; daily 50,250 − 400.
    kernel.advanceTo(ROLL + 86_400_000);
    expect(kernel.read.riskNumbers(id)).toMatchObject({
      maxLossTriggerCents: 4_950_000,
      dailyLossTriggerCents: 4_985_000,
    });
  });

  it('a withdrawal does not count as a trading loss: no daily-loss lock even above the allowance', () => {
    const { kernel, id } = fundedAfterAWinningDay();
    // 450 > the 400 allowance: 50,050 stays above the lowered daily trigger 50,050 − 400 = 49,650.
    withdraw(kernel, id, 45_000);
    expect(kernel.read.accountHistory(id).lockChanges).toEqual([]);
  });
});
