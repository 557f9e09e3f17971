// The synthetic traders' bracket (docs/backtesting.md#synthetic-traders): a market entry, then, once it has filled, a
// limit target and a stop measured from the print that filled it, linked as OCO. Worked by hand on a 5-contract plan
// with a 3-lot entry: sent with the entry, while the account was flat, the stop counted |0 − 3 (target) − 3| = 6
// contracts against the limit of 5 and was refused, and the trade ran without it.
import { describe, expect, it } from 'vitest';
import { parsePlanTemplate } from '../../../src/core/accounts/plans.js';
import { GlobexCalendar } from '../../../src/core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';
import { AFTER_NEXT_PRINT } from '../../../src/backtest/traders/strategy.js';
import { esAccountWithBuyer } from './es-trader-view.js';

const calendar = new GlobexCalendar(loadHolidayFile());
/** Tuesday 2026-03-10, 09:00 CT. */
const NINE = Date.parse('2026-03-10T14:00:00Z');
const PLAN = parsePlanTemplate(
  {
    starting_balance: '50000',
    risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '2000' },
    passing_criteria: { profit_target: '3000' },
    position_limits: { max_contracts: 5 },
  },
  'plan',
);

function setUp() {
  const { kernel, accountId, trader, bars, view } = esAccountWithBuyer(
    NINE,
    PLAN,
    { contracts: 3, stop_ticks: 8, target_ticks: 8, trades_per_day: 1 },
    calendar,
  );
  const print = (atMs: number, price: number) => {
    kernel.print('ESM6', price * 4, Infinity, atMs); // ES ticks are 0.25
    bars.onPrint(atMs, price * 4);
  };
  const order = (id: string) => {
    const read = kernel.read.order({}, id);
    if (!read.ok) throw new Error(read.body.error);
    return read.body;
  };
  /** A print at 5000.00, then a check a second later: the trader enters and waits for the next print. */
  const enter = () => {
    print(NINE, 5000);
    kernel.advanceTo(NINE + 1_000);
    expect(trader.wake(view)).toBe(AFTER_NEXT_PRINT);
    expect(kernel.read.workingOrderIds(accountId)).toHaveLength(1);
    return kernel.read.workingOrderIds(accountId)[0]!;
  };
  return { kernel, accountId, trader, view, print, order, enter };
}

describe('bracket trader', () => {
  it('sends the entry alone, then, once filled, a target and a stop from the fill print, linked as OCO', () => {
    const { kernel, accountId, trader, view, print, order, enter } = setUp();
    const entryId = enter();
    expect(order(entryId)).toMatchObject({ side: 'buy', type: 'market', quantity: 3 });

    // The market entry fills at the next print, 5000.25; the exits are 8 ticks (2.00) either side of it.
    print(NINE + 2_000, 5000.25);
    expect(order(entryId)).toMatchObject({ status: 'FILLED', average_fill_price: '5000.25' });
    expect(trader.wake(view)).toEqual(expect.any(Number));
    const [targetId, stopId] = kernel.read.workingOrderIds(accountId);
    const target = order(targetId!);
    const stop = order(stopId!);
    expect(target).toMatchObject({
      side: 'sell',
      type: 'limit',
      quantity: 3,
      limit_price: '5002.25',
      status: 'SUBMITTED',
    });
    expect(stop).toMatchObject({ side: 'sell', type: 'stop', quantity: 3, stop_price: '4998.25', status: 'SUBMITTED' });
    // Net 3 held: the stop counts |3 − 3 − 3| = 3 contracts, within the limit of 5.
    expect(target.oco_group_id).toBeDefined();
    expect(stop.oco_group_id).toBe(target.oco_group_id);

    // The stop protects the trade: 4998.25 triggers it, it fills there, and the target is cancelled.
    print(NINE + 3_000, 4998.25);
    expect(order(stopId!)).toMatchObject({ status: 'FILLED', average_fill_price: '4998.25' });
    const targetStates = kernel.read.orderStates({}, targetId!);
    expect(targetStates.ok && targetStates.body.items.at(-1)).toMatchObject({
      status: 'CANCELLED',
      reason: 'oco_sibling_filled',
    });
    expect(kernel.read.netQuantity(accountId, 'ESM6')).toBe(0);
    // (4998.25 − 5000.25) × 3 contracts × $50 = −$300, no commission.
    expect(kernel.read.accountState(accountId)).toMatchObject({ balance: '49700.00', equity: '49700.00' });
  });

  it('an entry the account refuses leaves nothing to protect, and the trader checks again later', () => {
    const { kernel, accountId, trader, view, print } = setUp();
    print(NINE, 5000);
    kernel.advanceTo(NINE + 1_000);
    kernel.dispatch({ type: 'lockout', account_id: accountId, body: { reason_code: 'test' } });
    expect(trader.wake(view)).toBe(AFTER_NEXT_PRINT); // the entry is accepted (202), then REJECTED at the venue
    print(NINE + 2_000, 5000.25);
    const next = trader.wake(view);
    expect(next).toEqual(expect.any(Number));
    expect(kernel.read.workingOrderIds(accountId)).toEqual([]);
    expect(kernel.read.netQuantity(accountId, 'ESM6')).toBe(0);
  });

  it('still waiting for its fill at the close-out, it cancels the entry and sleeps until the next session', () => {
    const { kernel, accountId, trader, view, order, enter } = setUp();
    const entryId = enter();
    // No print comes: the runner wakes it at the session's end instead (15:59:59.999 CT), past its close-out time.
    kernel.advanceTo(view.session!.closeMs - 1);
    expect(trader.wake(view)).toBeUndefined();
    expect(order(entryId).status).toBe('CANCELLED');
    expect(kernel.read.workingOrderIds(accountId)).toEqual([]);
  });
});
