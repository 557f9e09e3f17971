// A report's charts drawn on worker threads while the main thread writes the rest (state.json, the tables): loading
// echarts and drawing are a replay's largest fixed costs. The pool is started before the run (startChartWorkersEarly: before the
// command's modules load), so its threads load echarts while the kernel replays. A chart is the same SVG on any
// thread (svg-chart.ts names its ids from its content).
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { packageRoot } from '../market/holiday-file.js';
import type { ChartPainter, ChartRequest } from './svg-chart.js';

/**
 * A report draws at most a few dozen charts: beyond two threads, each loading echarts as it starts, more cores would
 * cost more than they save.
 */
const MAX_THREADS = 2;
/** Charts a thread is handed ahead of drawing them: more than any report asks for at once. */
const QUEUED_CHARTS = 1024;

export class ChartWorkers implements ChartPainter {
  private readonly pool: Piscina;

  /** One thread per core but the main thread's, at least one and at most MAX_THREADS. */
  constructor(threads = Math.max(1, Math.min(MAX_THREADS, availableParallelism() - 1))) {
    // The compiled worker: the CLI and the tests both run after `npm run build`.
    this.pool = new Piscina({
      filename: join(packageRoot(), 'dist', 'src', 'reports', 'chart-worker.js'),
      minThreads: threads,
      maxThreads: threads,
      // Every chart goes to a thread as soon as it is asked for, and waits there for its turn: one task at a time
      // would leave a thread idle between charts until the main thread, busy writing the tables, gave it the next.
      concurrentTasksPerWorker: QUEUED_CHARTS,
      // Node 20's require() of an ES module, which piscina tries first, now and then aborts the process in a worker
      // (an assertion in CreateRequiredModuleFacade); without it piscina loads the module with import().
      execArgv: ['--no-experimental-require-module'],
    });
  }

  render(width: number, height: number, option: Record<string, unknown>): Promise<string> {
    const request: ChartRequest = { width, height, option };
    return this.pool.run(request) as Promise<string>;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

let startedEarly: ChartWorkers | undefined;

/**
 * Starts a pool for the next takeChartWorkers(): `propsim replay` starts it as soon as the command is named, so its
 * threads load echarts while the command's own modules load, and a small replay does not wait for them.
 */
export function startChartWorkersEarly(): void {
  startedEarly ??= new ChartWorkers();
}

/** The pool started early, else a new one. The taker closes it: a running pool keeps the process alive. */
export function takeChartWorkers(): ChartWorkers {
  const pool = startedEarly ?? new ChartWorkers();
  startedEarly = undefined;
  return pool;
}
