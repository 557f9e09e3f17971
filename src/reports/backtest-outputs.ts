// What `propsim backtest` writes in --out: cells.csv, traders.csv, summary.json and report.html. Written into a
// staging folder and renamed into place, so an interrupted run leaves nothing half-written.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { formatCents } from '../core/money.js';
import { backtestReportHtml } from './backtest-report.js';
import type { BacktestRun } from '../backtest/run-backtest.js';
import { bestNetCell } from '../backtest/stats/cell-ranking.js';
import { cellIncidence, openAtEnd } from '../backtest/stats/first-outcomes.js';
import type { Incidence } from '../backtest/stats/incidence.js';
import { runWarnings } from './run-warnings.js';
import { FUNNEL_TRADER_COLUMNS, funnelEconomicsDocument, funnelTraderCells } from './backtest-funnel.js';
import { gridSize } from '../backtest/config/cell-subset.js';
import { gridValueText } from '../backtest/config/grid.js';
import { METRICS, noiseGuidance, type Estimate, type Metric } from '../backtest/stats/decisions.js';
import { fourPlaces, pairedCounts } from '../backtest/stats/statistics.js';
import type { DroppedFills } from '../backtest/fills/dropped-fills.js';
import type { TraderFillsAgainstMarket } from '../backtest/fills/off-market-fills.js';
import { missingPrintsOf } from './missing-prints.js';
import { csv } from './csv.js';
import { summarizeValidation } from '../backtest/validation/compare-records.js';
import { validationCsv, validationDocument } from './validation-outputs.js';
import { cellOffMarket, OFF_MARKET_COLUMNS, traderOffMarket } from './off-market-fills.js';

export { csv } from './csv.js';

/**
 * Historical fills the engine dropped, by why, and the positions the account opened that the trader's own fills
 * never had (docs/backtesting.md#fills-the-engine-dropped); last in both CSVs.
 */
const DROPPED_COLUMNS = ['fills_dropped_locked', 'fills_dropped_failed', 'fills_dropped_passed', 'positions_never_had'];

function droppedCells(d: DroppedFills, positionsNeverHad: number): number[] {
  return [d.locked, d.failed, d.passed, positionsNeverHad];
}

function offMarketCells(counts: TraderFillsAgainstMarket): number[] {
  return [counts.offMarket, counts.noMarket];
}

function offMarketDocument(counts: TraderFillsAgainstMarket): { fills_off_market: number; fills_no_market: number } {
  return { fills_off_market: counts.offMarket, fills_no_market: counts.noMarket };
}

/**
 * The first evaluation's outcome and its trade date (docs/backtesting.md#outcomes-in-time), after the columns above;
 * with a funded stage, then what the firm owes the trader's open funded account (#what-the-firm-still-owes); last,
 * the historical fills off the market and those with no market to compare (#fills-off-the-market).
 */
const FIRST_OUTCOME_COLUMNS = ['first_outcome', 'first_outcome_day'];

export function cellsCsv(run: BacktestRun): string {
  const keys = run.config.grid.map((axis) => axis.key);
  const header = [
    'cell',
    ...keys,
    'accounts',
    'passed',
    'failed_max_loss',
    'daily_lock_days',
    'pass_rate',
    'median_days_to_pass',
    'median_days_to_fail',
    'mean_final_balance',
    'revenue',
    'payouts',
    'net',
    'pass_rate_low',
    'pass_rate_high',
    'fail_rate',
    'fail_rate_low',
    'fail_rate_high',
    'net_per_trader',
    'net_per_trader_low',
    'net_per_trader_high',
    ...DROPPED_COLUMNS,
    ...OFF_MARKET_COLUMNS,
    // Added after the others, so a reader of the columns before keeps working: accounts failed by any rule
    // (failed_max_loss counts max-loss breaches only; docs/backtesting.md#per-cell-cellscsv-summaryjson).
    'failed',
  ];
  const rows = run.cells.map(({ cell, summary: s }, i) => [
    cell.index,
    ...keys.map((k) => gridValueText(cell.values[k])),
    s.accounts,
    s.passed,
    s.failedMaxLoss,
    s.dailyLockDays,
    s.passRate,
    s.medianDaysToPass,
    s.medianDaysToFail,
    formatCents(s.meanFinalBalanceCents),
    formatCents(s.revenueCents),
    formatCents(s.payoutsCents),
    formatCents(s.netCents),
    ...metricColumns(run, i).slice(1),
    ...droppedCells(s.droppedFills, s.positionsNeverHad),
    ...offMarketCells(cellOffMarket(run, run.cells[i]!)),
    s.failed,
  ]);
  return csv(header, rows);
}

export function tradersCsv(run: BacktestRun): string {
  const funded = run.config.economics.funnel?.funded !== undefined;
  const header = [
    'cell',
    'trader',
    'strategy',
    'outcome',
    'cause',
    'days',
    'trading_days',
    'daily_lock_days',
    'final_balance',
    'net',
    ...(run.config.economics.funnel ? FUNNEL_TRADER_COLUMNS : []),
    ...DROPPED_COLUMNS,
    ...FIRST_OUTCOME_COLUMNS,
    ...(funded ? ['open_liability'] : []),
    ...OFF_MARKET_COLUMNS,
  ];
  const rows = run.cells.flatMap(({ cell, traders }) =>
    traders.map((t) => [
      cell.index,
      t.trader,
      t.strategy,
      t.outcome,
      t.cause,
      t.days,
      t.tradingDays,
      t.dailyLockDays,
      formatCents(t.finalBalanceCents),
      formatCents(t.netCents),
      ...(t.funnel ? funnelTraderCells(t) : []),
      ...droppedCells(t.droppedFills, t.positionsNeverHad),
      t.firstOutcome,
      t.firstOutcomeDay,
      ...(funded ? [formatCents(t.funnel!.openLiabilityCents)] : []),
      ...offMarketCells(traderOffMarket(run, t.trader)),
    ]),
  );
  return csv(header, rows);
}

/** summary.json: the run's identity and every cell's metrics, as decimal strings; no timings (they vary). */
export function summaryDocument(run: BacktestRun): Record<string, unknown> {
  const { config, statistics } = run;
  const best = bestNetCell(config, run.cells);
  const missingPrints = missingPrintsOf(run);
  const funded = config.economics.funnel?.funded !== undefined;
  const tape = run.cells[0]?.tape;
  return {
    name: config.name,
    config: config.file,
    seed: config.seed,
    subset: config.cells === undefined ? null : { cells: config.cells, grid_cells: gridSize(config) },
    compare_to: statistics.reference,
    period: config.period,
    base_plan: config.basePlanName,
    grid: Object.fromEntries(config.grid.map((axis) => [axis.key, axis.values])),
    traders: run.cells[0]?.summary.accounts ?? 0,
    ...(tape === undefined ? {} : { resample: tape }),
    warnings: runWarnings(run),
    ...validationKey(run),
    ...(missingPrints === undefined ? {} : { missing_prints: missingPrints }),
    cells: run.cells.map(({ cell, summary: s }, i) => ({
      cell: cell.index,
      values: cell.values,
      accounts: s.accounts,
      passed: s.passed,
      failed_max_loss: s.failedMaxLoss,
      failed: s.failed,
      active: s.active,
      daily_lock_days: s.dailyLockDays,
      fills_dropped: s.droppedFills,
      positions_never_had: s.positionsNeverHad,
      ...offMarketDocument(cellOffMarket(run, run.cells[i]!)),
      pass_rate: s.passRate,
      median_days_to_pass: s.medianDaysToPass,
      median_days_to_fail: s.medianDaysToFail,
      mean_final_balance: formatCents(s.meanFinalBalanceCents),
      revenue: formatCents(s.revenueCents),
      payouts: formatCents(s.payoutsCents),
      net: formatCents(s.netCents),
      causes: s.causes,
      pass_rate_95: { low: metricColumns(run, i)[1], high: metricColumns(run, i)[2] },
      metrics: Object.fromEntries(METRICS.map((m) => [m, estimateDocument(m, statistics.cells[i]!.metrics[m])])),
      ...funnelEconomicsDocument(s, funded, config.economics.funnel?.funded?.payout.maxCount !== undefined),
      open_at_end: fourPlaces(s.accounts === 0 ? 0 : openAtEnd(run.cells[i]!) / s.accounts),
      incidence: cellIncidence(run.cells[i]!).map((point) => ({
        day: point.day,
        at_risk: point.atRisk,
        pass: incidenceDocument(point.pass),
        fail: incidenceDocument(point.fail),
      })),
    })),
    best_net_cell: best ? best.cell.index : null,
    comparisons: comparisonsDocument(run),
    decisions: statistics.decisions.map((d) => ({
      cell: d.cell,
      reference: d.reference,
      metric: d.metric,
      difference: format(d.metric, d.difference),
      low: format(d.metric, d.low),
      high: format(d.metric, d.high),
      p: fourPlaces(d.p),
      // Nothing is resampled: every p is exact or analytic (docs/backtesting.md#signal-or-noise).
      p_mc_se: '0.0000',
      p_adjusted: fourPlaces(d.pAdjusted),
      verdict: d.verdict,
      interval_level: d.level.toFixed(6),
      moved: d.moved,
      detectable: d.detectable === null ? null : format(d.metric, d.detectable),
      ...(d.restsOn ? { rests_on: { traders: d.restsOn.traders, settle: d.restsOn.settle } } : {}),
    })),
    // Kept for readers of earlier files: nothing is drawn any more.
    resampling: { bootstrap: 0, sign_flips: 0 },
    guidance: guidanceDocument(run),
  };
}

function incidenceDocument({ value, low, high }: Incidence): { value: string; low: string; high: string } {
  return { value: fourPlaces(value), low: fourPlaces(low), high: fourPlaces(high) };
}

/** Rates with four places, money per trader as a decimal string of dollars. */
function format(metric: Metric, x: number): string {
  return metric === 'net_per_trader' ? formatCents(x) : fourPlaces(x);
}

function estimateDocument(metric: Metric, e: Estimate): { value: string; low: string; high: string } {
  return { value: format(metric, e.value), low: format(metric, e.low), high: format(metric, e.high) };
}

/** A cell's metrics with their 95 % intervals, in cells.csv's order: value, low, high for each metric. */
function metricColumns(run: BacktestRun, i: number): string[] {
  const metrics = run.statistics.cells[i]!.metrics;
  return METRICS.flatMap((m) => Object.values(estimateDocument(m, metrics[m])));
}

/**
 * Today's `comparisons`, kept for readers of earlier files: each cell against the reference on pass rate (exact
 * McNemar), with `within_noise` from the Holm-adjusted p the decisions use.
 */
function comparisonsDocument(run: BacktestRun): Record<string, unknown>[] {
  const byIndex = new Map(run.cells.map((c) => [c.cell.index, c]));
  const passedIn = (index: number) => byIndex.get(index)!.traders.map((t) => t.outcome === 'passed');
  return run.statistics.decisions
    .filter((d) => d.metric === 'pass_rate')
    .map((d) => {
      const counts = pairedCounts(passedIn(d.reference), passedIn(d.cell));
      return {
        first: d.reference,
        second: d.cell,
        passed_first: byIndex.get(d.reference)!.summary.passed,
        passed_second: byIndex.get(d.cell)!.summary.passed,
        only_first: counts.onlyFirst,
        only_second: counts.onlySecond,
        p_value: fourPlaces(d.p),
        p_adjusted: fourPlaces(d.pAdjusted),
        within_noise: d.verdict === 'no_evidence',
      };
    });
}

function guidanceDocument(run: BacktestRun): Record<string, unknown> {
  const g = noiseGuidance(run.cells, run.statistics);
  const places = (x: number | null) => (x === null ? null : fourPlaces(x));
  return {
    traders: g.traders,
    mean_pass_rate: fourPlaces(g.meanPassRate),
    discordance: places(g.discordance),
    comparisons: run.statistics.decisions.length,
    z: fourPlaces(run.statistics.z),
    detectable_difference: places(g.detectableDifference),
    discordance_95: g.discordanceRange && {
      low: fourPlaces(g.discordanceRange.low),
      high: fourPlaces(g.discordanceRange.high),
    },
    traders_for_difference: g.tradersFor.map((t) => ({
      difference: fourPlaces(t.difference),
      traders: t.traders,
      low: t.low,
      high: t.high,
    })),
  };
}

/** The reference cell's traders against the firm's records, when the config gives them. */
export function referenceValidation(run: BacktestRun) {
  return run.cells.find((c) => c.cell.index === run.statistics.reference)?.validation;
}

/** summary.json `validation` (docs/backtesting.md#validation-against-the-firms-records), with records only. */
function validationKey(run: BacktestRun): { validation?: Record<string, unknown> } {
  const rows = referenceValidation(run);
  return rows ? { validation: validationDocument(summarizeValidation(rows), run.statistics.reference) } : {};
}

/** A back-test's output files, by name: drawn here, written by writeBacktestOutputs; validation.csv with records. */
export function backtestOutputFiles(run: BacktestRun): Record<string, string> {
  const validation = referenceValidation(run);
  return {
    'cells.csv': cellsCsv(run),
    'traders.csv': tradersCsv(run),
    'summary.json': JSON.stringify(summaryDocument(run), null, 2) + '\n',
    'report.html': backtestReportHtml(run),
    ...(validation ? { 'validation.csv': validationCsv(validation) } : {}),
  };
}

/**
 * Writes the files into `outDir`, replacing only those: anything else in the folder stays. They are all written to a
 * staging folder first, then moved in, so a failure leaves no half-written file.
 */
export function writeBacktestOutputs(files: Record<string, string>, outDir: string): string {
  const target = resolve(outDir);
  mkdirSync(target, { recursive: true });
  const staging = join(dirname(target), `.${basename(target)}.partial-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(staging, name), text);
    for (const name of Object.keys(files)) renameSync(join(staging, name), join(target, name));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}
