// What an ES trader sees on Tuesday 2026-03-10 (0.25 ticks, 2 places), for the bracket traders' hand-made tests.
import type { PlanTemplate } from '../../../src/core/accounts/plans.js';
import type { GlobexCalendar } from '../../../src/core/calendar/globex-calendar.js';
import { Kernel } from '../../../src/core/kernel/kernel.js';
import { planJson } from '../../../src/core/kernel/read/risk-json.js';
import type { Side } from '../../../src/core/orders/order-types.js';
import { BracketTrader } from '../../../src/backtest/traders/bracket-trader.js';
import { readStrategyParams } from '../../../src/backtest/traders/strategy-params.js';
import { MinuteBars } from '../../../src/backtest/traders/minute-bars.js';
import { TraderRandom, type TraderView } from '../../../src/backtest/traders/strategy.js';

/** A trader whose signal is always to buy. */
export class AlwaysBuys extends BracketTrader {
  protected signal(): Side {
    return 'buy';
  }
}

/** A kernel from `startMs` with one account on `plan`, an always-buying ES trader of `params`, and what it sees. */
export function esAccountWithBuyer(
  startMs: number,
  plan: PlanTemplate,
  params: Record<string, unknown>,
  calendar: GlobexCalendar,
) {
  const kernel = new Kernel({ startMs, seed: 1, calendar });
  const opened = kernel.dispatch({ type: 'open_account', plan: planJson(plan) });
  if (!opened.ok) throw new Error(opened.body.error);
  const accountId = opened.body.account_id;
  const trader = new AlwaysBuys('always-buys', new TraderRandom(1), readStrategyParams('random_bracket', params));
  const bars = new MinuteBars();
  return { kernel, accountId, trader, bars, view: esTraderView(kernel, accountId, bars, calendar) };
}

export function esTraderView(
  kernel: Kernel,
  accountId: string,
  bars: MinuteBars,
  calendar: GlobexCalendar,
): TraderView {
  return {
    kernel,
    accountId,
    symbol: 'ESM6',
    tickSize: 0.25,
    priceDecimals: 2,
    bars,
    session: calendar.sessionOf('2026-03-10', 'equity_index'),
  };
}
