// What `propsim backtest` writes in --out: cells.csv, traders.csv, summary.json and report.html. Written into a
// staging folder and renamed into place, so an interrupted run leaves nothing half-written.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { formatCents } from '../core/money.js';
import { backtestReportHtml } from './backtest-report.js';
import type { BacktestRun } from '../backtest/run-backtest.js';
import { highestNetCell } from '../backtest/cell-ranking.js';
import { compareAllCells, noiseGuidance } from '../backtest/signal-or-noise.js';
import { fourPlaces, wilsonInterval } from '../backtest/statistics.js';
import { FUNNEL_TRADER_COLUMNS, funnelEconomicsDocument, funnelTraderCells } from './backtest-funnel.js';

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(header: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

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
  ];
  const rows = run.cells.map(({ cell, summary: s }) => [
    cell.index,
    ...keys.map((k) => cell.values[k] ?? 'none'),
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
    ...passRateInterval(s.passed, s.accounts),
  ]);
  return csv(header, rows);
}

export function tradersCsv(run: BacktestRun): string {
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
    ...(run.config.economics.funnel ? FUNNEL_TRADER_COLUMNS : []),
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
      ...(t.funnel ? funnelTraderCells(t) : []),
    ]),
  );
  return csv(header, rows);
}

/** summary.json: the run's identity and every cell's metrics, as decimal strings; no timings (they vary). */
export function summaryDocument(run: BacktestRun): Record<string, unknown> {
  const { config } = run;
  const best = highestNetCell(run.cells);
  return {
    name: config.name,
    config: config.file,
    seed: config.seed,
    period: config.period,
    base_plan: config.basePlanName,
    grid: Object.fromEntries(config.grid.map((axis) => [axis.key, axis.values])),
    traders: run.cells[0]?.summary.accounts ?? 0,
    cells: run.cells.map(({ cell, summary: s }) => ({
      cell: cell.index,
      values: cell.values,
      accounts: s.accounts,
      passed: s.passed,
      failed_max_loss: s.failedMaxLoss,
      active: s.active,
      daily_lock_days: s.dailyLockDays,
      pass_rate: s.passRate,
      median_days_to_pass: s.medianDaysToPass,
      median_days_to_fail: s.medianDaysToFail,
      mean_final_balance: formatCents(s.meanFinalBalanceCents),
      revenue: formatCents(s.revenueCents),
      payouts: formatCents(s.payoutsCents),
      net: formatCents(s.netCents),
      causes: s.causes,
      pass_rate_95: intervalDocument(s.passed, s.accounts),
      ...funnelEconomicsDocument(s),
    })),
    best_net_cell: best ? best.cell.index : null,
    comparisons: compareAllCells(run.cells).map((c) => ({
      first: c.first,
      second: c.second,
      passed_first: c.passedFirst,
      passed_second: c.passedSecond,
      only_first: c.onlyFirst,
      only_second: c.onlySecond,
      p_value: fourPlaces(c.pValue),
      within_noise: c.withinNoise,
    })),
    guidance: guidanceDocument(run),
  };
}

/** The 95 % Wilson interval of a pass rate, as two decimal strings (docs/backtesting.md#signal-or-noise). */
function passRateInterval(passed: number, accounts: number): [string, string] {
  const { low, high } = wilsonInterval(passed, accounts);
  return [fourPlaces(low), fourPlaces(high)];
}

function intervalDocument(passed: number, accounts: number): { low: string; high: string } {
  const [low, high] = passRateInterval(passed, accounts);
  return { low, high };
}

function guidanceDocument(run: BacktestRun): Record<string, unknown> {
  const g = noiseGuidance(run.cells);
  return {
    traders: g.traders,
    mean_pass_rate: fourPlaces(g.meanPassRate),
    detectable_difference: fourPlaces(g.detectableDifference),
    traders_for_difference: g.tradersFor.map((t) => ({ difference: fourPlaces(t.difference), traders: t.traders })),
  };
}

/** The four files of a back-test's outputs, by name: drawn here, written by writeBacktestOutputs. */
export function backtestOutputFiles(run: BacktestRun): Record<string, string> {
  return {
    'cells.csv': cellsCsv(run),
    'traders.csv': tradersCsv(run),
    'summary.json': JSON.stringify(summaryDocument(run), null, 2) + '\n',
    'report.html': backtestReportHtml(run),
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
