// `propsim optimize` (docs/optimizing.md): successive halving over the search's candidate plans, the choice made on
// the search's own traders (the last stage's best), then a confirmation of that one plan, beside the base plan, on
// traders the search never saw. Each stage and the confirmation are runs of runBacktest (optimize-runs.ts).
import type { BacktestConfig } from '../config/backtest-config.js';
import { BacktestInputError } from '../backtest-input-error.js';
import type { CellResult } from '../cells/cell-runner.js';
import { expandGrid, type GridCell } from '../config/grid.js';
import { runBacktest } from '../run-backtest.js';
import { judgeStage, leastKept, withinBudget, type Evaluation, type StageVerdict } from './candidate-ranking.js';
import { choiceStability } from './choice-stability.js';
import { confirm, type Confirmation } from './confirmation.js';
import { planPasserNet, withHonestNet } from './honest-net.js';
import { tradersToJudge } from './judgeable-traders.js';
import type { OptimizeConfig } from './optimize-config.js';
import { cellsOf, evaluationsOf, passThrough, refuseFeesOnlyNet, type OptimizeOptions } from './optimize-runs.js';
import { fillsTraders, periodDays, splitFillsTraders, syntheticCount, withPopulation } from './search-population.js';

export type { OptimizeOptions, OptimizeProgress } from './optimize-runs.js';

/** Plans the confirmation runs: the chosen one and the base plan. */
export const CONFIRMED_PLANS = 2;

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

/** How the search chose: its last stage's best, and how often resamples of that stage's traders agree. */
export interface SearchChoice {
  candidate: number;
  /** The last stage's candidates all lay outside a constraint: chosen on the objective alone. */
  outsideConstraints: boolean;
  /** The share of resamples in which it still ranks first (choice-stability.ts); null without a stage. */
  stability: number | null;
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
  choice: SearchChoice;
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
  const confirmationDays = config.confirmationPeriod
    ? periodDays({ ...base, period: config.confirmationPeriod })
    : days;
  const confirmationCost = CONFIRMED_PLANS * (syntheticCount(base) + split.heldOut.length) * confirmationDays;
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
  let lastCells: CellResult[] = [];
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
    lastCells = run.cells;
  }
  const choice = chooseOnSearch(config, stages, lastCells, alive[0]!);
  const confirmation = await confirm(config, choice.candidate, split.heldOut, confirmationDays, options, plannedStages);
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
    choice,
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

/**
 * The search's choice: the last stage's best by the objective's least flattering bound, among the candidates not
 * outside a constraint (judgeStage); the only candidate when there was no stage. The confirmation does not change it.
 */
function chooseOnSearch(
  config: OptimizeConfig,
  stages: readonly StageResult[],
  lastCells: readonly CellResult[],
  onlyCandidate: number,
): SearchChoice {
  const last = stages[stages.length - 1];
  if (!last) return { candidate: onlyCandidate, outsideConstraints: false, stability: null };
  const candidate = last.verdict.ranked[0]!;
  return {
    candidate,
    outsideConstraints: last.verdict.dropped.includes(candidate),
    stability: choiceStability(lastCells, candidate, config.objective, config.constraints, config.backtest.seed),
  };
}
