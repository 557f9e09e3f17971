// `propsim optimize` (docs/optimizing.md): successive halving over the search's candidate plans, then a confirmation
// of the finalists on traders the search never saw. Each stage and the confirmation are runs of runBacktest with a
// config whose grid cells are the candidates still in: execution stays in one place (threads, a queue), and its
// options pass through unchanged.
import type { BacktestConfig } from '../backtest-config.js';
import { BacktestInputError } from '../backtest-input-error.js';
import type { Estimate, Metric } from '../decisions.js';
import { expandGrid, type GridCell } from '../grid.js';
import { feesOnly } from '../cell-ranking.js';
import { runBacktest, type BacktestProgress, type BacktestRun } from '../run-backtest.js';
import {
  judgeStage,
  leastKept,
  rankEvaluations,
  withinBudget,
  type Evaluation,
  type StageVerdict,
} from './candidate-ranking.js';
import { boundsOf, constraintChecks, type BoundCheck } from './constraint-checks.js';
import { planPasserNet, withHonestNet } from './honest-net.js';
import { tradersToJudge } from './judgeable-traders.js';
import type { OptimizeConfig } from './optimize-config.js';
import {
  confirmationSeed,
  fillsTraders,
  periodDays,
  splitFillsTraders,
  syntheticCount,
  withPopulation,
} from './search-population.js';

/** The most finalists the confirmation runs: the last stage's best and two runners-up. */
export const FINALISTS = 3;

export interface OptimizeProgress extends BacktestProgress {
  /** 1, 2, … for the search's stages; 0 for the confirmation. */
  stage: number;
  /** The stages the search plans, were the budget unlimited. */
  stages: number;
  /** The confirmation's run of the base plan (stage 0), not of a finalist. */
  basePlan: boolean;
}

type BacktestOptions = Parameters<typeof runBacktest>[1];

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

export interface StageResult {
  stage: number;
  /** Synthetic traders of this stage (all blocks together). */
  synthetic: number;
  /** Accounts per candidate: synthetic traders and the search's fills traders. */
  traders: number;
  accountDays: number;
  evaluations: Evaluation[];
  verdict: StageVerdict;
}

export interface Confirmation {
  seed: number;
  synthetic: number;
  /** The held-out fills traders. */
  fills: string[];
  traders: number;
  accountDays: number;
  /** The finalists, best first by the search, then the base plan's evaluation on the same traders. */
  evaluations: Evaluation[];
  base: Record<Metric, Estimate>;
  /** Bonferroni's m: finalists × bounds. */
  comparisons: number;
  /** Per finalist (as evaluations), each bound's check. */
  checks: BoundCheck[][];
  /** The chosen finalist: the best meeting every bound, else the best. */
  chosen: number;
  constraintsMet: boolean;
  /** No finalist paid a payout while a funded stage is configured: their net is fee income only. */
  feesOnly: boolean;
}

export interface OptimizeRun {
  config: OptimizeConfig;
  seed: number;
  /** The budget the run kept within: --budget, else the default (defaultBudget). */
  budget: number;
  /** Whether the budget is the default. */
  defaultBudget: boolean;
  /** Every candidate plan, by index (the search's cartesian product). */
  candidates: GridCell[];
  days: number;
  searchFills: string[];
  stages: StageResult[];
  /** The stages the search planned, were the budget unlimited. */
  plannedStages: number;
  confirmation: Confirmation;
  accountDays: number;
}

/** How many stages take `candidates` down to one, keeping a third (rounded up) each time. */
export function stagesToOne(candidates: number): number {
  let stages = 0;
  for (let left = candidates; left > 1; left = Math.ceil(left / 3)) stages++;
  return stages;
}

/**
 * Synthetic traders of the first stage: start_traders, else the config's count halved once per later stage (so
 * the last stage runs about the config's count), raised to the traders its rate constraints need to drop a candidate
 * (tradersToJudge, counting the search's `fills` traders) but not above the config's count, at least one per block.
 */
export function firstStageTraders(config: OptimizeConfig, stages: number, fills = 0): number {
  const blocks = config.backtest.synthetic.length;
  if (config.startTraders !== undefined) return config.startTraders;
  const count = syntheticCount(config.backtest);
  const halved = Math.ceil(count / 2 ** Math.max(0, stages - 1));
  return Math.max(blocks, halved, Math.min(count, tradersToJudge(config.constraints) - fills));
}

export async function runOptimize(config: OptimizeConfig, options: OptimizeOptions): Promise<OptimizeRun> {
  const base = config.backtest;
  const candidates = expandGrid(base.grid);
  const days = periodDays(base);
  const split = splitFillsTraders(fillsTraders(base), base.seed);
  if (syntheticCount(base) === 0 && split.search.length === 0)
    throw new BacktestInputError(
      `${base.file}: traders: the search needs traders of its own: synthetic traders, or at least 2 historical fills traders (half of them are held out for the confirmation)`,
    );
  const plannedStages = stagesToOne(candidates.length);
  const start = firstStageTraders(config, plannedStages, split.search.length);
  const confirmationCost =
    (Math.min(FINALISTS, candidates.length) + 1) * (syntheticCount(base) + split.heldOut.length) * days;
  const stageCost = (alive: number, stage: number) =>
    alive * (syntheticAt(base, start, stage) + split.search.length) * days;
  // Without --budget the search spends at most what the full grid it replaces would: every candidate on the config's
  // traders (docs/optimizing.md#how-the-search-narrows).
  const fullGrid = candidates.length * (syntheticCount(base) + split.search.length) * days;
  const budget = options.budget ?? fullGrid + confirmationCost;
  checkBudget(budget, plannedStages > 0 ? stageCost(candidates.length, 1) : 0, confirmationCost, {
    isDefault: options.budget === undefined,
    candidates: candidates.length,
    traders: syntheticAt(base, start, 1) + split.search.length,
    days,
  });

  const stages: StageResult[] = [];
  let alive = candidates.map((c) => c.index);
  let spent = 0;
  // At most the planned stages: the last runs start × 2^(stages − 1) traders (about the config's count, unless the
  // constraints raised the start); a stage may keep more than a third (judgeStage), so the search need not reach one
  // candidate.
  for (let stage = 1; alive.length > 1 && stage <= plannedStages; stage++) {
    const cost = stageCost(alive.length, stage);
    if (spent + cost + confirmationCost > budget) break;
    const synthetic = syntheticAt(base, start, stage);
    const stageConfig = cellsOf(withPopulation(base, { seed: base.seed, synthetic, fills: split.search }), alive);
    const run = await runBacktest(stageConfig, passThrough(options, stage, plannedStages));
    refuseFeesOnlyNet(config, run, options);
    // Ranked and printed with the honest net interval (docs/optimizing.md#the-search): a candidate nobody passed
    // does not rank on a zero-width interval.
    const evaluations = withHonestNet(evaluationsOf(run), run.cells, (cell) => planPasserNet(stageConfig, cell));
    spent += cost;
    let verdict = judgeStage(evaluations, config.objective, config.constraints);
    if (stage < plannedStages) {
      // The next stage runs only what the budget pays for, keeping the confirmation's share.
      const affordable = Math.floor((budget - spent - confirmationCost) / stageCost(1, stage + 1));
      verdict = withinBudget(verdict, affordable, leastKept(evaluations.length));
    }
    stages.push({
      stage,
      synthetic,
      traders: synthetic + split.search.length,
      accountDays: cost,
      evaluations,
      verdict,
    });
    alive = verdict.kept;
  }
  const finalists = stages.length === 0 ? alive : stages[stages.length - 1]!.verdict.ranked.slice(0, FINALISTS);
  const confirmation = await confirm(config, finalists, split.heldOut, days, options, plannedStages);
  return {
    config,
    seed: base.seed,
    budget,
    defaultBudget: options.budget === undefined,
    candidates,
    days,
    searchFills: split.search,
    stages,
    plannedStages,
    confirmation,
    accountDays: spent + confirmation.accountDays,
  };
}

function syntheticAt(base: BacktestConfig, start: number, stage: number): number {
  return base.synthetic.length === 0 ? 0 : start * 2 ** (stage - 1);
}

/** Refuses a budget that cannot pay for the first stage and the confirmation: nothing would be learnt. */
function checkBudget(
  budget: number,
  firstStage: number,
  confirmation: number,
  shape: { isDefault: boolean; candidates: number; traders: number; days: number },
): void {
  if (firstStage + confirmation <= budget) return;
  const n = (x: number) => x.toLocaleString('en-US');
  // Only start_traders above the config's count can outgrow the default budget (the full grid's).
  const what = shape.isDefault ? "without --budget, the full grid's and the confirmation's" : '--budget:';
  throw new BacktestInputError(
    `${what} ${n(budget)} account-session-days cannot pay for the first stage (${n(shape.candidates)} candidates × ${n(shape.traders)} traders × ${n(shape.days)} trade dates = ${n(firstStage)}) and the confirmation (${n(confirmation)}); expected ${shape.isDefault ? 'a --budget of ' : ''}at least ${n(firstStage + confirmation)}, or fewer candidates or start_traders`,
  );
}

/** The config running only these candidates (grid cells); the first is the reference its statistics compare with. */
function cellsOf(config: BacktestConfig, candidates: readonly number[]): BacktestConfig {
  const cells = [...candidates].sort((a, b) => a - b);
  return { ...config, cells, compareTo: cells[0]! };
}

function passThrough(options: OptimizeOptions, stage: number, stages: number, basePlan = false): BacktestOptions {
  const { budget: _budget, onProgress, ...backtestOptions } = options;
  return {
    ...backtestOptions,
    ...(onProgress ? { onProgress: (p: BacktestProgress) => onProgress({ ...p, stage, stages, basePlan }) } : {}),
  };
}

function evaluationsOf(run: BacktestRun): Evaluation[] {
  return run.statistics.cells.map((cell) => ({ candidate: cell.cell, metrics: cell.metrics }));
}

/**
 * The finalists and the base plan on the confirmation population: the config's own synthetic count drawn from the
 * confirmation seed, and the held-out fills traders. The base plan runs alone (a config without grid), as a
 * back-test of it would.
 */
async function confirm(
  config: OptimizeConfig,
  finalists: readonly number[],
  heldOut: readonly string[],
  days: number,
  options: OptimizeOptions,
  stages: number,
): Promise<Confirmation> {
  const base = config.backtest;
  const seed = confirmationSeed(base.seed);
  const population = withPopulation(base, { seed, fills: heldOut });
  const run = await runBacktest(cellsOf(population, finalists), passThrough(options, 0, stages));
  refuseFeesOnlyNet(config, run, options);
  const { cells: _cells, ...whole } = population;
  const baseRun = await runBacktest({ ...whole, grid: [], compareTo: 0 }, passThrough(options, 0, stages, true));
  const traders = syntheticCount(base) + heldOut.length;
  // Best first by the search, as the finalists came.
  const byCell = new Map(evaluationsOf(run).map((e) => [e.candidate, e]));
  const cellOrder = new Map(run.cells.map((cell, i) => [cell.cell.index, i]));
  const evaluations = finalists.map((f) => byCell.get(f)!);
  const comparisons = finalists.length * boundsOf(config.constraints);
  const checksByCell = constraintChecks(run.cells, config.constraints, comparisons);
  const checks = finalists.map((f) => checksByCell[cellOrder.get(f)!]!);
  const meeting = evaluations.filter((_, i) => checks[i]!.every((check) => check.verdict === 'holds'));
  const best = rankEvaluations(meeting.length > 0 ? meeting : evaluations, config.objective)[0]!;
  return {
    seed,
    synthetic: syntheticCount(base),
    fills: [...heldOut],
    traders,
    accountDays: (finalists.length + 1) * traders * days,
    evaluations,
    base: baseRun.statistics.cells[0]!.metrics,
    comparisons,
    checks,
    chosen: best.candidate,
    constraintsMet: meeting.length > 0,
    feesOnly: feesOnly(run.config, run.cells),
  };
}

/**
 * Maximizing the net per trader when no candidate paid a payout (a funded stage is configured, the period is too short
 * for it) maximizes fee income, which rises as more traders fail: the search would choose the harshest plan. Refused
 * unless asked for (docs/optimizing.md#fee-income-only).
 */
function refuseFeesOnlyNet(config: OptimizeConfig, run: BacktestRun, options: OptimizeOptions): void {
  const { direction, metric } = config.objective;
  if (options.allowFeesOnly || direction !== 'maximize' || metric !== 'net_per_trader') return;
  if (!feesOnly(run.config, run.cells)) return;
  const days = run.cells[0]?.periodDays ?? 0;
  throw new BacktestInputError(
    `${config.backtest.file}: objective: maximize net_per_trader, and none of the ${run.cells.length} candidates run so far paid a payout in ${days} trade dates: the net is fee income only, which rises as more traders fail, so the search would choose the harshest plan; run a period long enough for the funded stage to pay out (market.resample: { block_sessions: 5 } fills one from the market files), or pass --allow-fees-only to maximize fee income knowingly`,
  );
}
