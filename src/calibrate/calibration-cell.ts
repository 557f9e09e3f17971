// One back-test cell as calibration runs it (docs/backtesting.md#how-close-calibration-comes): the market and period
// of --market and --period, the calibrate seed, a back-test config's default fill model (no latency, no slippage,
// limits fill at a touch), no fees; the traders and the plan are the caller's.
import type { Fields } from '../core/validation/input-fields.js';
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import type { MarketFileSpec } from '../market/market-file-spec.js';
import type { BacktestConfig } from '../backtest/config/backtest-config.js';
import { runCell, type CellObserver, type CellResult } from '../backtest/cells/cell-runner.js';
import { expandGrid } from '../backtest/config/grid.js';
import type { FillsFileSpec } from '../backtest/fills/trader-fills.js';
import type { SyntheticTraders } from '../backtest/traders/strategy.js';

export interface MarketRun {
  market: MarketFileSpec[];
  period: { from: string; to: string };
  seed: number;
}

/** A plan as a back-test's base_plan: its name, and its template as written. */
export interface NamedPlan {
  name: string;
  fields: Fields;
}

/** A plan read from its file (src/scenario/plan-files.ts). */
export interface PlanFromFile extends NamedPlan {
  path: string;
}

export function calibrationConfig(
  run: MarketRun,
  traders: { synthetic?: readonly SyntheticTraders[]; fills?: FillsFileSpec },
  plan: NamedPlan,
): BacktestConfig {
  return {
    file: '(calibration)',
    name: 'calibration',
    seed: run.seed,
    market: run.market,
    period: run.period,
    synthetic: [...(traders.synthetic ?? [])],
    ...(traders.fills === undefined ? {} : { fills: traders.fills }),
    basePlan: plan.fields,
    basePlanName: plan.name,
    grid: [],
    economics: { pricePaidCents: 0, payoutShare: '0' },
    fillModel: { latencyMs: 0, cancelLatencyMs: 0, modifyLatencyMs: 0, slippageTicks: 0, limitFill: 'touch' },
    sampleTraders: 0,
    compareTo: 0,
  };
}

/** The config's one cell (an empty grid), in this thread. */
export function runCalibrationCell(config: BacktestConfig, observe?: CellObserver): Promise<CellResult> {
  return runCell({ config, cell: expandGrid([])[0]! }, new GlobexCalendar(loadHolidayFile()), observe);
}
