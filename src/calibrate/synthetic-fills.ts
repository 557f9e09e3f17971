// The fills of synthetic kinds traded on a market (docs/backtesting.md#how-close-calibration-comes): one back-test
// cell on a plan that never binds (no daily limit, a floor and a target out of reach, no position limit worth the
// name, no commission), so what comes out is the traders' own behaviour, not the plan's refusals.
import type { TraderFill } from '../import/trader-fill.js';
import type { SyntheticTraders } from '../backtest/traders/strategy.js';
import { calibrationConfig, runCalibrationCell, type MarketRun } from './calibration-cell.js';

export type { MarketRun } from './calibration-cell.js';

const OPEN_PLAN = {
  starting_balance: '10000000.00',
  currency: 'USD',
  risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '9000000.00' },
  passing_criteria: { profit_target: '90000000.00', min_trading_days: 1 },
  position_limits: { max_contracts: 1000 },
  commission_per_contract: '0',
  enabled_families: ['equity_index', 'interest_rates', 'fx', 'energy', 'metals'],
  trading_sessions: ['cme_globex'],
};

/** Every fill of the blocks' traders over the period, in the order the venue made them. */
export async function syntheticFills(blocks: readonly SyntheticTraders[], run: MarketRun): Promise<TraderFill[]> {
  const config = calibrationConfig(run, { synthetic: blocks }, { name: 'calibration-open-plan', fields: OPEN_PLAN });
  const fills: TraderFill[] = [];
  await runCalibrationCell(config, (kernel, accounts) => {
    const traderOf = new Map(accounts.map((a) => [a.accountId, a.trader]));
    let cursor: string | undefined;
    do {
      const page = kernel.read.fills({}, {}, { limit: 500, ...(cursor === undefined ? {} : { cursor }) });
      if (!page.ok) throw new Error(`reading the calibration cell's fills: ${page.body.error}`);
      for (const fill of page.body.items)
        fills.push({
          timeMs: fill.occurred_at,
          trader: traderOf.get(fill.account_id)!,
          symbol: fill.instrument_id,
          side: fill.side,
          quantity: fill.quantity,
          price: fill.price,
          line: 0,
        });
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor !== undefined);
  });
  return fills;
}
