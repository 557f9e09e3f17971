// How `propsim optimize` runs back-tests: every stage and the confirmation are runBacktest on a config whose grid
// cells are the candidates to run, with runBacktest's options passed through unchanged (threads, a queue, a signal)
// and progress that says which stage it is.
import type { BacktestConfig } from '../config/backtest-config.js';
import { BacktestInputError } from '../backtest-input-error.js';
import { feesOnly } from '../stats/cell-ranking.js';
import type { runBacktest, BacktestProgress, BacktestRun } from '../run-backtest.js';
import type { Evaluation } from './candidate-ranking.js';
import type { OptimizeConfig } from './optimize-config.js';

export interface OptimizeProgress extends BacktestProgress {
  /** 1, 2, … for the search's stages; 0 for the confirmation. */
  stage: number;
  /** The stages the search plans, were the budget unlimited. */
  stages: number;
  /** The confirmation's run of the base plan (stage 0), not of the chosen plan. */
  basePlan: boolean;
}

export type BacktestOptions = Parameters<typeof runBacktest>[1];

/**
 * runBacktest's options (workers, signal, and whatever it takes later), passed through to every stage unchanged, with
 * the budget, and progress that also says which stage it is.
 */
export type OptimizeOptions = Omit<BacktestOptions, 'onProgress'> & {
  /**
   * The most account-session-days the whole run (search and confirmation) may spend; by default the full grid's on
   * the config's traders and the confirmation (defaultBudget).
   */
  budget?: number;
  /** Maximize the net per trader even when it is fee income only (no candidate paid a payout): `--allow-fees-only`. */
  allowFeesOnly?: boolean;
  onProgress?: (progress: OptimizeProgress) => void;
};

/** The config running only these candidates (grid cells); the first is the reference its statistics compare with. */
export function cellsOf(config: BacktestConfig, candidates: readonly number[]): BacktestConfig {
  const cells = [...candidates].sort((a, b) => a - b);
  return { ...config, cells, compareTo: cells[0]! };
}

export function passThrough(
  options: OptimizeOptions,
  stage: number,
  stages: number,
  basePlan = false,
): BacktestOptions {
  const { budget: _budget, allowFeesOnly: _allow, onProgress, ...backtestOptions } = options;
  return {
    ...backtestOptions,
    ...(onProgress ? { onProgress: (p: BacktestProgress) => onProgress({ ...p, stage, stages, basePlan }) } : {}),
  };
}

export function evaluationsOf(run: BacktestRun): Evaluation[] {
  return run.statistics.cells.map((cell) => ({ candidate: cell.cell, metrics: cell.metrics }));
}

/**
 * Maximizing the net per trader when no candidate paid a payout (a funded stage is configured, the period is too short
 * for it) maximizes fee income, which rises as more traders fail: the search would choose the harshest plan. Refused
 * unless asked for (docs/optimizing.md#fee-income-only).
 */
export function refuseFeesOnlyNet(config: OptimizeConfig, run: BacktestRun, options: OptimizeOptions): void {
  const { direction, metric } = config.objective;
  if (options.allowFeesOnly || direction !== 'maximize' || metric !== 'net_per_trader') return;
  if (!feesOnly(run.config, run.cells)) return;
  const days = run.cells[0]?.periodDays ?? 0;
  throw new BacktestInputError(
    `${config.backtest.file}: objective: maximize net_per_trader, and none of the ${run.cells.length} candidates run so far paid a payout in ${days} trade dates: the net is fee income only, which rises as more traders fail, so the search would choose the harshest plan; run a period long enough for the funded stage to pay out (market.resample: { block_sessions: 5 } fills one from the market files), or pass --allow-fees-only to maximize fee income knowingly`,
  );
}
