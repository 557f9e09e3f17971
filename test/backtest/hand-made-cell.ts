// A cell's result built by hand from its traders' outcomes, for tests of what is computed over cells, and a run of
// such cells for tests of what is printed about them.
import type { CellResult } from '../../src/backtest/cells/cell-runner.js';
import { runStatistics } from '../../src/backtest/stats/decisions.js';
import { noDroppedFills } from '../../src/backtest/fills/dropped-fills.js';
import { noFillsAgainstMarket } from '../../src/backtest/fills/off-market-fills.js';
import { summarizeCell, type TraderOutcome } from '../../src/backtest/cells/outcomes.js';
import type { BacktestRun } from '../../src/backtest/run-backtest.js';

export function handMadeCell(
  index: number,
  traders: TraderOutcome[],
  values: Record<string, unknown> = {},
  periodDays = 5,
): CellResult {
  return {
    cell: { index, values, label: `cell ${index}` },
    summary: summarizeCell(traders),
    traders,
    samples: [],
    fan: [],
    prints: 0,
    periodDays,
    accountSessionDays: 0,
    missingPrints: [],
  };
}

/** Trader `t<i>` of the fills file, still active after 5 trading days, netting the firm `netCents`. */
export function activeTrader(i: number, netCents: number): TraderOutcome {
  return {
    trader: `t${i}`,
    strategy: 'fills',
    outcome: 'active',
    cause: 'profit_target_not_reached',
    days: 5,
    tradingDays: 5,
    dailyLockDays: 0,
    finalBalanceCents: 5_000_000,
    startingBalanceCents: 5_000_000,
    feesCents: netCents,
    payoutsCents: 0,
    netCents,
    droppedFills: noDroppedFills(),
    positionsNeverHad: 0,
    firstOutcome: 'open',
    firstOutcomeDay: null,
  };
}

/**
 * A run of these cells, the first the reference, seed 7; the grid's axes are the cells' value keys. The config holds
 * what the report and the summary read (no synthetic traders unless `config` sets them).
 */
export function handMadeRun(cells: CellResult[], config: Record<string, unknown> = {}): BacktestRun {
  const keys = Object.keys(cells[0]?.cell.values ?? {});
  const full = {
    name: 'hand-made',
    file: 'hand-made.yaml',
    seed: 7,
    period: { from: '2026-04-07', to: '2026-04-09' },
    synthetic: [],
    // A whole plan, as a config's reader leaves it: the report reads each cell's plan for the rules it turns on.
    basePlan: {
      starting_balance: '50000',
      risk_profile: { max_drawdown_mode: 'eod_balance', max_drawdown_value: '2000' },
      passing_criteria: { profit_target: '3000' },
    },
    basePlanName: 'hand-made-50k',
    economics: { pricePaidCents: 0, payoutShare: '0' },
    grid: keys.map((key) => ({ key, values: [...new Set(cells.map((c) => c.cell.values[key]))] })),
    ...config,
  };
  const statistics = runStatistics(cells, cells[0]!.cell.index);
  return {
    config: full as unknown as BacktestRun['config'],
    cells,
    statistics,
    fillsAgainstMarket: noFillsAgainstMarket(),
  };
}
