// What `propsim backtest` and the demo print when a back-test is done: the grid, the pass rates, the best net,
// which differences are beyond noise, the speed and where the report is.
import type { BacktestRun } from '../backtest/run-backtest.js';
import { highestNetCell } from '../backtest/cell-ranking.js';
import { againstFirstCell, compareAllCells, noiseGuidance } from '../backtest/signal-or-noise.js';
import { formatUsd } from './usd.js';

/** Which cells differ from #0 beyond noise, and what the trader count can resolve (docs/backtesting.md#signal-or-noise). */
function noiseLines(run: BacktestRun): string[] {
  if (run.cells.length < 2) return [];
  const against = againstFirstCell(compareAllCells(run.cells));
  const real = against.filter((c) => !c.withinNoise).map((c) => `#${c.second}`);
  const g = noiseGuidance(run.cells);
  return [
    `against cell #0, ${real.length} of ${against.length} cells differ beyond noise${real.length > 0 ? ` (${real.join(', ')})` : ''} (paired McNemar test, p < 0.05)`,
    `${g.traders.toLocaleString('en-US')} traders resolve differences of about ${(g.detectableDifference * 100).toFixed(1)} points in pass rate; see report.html "Signal or noise"`,
  ];
}

/** The lines printed after a back-test (docs/backtesting.md#outputs), without their newlines. */
export function backtestSummaryLines(run: BacktestRun, folder: string, seconds: number, workers: number): string[] {
  const cells = run.cells;
  const accounts = cells.reduce((n, c) => n + c.summary.accounts, 0);
  const rates = cells.map((c) => Number(c.summary.passRate) * 100);
  const best = highestNetCell(cells)!;
  const sessionDays = cells.reduce((n, c) => n + c.accountSessionDays, 0);
  return [
    `${run.config.name}: ${cells.length} cells × ${cells[0]?.summary.accounts ?? 0} traders = ${accounts.toLocaleString('en-US')} accounts, ${run.config.period.from} to ${run.config.period.to}`,
    `pass rate from ${Math.min(...rates).toFixed(1)}% to ${Math.max(...rates).toFixed(1)}% across the grid`,
    `highest net: cell #${best.cell.index} (${best.cell.label}) ${formatUsd(best.summary.netCents)} at ${(Number(best.summary.passRate) * 100).toFixed(1)}% passing`,
    ...noiseLines(run),
    `${seconds.toFixed(1)} s on ${workers} worker${workers === 1 ? '' : 's'}: ${Math.round(sessionDays / seconds).toLocaleString('en-US')} account-session-days/s`,
    `report: ${folder}/report.html (and cells.csv, traders.csv, summary.json)`,
  ];
}
