// `propsim worker`: takes shards off the queue and runs each on a pool of worker threads, so this thread stays
// free to renew the shards' locks (a blocked thread would look like a dead worker). Refuses shards of another
// propsim build and data files whose content differs (docs/scaling.md).
import { hostname } from 'node:os';
import { Worker, type Job } from 'bullmq';
import type { WorkerAnswer } from '../cells/cell-worker.js';
import { cellPool } from '../cells/cell-pool.js';
import { buildIdentity } from './build-identity.js';
import type { QueueTarget } from './queue-url.js';
import { checkRedisReachable } from './redis-reachable.js';
import { LOCK_MS, MAX_STALLS, QUEUE_NAME, STALLED_CHECK_MS, type Shard, type ShardResult } from './shard.js';
import { configOnThisMachine, FileHashes } from './shard-files.js';
import { ShardRefusal } from './shard-refusal.js';
import { SAME_BUILD, workerName } from './worker-versions.js';

export interface ShardWorkerOptions {
  concurrency: number;
  dataDir: string | undefined;
  log: (line: string) => void;
}

export interface RunningShardWorker {
  /**
   * Finishes the running shards and takes no more; with `now`, leaves them to another worker's stall check. Resolves
   * `redis-gone` instead, without waiting for BullMQ's close, as soon as Redis does not answer (its close waits for a
   * connection to record the running shards, forever when Redis is gone): the caller exits, and the shards go to
   * another worker once Redis is back (docs/scaling.md#failures).
   */
  close(now?: boolean): Promise<'closed' | 'redis-gone'>;
}

/** While closing, how often the worker checks that Redis still answers (each check gives up after the connect timeout). */
const CLOSING_PING_MS = 2000;

export async function startShardWorker(target: QueueTarget, options: ShardWorkerOptions): Promise<RunningShardWorker> {
  await checkRedisReachable(target);
  const version = buildIdentity();
  const me = `${hostname()}:${process.pid}`;
  const pool = cellPool(options.concurrency);
  const hashes = new FileHashes();
  const run = async (job: Job<Shard, ShardResult>): Promise<ShardResult> => {
    const shard = job.data;
    const what = `shard ${job.id} (cell ${shard.cell.label})`;
    if (shard.version !== version)
      throw new ShardRefusal(
        `it is from propsim build ${shard.version}, this worker (${me}) is propsim build ${version}; ${SAME_BUILD}`,
      );
    const config = await configOnThisMachine(shard.config, shard.files, options.dataDir, hashes);
    options.log(`${what}: started (attempt ${job.attemptsMade + 1})`);
    const started = performance.now();
    const answer = (await pool.run({ config, cell: shard.cell, holidays: shard.holidays })) as WorkerAnswer;
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
  worker.on('error', (error) => options.log(`queue error: ${error.message}${lostShardNote(error)}`));
  await worker.waitUntilReady();
  options.log(
    `propsim ${version} worker ${me}: waiting for shards on ${target.shown} (${options.concurrency} at a time)`,
  );
  return {
    close: async (now = false) => {
      const closed = worker.close(now).then(() => 'closed' as const);
      const gone = redisGone(target, closed);
      const outcome = await Promise.race([closed, gone]);
      if (outcome === 'redis-gone')
        options.log(`Redis at ${target.shown} does not answer: stopping without it (the running shards are dropped)`);
      await pool.destroy();
      return outcome;
    },
  };
}

/** Resolves `redis-gone` at the first check Redis does not answer, or never once `until` settles. */
async function redisGone(target: QueueTarget, until: Promise<unknown>): Promise<'redis-gone'> {
  let settled = false;
  void until.finally(() => (settled = true));
  for (;;) {
    const answers = await checkRedisReachable(target).then(
      () => true,
      () => false,
    );
    if (settled) return new Promise<never>(() => {});
    if (!answers) return 'redis-gone';
    await new Promise((resolve) => setTimeout(resolve, CLOSING_PING_MS).unref());
  }
}

/** A shard Redis no longer holds (a FLUSHDB, a restart without persistence): what becomes of it, for the log. */
function lostShardNote(error: Error): string {
  return /^Missing (key|lock) for job/.test(error.message)
    ? ' (Redis lost the shard, restarted or flushed: its result is dropped and its coordinator queues it again)'
    : '';
}
