// Which cell of a back-test is "best", the one rule every output uses: the highest net for the firm, or the most
// passers (every cell has the same traders, so that is also the highest pass rate); the lower index on a tie. While
// a funded stage paid nothing anywhere, the net is fee income only and names no cell best
// (docs/backtesting.md#what-the-firm-still-owes).
import type { BacktestConfig } from '../config/backtest-config.js';
import type { CellResult } from '../cells/cell-runner.js';
import type { CellMetrics, RunStatistics } from './decisions.js';

export function highestNetCell(cells: readonly CellResult[]): CellResult | undefined {
  return bestBy(cells, (c) => c.summary.netCents);
}

/**
 * A funded stage is configured and no cell paid a payout: the net per trader is fee income only, and rises with the
 * failure rate, so no cell is better for the firm on it (the `no_payouts` warning).
 */
export function feesOnly(config: Pick<BacktestConfig, 'economics'>, cells: readonly CellResult[]): boolean {
  return config.economics.funnel?.funded !== undefined && cells.every((c) => c.summary.payoutsCents === 0);
}

/** The cell the outputs call best for the firm on net: the highest, unless the net is fee income only. */
export function bestNetCell(
  config: Pick<BacktestConfig, 'economics'>,
  cells: readonly CellResult[],
): CellResult | undefined {
  return feesOnly(config, cells) ? undefined : highestNetCell(cells);
}

export function mostPassingCell(cells: readonly CellResult[]): CellResult | undefined {
  return bestBy(cells, (c) => c.summary.passed);
}

function bestBy(cells: readonly CellResult[], score: (cell: CellResult) => number): CellResult | undefined {
  let best: CellResult | undefined;
  for (const cell of cells) if (best === undefined || score(cell) > score(best)) best = cell;
  return best;
}

/**
 * The cells whose net per trader's 95 % interval reaches the best cell's: while any does, the run cannot say the best
 * is best (docs/backtesting.md#signal-or-noise). `best` is a cell index.
 */
export function cellsOverlappingOnNet(statistics: RunStatistics, best: number): CellMetrics[] {
  const top = statistics.cells.find((c) => c.cell === best)!.metrics.net_per_trader;
  return statistics.cells.filter((c) => c.cell !== best && c.metrics.net_per_trader.high >= top.low);
}
