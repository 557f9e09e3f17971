// The confirmation (docs/optimizing.md#confirmation): the plan the search chose, and the base plan, on a population
// the search never saw. It chooses nothing: it is an unbiased report of the one plan chosen, whether it meets each
// constraint, and whether it differs from the current plan by the back-test's paired test.
import type { CellResult } from '../cells/cell-runner.js';
import { feesOnly } from '../stats/cell-ranking.js';
import { runStatistics, type Decision, type Estimate, type Metric } from '../stats/decisions.js';
import { runBacktest } from '../run-backtest.js';
import type { Evaluation } from './candidate-ranking.js';
import { boundsOf, constraintChecks, type BoundCheck } from './constraint-checks.js';
import type { Period } from './confirmation-period.js';
import type { OptimizeConfig } from './optimize-config.js';
import { cellsOf, evaluationsOf, passThrough, refuseFeesOnlyNet, type OptimizeOptions } from './optimize-runs.js';
import { confirmationSeed, syntheticCount, withPopulation } from './search-population.js';

/** The base plan's cell in the comparison: an index no candidate has (candidates count from 0). */
export const BASE_PLAN_CELL = -1;

export interface Confirmation {
  seed: number;
  /** `confirmation.period`, else the search's. */
  period: Period;
  /** Its trade dates. */
  days: number;
  synthetic: number;
  /** The held-out fills traders. */
  fills: string[];
  traders: number;
  accountDays: number;
  /** The candidate the search chose. */
  chosen: number;
  /** The chosen plan's figures: the plain 95 % intervals a back-test of it on this population gives. */
  evaluation: Evaluation;
  base: Record<Metric, Estimate>;
  /** Chosen − base on the objective's metric, paired by trader, Holm-adjusted over the three metrics (decisions.ts). */
  versusBase: Decision;
  /** Bonferroni's m: the chosen plan's bounds. */
  comparisons: number;
  /** Each bound of the constraints, checked on the chosen plan. */
  checks: BoundCheck[];
  /** Every bound holds. */
  constraintsMet: boolean;
  /** The chosen plan paid no payout while a funded stage is configured: its net is fee income only. */
  feesOnly: boolean;
}

/**
 * The chosen plan and the base plan on the confirmation population: the config's own synthetic count drawn from the
 * confirmation seed and the held-out fills traders, over `days` trade dates of the confirmation period. The base plan
 * runs alone (a config without grid), as a back-test of it would; both runs hold the same traders in the same order,
 * which is what the paired comparison needs.
 */
export async function confirm(
  config: OptimizeConfig,
  chosen: number,
  heldOut: readonly string[],
  days: number,
  options: OptimizeOptions,
  stages: number,
): Promise<Confirmation> {
  const base = config.backtest;
  const seed = confirmationSeed(base.seed);
  const period = config.confirmationPeriod ?? base.period;
  const population = { ...withPopulation(base, { seed, fills: heldOut }), period };
  const run = await runBacktest(cellsOf(population, [chosen]), passThrough(options, 0, stages));
  refuseFeesOnlyNet(config, run, options);
  const baseRun = await runBacktest({ ...population, grid: [], compareTo: 0 }, passThrough(options, 0, stages, true));
  const chosenCell = run.cells[0]!;
  const baseCell: CellResult = { ...baseRun.cells[0]!, cell: { ...baseRun.cells[0]!.cell, index: BASE_PLAN_CELL } };
  checkPaired(baseCell, chosenCell);
  const statistics = runStatistics([baseCell, chosenCell], BASE_PLAN_CELL);
  const comparisons = boundsOf(config.constraints);
  const checks = constraintChecks([chosenCell], config.constraints, comparisons)[0]!;
  const traders = syntheticCount(base) + heldOut.length;
  return {
    seed,
    period,
    days,
    synthetic: syntheticCount(base),
    fills: [...heldOut],
    traders,
    accountDays: 2 * traders * days,
    chosen,
    evaluation: evaluationsOf(run)[0]!,
    base: baseRun.statistics.cells[0]!.metrics,
    versusBase: statistics.decisions.find((d) => d.metric === config.objective.metric)!,
    comparisons,
    checks,
    constraintsMet: checks.every((check) => check.verdict === 'holds'),
    feesOnly: feesOnly(run.config, run.cells),
  };
}

/** The two runs must hold the same traders in the same order: the comparison pairs them by position. */
function checkPaired(a: CellResult, b: CellResult): void {
  const ids = (cell: CellResult) => cell.traders.map((t) => t.trader).join('\n');
  if (ids(a) !== ids(b)) throw new Error('the confirmation runs of the chosen and the base plan hold other traders');
}
