// Runs every cell of a back-test: in this thread for one worker, else on a piscina pool of worker threads.
// Results are put back in cell order, so the outputs are byte-identical for any number of workers.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { loadHolidayFile, packageRoot } from '../market/holiday-file.js';
import type { BacktestConfig } from './backtest-config.js';
import { runCell, type CellResult } from './cell-runner.js';
import type { WorkerAnswer } from './cell-worker.js';
import { BacktestInputError } from './backtest-input-error.js';
import { cellsToRun } from './cell-subset.js';
import { runStatistics, type RunStatistics } from './decisions.js';

export interface BacktestProgress {
  cellsDone: number;
  cells: number;
  accounts: number;
  prints: number;
}

export interface BacktestRun {
  config: BacktestConfig;
  /** The cells run, in grid order (a subset keeps each cell's grid index). */
  cells: CellResult[];
  /** Intervals and decisions against the reference cell (docs/backtesting.md#signal-or-noise). */
  statistics: RunStatistics;
}

export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

export async function runBacktest(
  config: BacktestConfig,
  options: { workers: number; signal?: AbortSignal; onProgress?: (progress: BacktestProgress) => void },
): Promise<BacktestRun> {
  const cells = cellsToRun(config);
  const positions = new Map(cells.map((cell, i) => [cell.index, i]));
  const results: CellResult[] = new Array(cells.length);
  const progress: BacktestProgress = { cellsDone: 0, cells: cells.length, accounts: 0, prints: 0 };
  const done = (result: CellResult) => {
    results[positions.get(result.cell.index)!] = result;
    progress.cellsDone++;
    progress.accounts += result.summary.accounts;
    progress.prints += result.prints;
    options.onProgress?.({ ...progress });
  };
  if (options.workers <= 1 || cells.length === 1) {
    const calendar = new GlobexCalendar(loadHolidayFile());
    for (const cell of cells) {
      options.signal?.throwIfAborted();
      done(await runCell({ config, cell }, calendar));
    }
    return withStatistics(config, results);
  }
  // The compiled worker: tests and the CLI both run after `npm run build`.
  const pool = new Piscina({
    filename: join(packageRoot(), 'dist', 'src', 'backtest', 'cell-worker.js'),
    maxThreads: options.workers,
    minThreads: 1,
    // Node 20's require() of an ES module, which piscina tries first, now and then aborts the process in a worker
    // (an assertion in CreateRequiredModuleFacade); without it piscina loads the module with import().
    execArgv: ['--no-experimental-require-module'],
  });
  try {
    await Promise.all(
      cells.map(async (cell) => {
        const answer = (await pool.run(
          { config, cell },
          options.signal ? { signal: options.signal } : {},
        )) as WorkerAnswer;
        if ('inputError' in answer) throw new BacktestInputError(answer.inputError);
        done(answer.result);
      }),
    );
  } finally {
    await pool.destroy();
  }
  return withStatistics(config, results);
}

function withStatistics(config: BacktestConfig, cells: CellResult[]): BacktestRun {
  return { config, cells, statistics: runStatistics(cells, config.compareTo, config.seed) };
}
