// quit_after_failure with the funnel (docs/backtesting.md#traders-who-react-to-their-risk): a trader who quits takes
// no reset, even at reset rate 1. The funnel of fixtures/funnel/funnel.yaml: a static $500 evaluation (floor
// $49,500), reset $50 at rate 1, max 1.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { ResetDraws, TraderFunnel } from '../../../src/backtest/funnel/trader-funnel.js';
import { parsePlanTemplate } from '../../../src/core/accounts/plans.js';
import { GlobexCalendar } from '../../../src/core/calendar/globex-calendar.js';
import { Kernel } from '../../../src/core/kernel/kernel.js';
import { planJson } from '../../../src/core/kernel/read/risk-json.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';

const config = loadBacktestConfig(fileURLToPath(new URL('../fixtures/funnel/funnel.yaml', import.meta.url)));
const calendar = new GlobexCalendar(loadHolidayFile());
const tuesday = calendar.sessionOf('2026-04-07', 'equity_index')!;
const wednesday = calendar.sessionOf('2026-04-08', 'equity_index')!;

/** Long 1 @ 5000.00, then a print at 4989.00: 50,000 − 11 × $50 = 49,450 ≤ 49,500, failed; then Wednesday opens. */
function failThenOpen(quitsAfterFailure: boolean): TraderFunnel {
  const funnel = config.economics.funnel!;
  const kernel = new Kernel({ startMs: tuesday.openMs, seed: 1, calendar });
  const plans = {
    evaluation: planJson(parsePlanTemplate(config.basePlan, 'evaluation')),
    funded: funnel.funded && planJson(parsePlanTemplate(funnel.funded.plan, 'funded')),
  };
  const trader = new TraderFunnel(funnel, kernel, 'ann', plans, new ResetDraws(1), tuesday, quitsAfterFailure);
  const atMs = Date.parse('2026-04-07T13:31:00Z'); // 08:31 CT
  kernel.advanceTo(atMs);
  const filled = kernel.dispatch({
    type: 'record_fill',
    account_id: trader.accountId,
    instrument_id: 'ESM6',
    side: 'buy',
    quantity: 1,
    price: '5000.00',
    occurred_at: atMs,
  });
  expect(filled.ok).toBe(true);
  kernel.print('ESM6', 4989 * 4, Infinity, atMs + 60_000);
  expect(kernel.read.riskNumbers(trader.accountId)!.failed).toBe(true);
  kernel.advanceTo(wednesday.openMs);
  trader.atSessionOpen(wednesday, 1, tuesday);
  return trader;
}

describe('quit_after_failure in the funnel', () => {
  it('a trader who quits is out after the failure; one who does not resets (rate 1) for $50', () => {
    const quits = failThenOpen(true);
    expect(quits.path).toMatchObject({ resets: 0, resetFeesCents: 0 });
    expect(quits.evaluationAccounts).toHaveLength(1);

    const stays = failThenOpen(false);
    expect(stays.path).toMatchObject({ resets: 1, resetFeesCents: 5_000 });
    expect(stays.evaluationAccounts).toHaveLength(2);
  });
});
