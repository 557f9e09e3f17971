// Runs every cell of a back-test: in this thread for one worker, else on a piscina pool of worker threads.
// With a queue URL, on `propsim worker` processes through BullMQ on Redis (docs/scaling.md). Results are put back
// in cell order, so the outputs are byte-identical for any number of workers, threads or processes.
import { availableParallelism } from 'node:os';
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import type { BacktestConfig } from './config/backtest-config.js';
import { runCell, type CellResult } from './cells/cell-runner.js';
import type { WorkerAnswer } from './cells/cell-worker.js';
import { BacktestInputError } from './backtest-input-error.js';
import { cellPool } from './cells/cell-pool.js';
import { cellsToRun } from './config/cell-subset.js';
import type { GridCell } from './config/grid.js';
import { runStatistics, type RunStatistics } from './stats/decisions.js';
import { fillsAgainstMarket, type FillsAgainstMarket } from './fills/off-market-fills.js';

export interface BacktestProgress {
  cellsDone: number;
  cells: number;
  accounts: number;
  prints: number;
  /** Account-session-days of the cells done. */
  accountSessionDays: number;
  /** On a queue: the worker processes that have returned a cell. */
  workersSeen?: number;
}

export interface BacktestRun {
  config: BacktestConfig;
  /** The cells run, in grid order (a subset keeps each cell's grid index). */
  cells: CellResult[];
  /** Intervals and decisions against the reference cell (docs/backtesting.md#signal-or-noise). */
  statistics: RunStatistics;
  /** The historical fills against the market's prices, the same in every cell (docs/backtesting.md#fills-off-the-market). */
  fillsAgainstMarket: FillsAgainstMarket;
}

export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

export interface RunBacktestOptions {
  workers: number;
  /** redis://… or rediss://…: the cells run as shards on this queue's workers, not on local threads. */
  queue?: string;
  /** On a queue: how long the run may go with no worker, or no Redis, before it stops (docs/scaling.md#failures). */
  workerWaitMs?: number;
  /** On a queue: what its watch sees (no worker yet, shards queued again), a line for stderr. */
  warn?: (message: string) => void;
  signal?: AbortSignal;
  onProgress?: (progress: BacktestProgress) => void;
  /** Found already (the CLI checks them before any cell runs, for --strict); else found here. */
  fillsAgainstMarket?: FillsAgainstMarket;
}

/** A cell's result handed over, with the worker (on a queue) that ran it. */
type CellDone = (result: CellResult, worker?: string) => void;

export async function runBacktest(config: BacktestConfig, options: RunBacktestOptions): Promise<BacktestRun> {
  const againstMarket = options.fillsAgainstMarket ?? (await fillsAgainstMarket(config));
  const cells = cellsToRun(config);
  const results: CellResult[] = new Array(cells.length);
  const done = resultsInGridOrder(cells, results, options.onProgress);
  if (options.queue !== undefined) {
    // Loaded only for a queue run: a local run never loads BullMQ.
    const { runCellsOnQueue } = await import('./queue/queue-coordinator.js');
    await runCellsOnQueue(config, cells, options.queue, {
      signal: options.signal,
      onResult: done,
      workerWaitMs: options.workerWaitMs,
      warn: options.warn,
    });
  } else if (options.workers <= 1 || cells.length === 1) {
    const calendar = new GlobexCalendar(loadHolidayFile());
    for (const cell of cells) {
      options.signal?.throwIfAborted();
      done(await runCell({ config, cell }, calendar));
    }
  } else {
    await runCellsOnThreads(config, cells, options.workers, options.signal, done);
  }
  return {
    config,
    cells: results,
    statistics: runStatistics(results, config.compareTo),
    fillsAgainstMarket: againstMarket,
  };
}

/** Puts each result at its cell's place in `results`, whatever order they finish in, and reports the progress. */
function resultsInGridOrder(
  cells: readonly GridCell[],
  results: CellResult[],
  onProgress: ((progress: BacktestProgress) => void) | undefined,
): CellDone {
  const positions = new Map(cells.map((cell, i) => [cell.index, i]));
  const progress: BacktestProgress = {
    cellsDone: 0,
    cells: cells.length,
    accounts: 0,
    prints: 0,
    accountSessionDays: 0,
  };
  const workersSeen = new Set<string>();
  return (result, worker) => {
    results[positions.get(result.cell.index)!] = result;
    progress.cellsDone++;
    progress.accounts += result.summary.accounts;
    progress.prints += result.prints;
    progress.accountSessionDays += result.accountSessionDays;
    if (worker !== undefined) progress.workersSeen = workersSeen.add(worker).size;
    onProgress?.({ ...progress });
  };
}

/** The cells on a pool of worker threads (cells/cell-pool.ts). */
async function runCellsOnThreads(
  config: BacktestConfig,
  cells: readonly GridCell[],
  workers: number,
  signal: AbortSignal | undefined,
  done: CellDone,
): Promise<void> {
  const pool = cellPool(workers);
  try {
    await Promise.all(
      cells.map(async (cell) => {
        const answer = (await pool.run({ config, cell }, signal ? { signal } : {})) as WorkerAnswer;
        if ('inputError' in answer) throw new BacktestInputError(answer.inputError);
        done(answer.result);
      }),
    );
  } finally {
    await pool.destroy();
  }
}
