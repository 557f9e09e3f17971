// The queue's own cost: the demo grid with 120 traders a cell run locally on 2 worker threads, then through
// Redis (a redis-server started here) on 2 and on 1 `propsim worker` processes; account-session-days per second for
// each, and the 2-worker queue's time against the local run's (target: within 10 %). Outputs are the same bytes
// (test/backtest/queue/queue-run.test.ts), so only time is compared.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadBacktestConfig, type BacktestConfig } from '../src/backtest/config/backtest-config.js';
import { runBacktest } from '../src/backtest/run-backtest.js';
import { withSyntheticTraders } from '../src/backtest/config/trader-count.js';
import { packageRoot } from '../src/market/holiday-file.js';
import type { Bench } from './bench.js';
import { startRedis } from './redis-server.js';

const TRADERS = 120;

export const queueBench: Bench = {
  name: 'queue',
  description: `the demo grid with ${TRADERS} traders a cell: local on 2 threads, then through Redis on 2 and 1 worker processes`,
  run: async (log) => {
    const config = withSyntheticTraders(
      loadBacktestConfig(join(packageRoot(), 'fixtures', 'backtest', '6e-january-2024.yaml')),
      TRADERS,
    );
    const local = await timed(config, { workers: 2 });
    log(`local, 2 threads: ${describe(local)}`);
    const redis = await startRedis();
    try {
      const two = await onWorkers(redis.url, 2, () => timed(config, { workers: 2, queue: redis.url }));
      log(`queue, 2 workers: ${describe(two)}; ${ratio(two, local)} the local run's time (target: within 10 %)`);
      const one = await onWorkers(redis.url, 1, () => timed(config, { workers: 1, queue: redis.url }));
      log(`queue, 1 worker: ${describe(one)}`);
      return {
        traders: TRADERS,
        accountSessionDays: local.accountSessionDays,
        local2Threads: local,
        queue2Workers: two,
        queue1Worker: one,
        queue2OverLocal: +(two.seconds / local.seconds).toFixed(3),
      };
    } finally {
      await redis.stop();
    }
  },
};

interface Timing {
  seconds: number;
  accountSessionDays: number;
  accountSessionDaysPerSecond: number;
}

async function timed(config: BacktestConfig, options: { workers: number; queue?: string }): Promise<Timing> {
  const start = performance.now();
  const run = await runBacktest(config, options);
  const seconds = (performance.now() - start) / 1000;
  const accountSessionDays = run.cells.reduce((n, c) => n + c.accountSessionDays, 0);
  return {
    seconds: +seconds.toFixed(2),
    accountSessionDays,
    accountSessionDaysPerSecond: Math.round(accountSessionDays / seconds),
  };
}

/** `count` worker processes, started and waiting before `task` and stopped after it. */
async function onWorkers<T>(url: string, count: number, task: () => Promise<T>): Promise<T> {
  const launcher = join(packageRoot(), 'bin', 'propsim.js');
  const workers = Array.from({ length: count }, () =>
    spawn(process.execPath, [launcher, 'worker', '--queue', url], { stdio: ['ignore', 'ignore', 'pipe'] }),
  );
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            let log = '';
            worker.stderr.on('data', (chunk: Buffer) => {
              log += chunk.toString();
              if (log.includes('waiting for shards')) resolve();
            });
            worker.once('exit', (code) => reject(new Error(`a worker exited (${code}):\n${log}`)));
          }),
      ),
    );
    return await task();
  } finally {
    await Promise.all(
      workers.map((worker) => new Promise((resolve) => (worker.once('exit', resolve), worker.kill('SIGTERM')))),
    );
  }
}

function describe(timing: Timing): string {
  return `${timing.seconds.toFixed(1)} s, ${timing.accountSessionDaysPerSecond.toLocaleString('en-US')} account-session-days/s`;
}

function ratio(run: Timing, base: Timing): string {
  return `${((run.seconds / base.seconds) * 100).toFixed(1)} % of`;
}
