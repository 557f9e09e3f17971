// A report's charts drawn on worker threads while the main thread writes the rest (state.json, the tables): echarts
// takes ~0.07 s to load and ~15 ms a chart. The threads are started before the run (startChartWorkersEarly: before
// the command's modules load), so they load echarts while the kernel replays. A chart is the same SVG on any thread
// (svg-chart.ts names its ids from its content). Plain worker threads, not a piscina pool: loading piscina, here and
// in each thread, was ~0.03 s of every replay, for a handful of charts handed out in turn.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../market/holiday-file.js';
import type { ChartPainter } from './svg-chart.js';
import type { ChartAnswer, ChartTask } from './chart-worker.js';

/** A report draws at most a few dozen charts: beyond two threads, each loading echarts, more would cost more. */
const MAX_THREADS = 2;

interface Waiting {
  resolve(svg: string): void;
  reject(error: Error): void;
}

export class ChartWorkers implements ChartPainter {
  private readonly threads: Worker[];
  private readonly waiting = new Map<number, Waiting>();
  private sent = 0;

  /** One thread per core but the main thread's, at least one and at most MAX_THREADS. */
  constructor(threads = Math.max(1, Math.min(MAX_THREADS, availableParallelism() - 1))) {
    this.threads = Array.from({ length: threads }, () => this.startThread());
  }

  /** Charts go to the threads in turn, each as soon as it is asked for: a thread draws its queue in order. */
  render(width: number, height: number, option: Record<string, unknown>): Promise<string> {
    const id = this.sent++;
    const task: ChartTask = { id, request: { width, height, option } };
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.threads[id % this.threads.length]!.postMessage(task);
    });
  }

  /** Ends the threads: a running thread keeps the process alive. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.terminate()));
  }

  private startThread(): Worker {
    // The compiled worker: the CLI and the tests both run after `npm run build`. None of the process's own Node
    // options: a thread that draws needs none, and some are refused in a thread (--input-type).
    const thread = new Worker(join(packageRoot(), 'dist', 'src', 'reports', 'chart-worker.js'), { execArgv: [] });
    thread.on('message', ({ id, svg, error }: ChartAnswer) => {
      const waiting = this.waiting.get(id)!;
      this.waiting.delete(id);
      if (error === undefined) waiting.resolve(svg!);
      else waiting.reject(new Error(`drawing a chart: ${error}`));
    });
    // A thread that fails (echarts missing, out of memory) fails every chart still waiting: the report cannot be
    // written without them.
    thread.on('error', (error) => this.failAll(error));
    thread.on('exit', (code) => {
      if (this.waiting.size > 0)
        this.failAll(new Error(`a chart thread ended (exit code ${code}) with charts to draw`));
    });
    return thread;
  }

  private failAll(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}

let startedEarly: ChartWorkers | undefined;

/**
 * Starts the threads for the next takeChartWorkers(): `propsim replay` starts them as soon as the command is named, so
 * they load echarts while the command's own modules load (~0.2 s of a small replay was spent waiting for them).
 */
export function startChartWorkersEarly(): void {
  startedEarly ??= new ChartWorkers();
}

/** The threads started early, else new ones. The taker closes them: a running thread keeps the process alive. */
export function takeChartWorkers(): ChartWorkers {
  const pool = startedEarly ?? new ChartWorkers();
  startedEarly = undefined;
  return pool;
}
