// `propsim worker`: takes shards off the queue and runs each on a pool of worker threads, so this thread stays
// free to renew the shards' locks (a blocked thread would look like a dead worker). Refuses shards of another
// propsim version and data files whose content differs (docs/scaling.md).
import { hostname } from 'node:os';
import { Worker, type Job } from 'bullmq';
import type { WorkerAnswer } from '../cells/cell-worker.js';
import { cellPool } from '../cells/cell-pool.js';
import { propsimVersion } from './propsim-version.js';
import type { QueueTarget } from './queue-url.js';
import { checkRedisReachable } from './redis-reachable.js';
import { LOCK_MS, MAX_STALLS, QUEUE_NAME, STALLED_CHECK_MS, type Shard, type ShardResult } from './shard.js';
import { configOnThisMachine, FileHashes } from './shard-files.js';
import { ShardRefusal } from './shard-refusal.js';
import { workerName } from './worker-versions.js';

export interface ShardWorkerOptions {
  concurrency: number;
  dataDir: string | undefined;
  log: (line: string) => void;
}

export interface RunningShardWorker {
  /** Finishes the running shards and takes no more; with `now`, leaves them to another worker's stall check. */
  close(now?: boolean): Promise<void>;
}

export async function startShardWorker(target: QueueTarget, options: ShardWorkerOptions): Promise<RunningShardWorker> {
  await checkRedisReachable(target);
  const version = propsimVersion();
  const me = `${hostname()}:${process.pid}`;
  const pool = cellPool(options.concurrency);
  const hashes = new FileHashes();
  const run = async (job: Job<Shard, ShardResult>): Promise<ShardResult> => {
    const shard = job.data;
    const what = `shard ${job.id} (cell ${shard.cell.label})`;
    if (shard.version !== version)
      throw new ShardRefusal(`it is from propsim ${shard.version}, this worker (${me}) is propsim ${version}`);
    const config = await configOnThisMachine(shard.config, shard.files, options.dataDir, hashes);
    options.log(`${what}: started (attempt ${job.attemptsMade + 1})`);
    const started = performance.now();
    const answer = (await pool.run({ config, cell: shard.cell })) as WorkerAnswer;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    options.log(
      'inputError' in answer
        ? `${what}: invalid input: ${answer.inputError}`
        : `${what}: done in ${seconds} s, ${answer.result.accountSessionDays} account-session-days`,
    );
    return { answer, worker: me };
  };
  const worker = new Worker<Shard, ShardResult>(QUEUE_NAME, run, {
    connection: { ...target.connection, maxRetriesPerRequest: null },
    concurrency: options.concurrency,
    lockDuration: LOCK_MS,
    stalledInterval: STALLED_CHECK_MS,
    maxStalledCount: MAX_STALLS,
    name: workerName(me, version), // announces the version to coordinators (worker-versions.ts)
  });
  worker.on('failed', (job, error) =>
    options.log(`shard ${job?.id ?? '?'} (cell ${job?.data.cell?.label ?? '?'}): failed: ${error.message}`),
  );
  worker.on('error', (error) => options.log(`queue error: ${error.message}`));
  await worker.waitUntilReady();
  options.log(
    `propsim ${version} worker ${me}: waiting for shards on ${target.shown} (${options.concurrency} at a time)`,
  );
  return {
    close: async (now = false) => {
      await worker.close(now);
      await pool.destroy();
    },
  };
}
