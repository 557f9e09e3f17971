// `propsim backtest --cells 0,5` and `--seed N` (docs/backtesting.md#running): a subset of the grid's cells, which keep
// their grid indices, and another seed, set on the config without editing it.
import type { BacktestConfig } from './backtest-config.js';
import { BacktestInputError } from '../backtest-input-error.js';
import { expandGrid, type GridCell } from './grid.js';

/** The config with only the cells listed (e.g. "0,5"), checked against the grid and the reference cell. */
export function withCellSubset(config: BacktestConfig, list: string): BacktestConfig {
  const last = expandGrid(config.grid).length - 1;
  const items = list.split(',').map((item) => item.trim());
  const bad = items.find((item) => !/^\d+$/.test(item) || Number(item) > last);
  if (bad !== undefined)
    throw new BacktestInputError(
      `--cells: expected grid cell indices from 0 to ${last} (${config.file} has ${last + 1} cells), separated by commas, got ${JSON.stringify(bad)}`,
    );
  const cells = [...new Set(items.map(Number))].sort((a, b) => a - b);
  if (!cells.includes(config.compareTo))
    throw new BacktestInputError(
      `--cells: must include the reference cell #${config.compareTo} (compare_to in ${config.file}), which every other cell is compared with; got ${list}`,
    );
  return { ...config, cells };
}

/** The cells a run runs: the whole grid, or the subset `--cells` chose, each with its grid index. */
export function cellsToRun(config: BacktestConfig): GridCell[] {
  const grid = expandGrid(config.grid);
  return config.cells === undefined ? grid : grid.filter((cell) => config.cells!.includes(cell.index));
}

/** How many cells the whole grid has (a subset run says "2 of 12"). */
export function gridSize(config: BacktestConfig): number {
  return config.grid.reduce((n, axis) => n * axis.values.length, 1);
}
