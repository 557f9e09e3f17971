// Traders who react to their risk (docs/backtesting.md#traders-who-react-to-their-risk): three knobs of the synthetic
// strategies, off by default. Each is worked by hand on one ES account ($50 a point, 0.25 a tick, no commission),
// with a trader whose signal is always to buy, once with the knob and once without.
import { describe, expect, it } from 'vitest';
import { parsePlanTemplate } from '../../../src/core/accounts/plans.js';
import { GlobexCalendar } from '../../../src/core/calendar/globex-calendar.js';
import { Kernel } from '../../../src/core/kernel/kernel.js';
import { planJson } from '../../../src/core/kernel/read/risk-json.js';
import type { Side } from '../../../src/core/orders/order-types.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';
import { BracketTrader } from '../../../src/backtest/traders/bracket-trader.js';
import { readStrategyParams } from '../../../src/backtest/traders/strategy-params.js';
import { MinuteBars } from '../../../src/backtest/traders/minute-bars.js';
import { AFTER_NEXT_PRINT, TraderRandom } from '../../../src/backtest/traders/strategy.js';
import { esTraderView } from './es-trader-view.js';

class AlwaysBuys extends BracketTrader {
  protected signal(): Side {
    return 'buy';
  }
}

const calendar = new GlobexCalendar(loadHolidayFile());
/** Tuesday 2026-03-10, 09:00 CT. */
const NINE = Date.parse('2026-03-10T14:00:00Z');
/** $50,000 and a static $2,000 drawdown (max-loss floor $48,000), with the given daily loss. */
const plan = (dailyLoss: string) =>
  parsePlanTemplate(
    {
      starting_balance: '50000',
      risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '2000', daily_loss_value: dailyLoss },
      passing_criteria: { profit_target: '3000' },
    },
    'plan',
  );

/** 3-lot entries with the given stop and target ticks and knobs, on a plan with a $500 daily loss unless told. */
function setUp(params: Record<string, unknown>, dailyLoss = '500') {
  const kernel = new Kernel({ startMs: NINE, seed: 1, calendar });
  const opened = kernel.dispatch({ type: 'open_account', plan: planJson(plan(dailyLoss)) });
  if (!opened.ok) throw new Error(opened.body.error);
  const accountId = opened.body.account_id;
  const trader = new AlwaysBuys(
    'always-buys',
    new TraderRandom(1),
    readStrategyParams('random_bracket', { contracts: 3, ...params }),
  );
  const bars = new MinuteBars();
  const view = esTraderView(kernel, accountId, bars, calendar);
  let nowMs = NINE;
  const print = (price: number) => {
    nowMs += 1_000;
    kernel.print('ESM6', price * 4, Infinity, nowMs);
    bars.onPrint(nowMs, price * 4);
  };
  /** The trader's check, a second after the last print. */
  const check = () => {
    nowMs += 1_000;
    kernel.advanceTo(nowMs);
    return trader.wake(view);
  };
  /** One whole trade: a print at 5000.00, a check (the entry), its fill at 5000.25, a check (the bracket). */
  const trade = () => {
    print(5000);
    expect(check()).toBe(AFTER_NEXT_PRINT);
    print(5000.25);
    expect(check()).toEqual(expect.any(Number));
  };
  const entries = () => {
    const listed = kernel.read.orders({}, { account_id: accountId }, { limit: 100 });
    if (!listed.ok) throw new Error(listed.body.error);
    return listed.body.items.filter((o) => o.type === 'market' && o.origin !== 'risk');
  };
  const numbers = () => kernel.read.riskNumbers(accountId)!;
  return { kernel, accountId, print, check, trade, entries, numbers };
}

describe('traders who react to their risk', () => {
  // A 3-lot bought at 5000.25 and marked at 4996.75: (4996.75 − 5000.25) × 3 × $50 = −$525, equity $49,475 ≤ the
  // daily floor $49,500: the daily-loss lock, the bracket cancelled and the position closed at the next print.
  const lockedOut = (params: Record<string, unknown>) => {
    const s = setUp({ stop_ticks: 40, target_ticks: 40, ...params });
    s.trade();
    s.print(4996.75);
    s.print(4996.75); // the risk order's fill
    expect(s.numbers()).toMatchObject({ dailyLossLocked: true, equityCents: 4_947_500, dayNetCents: -52_500 });
    s.print(4997);
    return s;
  };

  it('stop_after_daily_lock: after the daily-loss lock the trader sends nothing more that session', () => {
    const reacting = lockedOut({ stop_after_daily_lock: true });
    expect(reacting.check()).toBeUndefined(); // asleep until the next session opens
    expect(reacting.entries()).toHaveLength(1);

    // Without the knob it keeps trying: a second entry, which the locked account rejects.
    const plain = lockedOut({});
    expect(plain.check()).toBe(AFTER_NEXT_PRINT);
    expect(plain.entries()).toHaveLength(2);
    expect(plain.entries().at(-1)!.status).toBe('REJECTED');
  });

  // A 3-lot bought at 5000.25 with an 8-tick target: it fills at 5002.25, (5002.25 − 5000.25) × 3 × $50 = +$300.
  const wonThreeHundred = (params: Record<string, unknown>) => {
    const s = setUp({ stop_ticks: 40, target_ticks: 8, ...params });
    s.trade();
    s.print(5002.25);
    expect(s.numbers()).toMatchObject({ equityCents: 5_030_000, dayNetCents: 30_000 });
    s.print(5002);
    return s;
  };

  it('daily_profit_stop: once the day has made that much, no new entries that session', () => {
    const reacting = wonThreeHundred({ daily_profit_stop: '300.00' }); // $300 ≥ $300: stop
    expect(reacting.check()).toEqual(expect.any(Number)); // still checks, to close out before the close
    expect(reacting.entries()).toHaveLength(1);

    const short = wonThreeHundred({ daily_profit_stop: '300.01' }); // $300 < $300.01: trades on
    expect(short.check()).toBe(AFTER_NEXT_PRINT);
    expect(short.entries()).toHaveLength(2);
  });

  // A 3-lot bought at 5000.25 and stopped 40 ticks (10.00) lower at 4990.25 loses 10 × 3 × $50 = $1,500: equity
  // $48,500, $500 above the max-loss floor of $48,000 (a $2,000 daily loss here, so no lock).
  it('size_down_within: one contract while equity is within that much of the max-loss floor', () => {
    const run = (within: string) => {
      const s = setUp({ stop_ticks: 40, target_ticks: 40, size_down_within: within }, '2000');
      s.trade();
      expect(s.entries()[0]!.quantity).toBe(3); // $2,000 of headroom > $500: the drawn 3
      s.print(4990.25);
      expect(s.numbers()).toMatchObject({ equityCents: 4_850_000, maxLossTriggerCents: 4_800_000 });
      s.print(4991);
      expect(s.check()).toBe(AFTER_NEXT_PRINT);
      return s.entries().at(-1)!.quantity;
    };
    expect(run('500.00')).toBe(1); // $48,500 − $48,000 = $500 ≤ $500: one contract
    expect(run('499.99')).toBe(3); // $500 > $499.99: the drawn 3
  });

  // A 3-lot bought at 5000.25 and marked at 4986.75: (4986.75 − 5000.25) × 3 × $50 = −$2,025, equity $47,975 ≤ the
  // max-loss floor $48,000: failed, and flattened at the next print (a $5,000 daily loss here, so no daily lock).
  const failedOut = (params: Record<string, unknown>) => {
    const s = setUp({ stop_ticks: 80, target_ticks: 80, ...params }, '5000');
    s.trade();
    s.print(4986.75);
    s.print(4986.75);
    expect(s.numbers()).toMatchObject({ failed: true, equityCents: 4_797_500 });
    return s;
  };

  it('quit_after_failure: after its account fails the trader never checks again', () => {
    const reacting = failedOut({ quit_after_failure: true });
    expect(reacting.check()).toBeUndefined();
    expect(reacting.entries()).toHaveLength(1);

    const plain = failedOut({});
    expect(plain.check()).toBe(AFTER_NEXT_PRINT); // an entry the failed account rejects
    expect(plain.entries()).toHaveLength(2);
  });
});
