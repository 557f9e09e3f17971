// What an ES trader sees on Tuesday 2026-03-10 (0.25 ticks, 2 places), for the bracket traders' hand-made tests.
import type { GlobexCalendar } from '../../src/core/calendar/globex-calendar.js';
import type { Kernel } from '../../src/core/kernel/kernel.js';
import type { MinuteBars } from '../../src/backtest/traders/minute-bars.js';
import type { TraderView } from '../../src/backtest/traders/strategy.js';

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
