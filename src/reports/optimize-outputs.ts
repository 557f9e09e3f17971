// What `propsim optimize` writes in --out (docs/optimizing.md#outputs): candidates.csv, front.csv, chosen-plan.yaml,
// summary.json and report.html, drawn here and moved into place together (writeBacktestOutputs' staging folder), so
// an interrupted run leaves nothing half-written. Rates with four places, money as decimal strings: byte-identical
// for a seed.
import { stringify } from 'yaml';
import { METRICS, type Estimate, type Metric } from '../backtest/stats/decisions.js';
import { gridValueText, planForCell } from '../backtest/config/grid.js';
import { fourPlaces } from '../backtest/stats/statistics.js';
import { STABILITY_RESAMPLES } from '../backtest/optimize/choice-stability.js';
import type { OptimizeRun } from '../backtest/optimize/run-optimize.js';
import { csv } from './backtest-outputs.js';
import { optimizeReportHtml } from './optimize-report.js';
import { constraintsVerdict, metricText, versusBaseVerdict } from './optimize-words.js';
import { lastEvaluations, paretoFront } from '../backtest/optimize/pareto-front.js';

const METRIC_COLUMNS = METRICS.flatMap((m) => [m, `${m}_low`, `${m}_high`]);

function metricCells(metrics: Record<Metric, Estimate>): string[] {
  return METRICS.flatMap((m) => [metrics[m].value, metrics[m].low, metrics[m].high].map((x) => metricText(m, x)));
}

export function metricsDocument(metrics: Record<Metric, Estimate>): Record<string, unknown> {
  return Object.fromEntries(
    METRICS.map((m) => [
      m,
      {
        value: metricText(m, metrics[m].value),
        low: metricText(m, metrics[m].low),
        high: metricText(m, metrics[m].high),
      },
    ]),
  );
}

/** The value a dotted plan field has in a plan: `none` when it is absent. */
function fieldOf(plan: Record<string, unknown>, key: string): unknown {
  let node: unknown = plan;
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return node ?? 'none';
}

/** Every evaluation: each stage's candidates (kept, cut or dropped), then the confirmation's chosen and base plan. */
export function candidatesCsv(run: OptimizeRun): string {
  const keys = run.config.backtest.grid.map((axis) => axis.key);
  const values = (candidate: number) => keys.map((k) => gridValueText(run.candidates[candidate]!.values[k]));
  const header = ['stage', 'candidate', ...keys, 'traders', ...METRIC_COLUMNS, 'result'];
  const rows = run.stages.flatMap((stage) =>
    stage.evaluations.map((e) => [
      stage.stage,
      e.candidate,
      ...values(e.candidate),
      stage.traders,
      ...metricCells(e.metrics),
      stage.verdict.dropped.includes(e.candidate)
        ? 'dropped'
        : stage.verdict.kept.includes(e.candidate)
          ? 'kept'
          : 'cut',
    ]),
  );
  const { confirmation: c } = run;
  const confirmed = [
    'confirmation',
    c.chosen,
    ...values(c.chosen),
    c.traders,
    ...metricCells(c.evaluation.metrics),
    'chosen',
  ];
  const basePlan = run.config.backtest.basePlan as Record<string, unknown>;
  const base = [
    'confirmation',
    'base',
    ...keys.map((k) => fieldOf(basePlan, k)),
    c.traders,
    ...metricCells(c.base),
    'base_plan',
  ];
  return csv(header, [...rows, confirmed, base]);
}

export function frontCsv(run: OptimizeRun): string {
  const keys = run.config.backtest.grid.map((axis) => axis.key);
  const header = ['candidate', ...keys, 'stage', 'traders', ...METRIC_COLUMNS];
  return csv(
    header,
    paretoFront(lastEvaluations(run)).map((e) => [
      e.candidate,
      ...keys.map((k) => gridValueText(run.candidates[e.candidate]!.values[k])),
      e.stage,
      e.traders,
      ...metricCells(e.metrics),
    ]),
  );
}

/** The chosen candidate's plan: the base plan with its values set. */
export function chosenPlan(run: OptimizeRun): Record<string, unknown> {
  const values = run.candidates[run.confirmation.chosen]!.values;
  return planForCell(run.config.backtest.basePlan, values);
}

/** A plan file `propsim backtest` takes as base_plan (plans/chosen-plan.yaml beside a config). */
export function chosenPlanYaml(run: OptimizeRun): string {
  const { confirmation: c } = run;
  const candidate = run.candidates[c.chosen]!;
  const lines = [
    `# Chosen by propsim optimize from ${run.config.backtest.file} (seed ${run.seed}): candidate #${c.chosen},`,
    `# ${candidate.label}, on ${run.config.backtest.basePlanName}.`,
    `# Confirmed on ${c.traders} traders the search never saw (seed ${c.seed}, ${c.period.from} to ${c.period.to}):`,
    `# ${constraintsVerdict(run)}; ${versusBaseVerdict(run)}.`,
  ];
  return `${lines.join('\n')}\n${stringify(chosenPlan(run))}`;
}

function stageDocument(run: OptimizeRun): Record<string, unknown>[] {
  return run.stages.map((s) => ({
    stage: s.stage,
    candidates: s.evaluations.length,
    synthetic_traders: s.synthetic,
    fills_traders: run.searchFills.length,
    traders: s.traders,
    account_days: s.accountDays,
    kept: s.verdict.kept,
    dropped: s.verdict.dropped,
    over_budget: s.verdict.overBudget,
  }));
}

export function summaryDocument(run: OptimizeRun): Record<string, unknown> {
  const { config, confirmation: c } = run;
  const chosen = run.candidates[c.chosen]!;
  const lastSearch = lastEvaluations(run).find((e) => e.candidate === c.chosen)!;
  const checks = c.checks.map((check) => ({
    metric: check.metric,
    bound: check.bound,
    value: check.text,
    interval: {
      low: metricText(check.metric, check.interval.low),
      high: metricText(check.metric, check.interval.high),
    },
    verdict: check.verdict === 'no_evidence' ? 'no evidence either way' : check.verdict,
  }));
  const confirmation = metricsDocument(c.evaluation.metrics);
  const d = c.versusBase;
  const searchAccountDays = run.stages.reduce((n, s) => n + s.accountDays, 0);
  return {
    name: config.backtest.name,
    config: config.backtest.file,
    seed: run.seed,
    objective: { [config.objective.direction]: config.objective.metric },
    constraints: Object.fromEntries(config.constraints.map((k) => [k.metric, k.text])),
    budget: run.budget,
    budget_default: run.defaultBudget,
    base_plan: { name: config.backtest.basePlanName, confirmation: metricsDocument(c.base) },
    candidates: run.candidates.length,
    search: Object.fromEntries(config.backtest.grid.map((axis) => [axis.key, axis.values])),
    period: { ...config.backtest.period, trade_dates: run.days },
    stages: stageDocument(run),
    planned_stages: run.plannedStages,
    // Kept for readers of earlier files: the confirmation now runs the chosen plan alone.
    finalists: [{ candidate: c.chosen, values: chosen.values, confirmation, constraints: checks }],
    chosen: {
      candidate: c.chosen,
      label: chosen.label,
      values: chosen.values,
      plan: chosenPlan(run),
      search: {
        stage: lastSearch.stage,
        traders: lastSearch.traders,
        metrics: metricsDocument(lastSearch.metrics),
        outside_constraints: run.choice.outsideConstraints,
      },
      stability: run.choice.stability === null ? null : fourPlaces(run.choice.stability),
      stability_resamples: run.choice.stability === null ? 0 : STABILITY_RESAMPLES,
      confirmation: {
        seed: c.seed,
        period: { ...c.period, trade_dates: c.days },
        traders: c.traders,
        synthetic_traders: c.synthetic,
        fills_traders: c.fills,
        metrics: confirmation,
        constraints: checks,
      },
      versus_base: {
        metric: d.metric,
        difference: metricText(d.metric, d.difference),
        low: metricText(d.metric, d.low),
        high: metricText(d.metric, d.high),
        p: fourPlaces(d.p),
        p_adjusted: fourPlaces(d.pAdjusted),
        verdict: d.verdict,
        interval_level: d.level.toFixed(6),
        words: versusBaseVerdict(run),
      },
    },
    constraints_met: c.constraintsMet,
    // Only with --allow-fees-only can the chosen plan's net be fee income only (docs/optimizing.md#fee-income-only).
    warnings: c.feesOnly
      ? [
          {
            code: 'no_payouts',
            message:
              'the chosen plan paid no payout on the confirmation: its net per trader is fee income only, which rises as more traders fail; the plan was chosen on it because --allow-fees-only was given',
          },
        ]
      : [],
    verdict: constraintsVerdict(run),
    correction: {
      method: 'bonferroni',
      comparisons: c.comparisons,
      level: c.comparisons === 0 ? null : fourPlaces(0.05 / c.comparisons),
    },
    search_fills_traders: run.searchFills,
    evaluated: run.stages.reduce((n, s) => n + s.evaluations.length, 0) + 2,
    account_days: run.accountDays,
    search_account_days: searchAccountDays,
    confirmation_account_days: c.accountDays,
  };
}

/** The five files, by name: drawn here, written by writeBacktestOutputs. */
export function optimizeOutputFiles(run: OptimizeRun): Record<string, string> {
  return {
    'candidates.csv': candidatesCsv(run),
    'front.csv': frontCsv(run),
    'chosen-plan.yaml': chosenPlanYaml(run),
    'summary.json': JSON.stringify(summaryDocument(run), null, 2) + '\n',
    'report.html': optimizeReportHtml(run),
  };
}
