// The coordinator's side of `backtest --queue`: every cell goes on the queue as one shard, and the cells' results
// come back through the queue's events, in whatever order workers finish (run-backtest.ts puts them in cell
// order). Ctrl-C removes the run's shards that no worker has started (docs/scaling.md#failures).
import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { BacktestConfig } from '../config/backtest-config.js';
import { BacktestInputError } from '../backtest-input-error.js';
import type { CellResult } from '../cells/cell-runner.js';
import type { GridCell } from '../config/grid.js';
import { propsimVersion } from './propsim-version.js';
import { QueueInputError, ShardFailedError } from './queue-errors.js';
import { parseQueueUrl, type QueueTarget } from './queue-url.js';
import { checkRedisReachable } from './redis-reachable.js';
import { QUEUE_NAME, SHARD_ATTEMPTS, shardJobId, type Shard, type ShardResult } from './shard.js';
import { shardFiles } from './shard-files.js';
import { REFUSED } from './shard-refusal.js';
import { otherVersionWorker } from './worker-versions.js';

/** How often the coordinator looks for workers of another propsim version while its shards run. */
const VERSION_CHECK_MS = 2000;

export async function runCellsOnQueue(
  config: BacktestConfig,
  cells: readonly GridCell[],
  queueUrl: string,
  options: { signal?: AbortSignal | undefined; onResult: (result: CellResult, worker: string) => void },
): Promise<void> {
  const target = parseQueueUrl(queueUrl);
  await checkRedisReachable(target); // exit 2 naming the URL, before any work
  const files = await shardFiles(config);
  const runId = randomUUID();
  const version = propsimVersion();
  const queue = new Queue<Shard, ShardResult>(QUEUE_NAME, { connection: target.connection });
  // Events read from the stream's present end, fixed before the first shard is added: QueueEvents' default ('$'
  // at its first read, which may come later) could miss a shard refused within milliseconds and wait forever.
  const events = new QueueEvents(QUEUE_NAME, {
    connection: target.connection,
    lastEventId: await lastEventId(queue, target),
  });
  const pending = new Map(cells.map((cell) => [shardJobId(runId, cell.index), cell]));
  let versionWatch: NodeJS.Timeout | undefined;
  try {
    await events.waitUntilReady();
    const mismatch = await otherVersionWorker(queue, version);
    if (mismatch) throw new QueueInputError(mismatch); // before any shard is added
    await new Promise<void>((resolve, reject) => {
      const stop = (error: unknown) => {
        events.removeAllListeners();
        reject(error);
      };
      options.signal?.throwIfAborted();
      options.signal?.addEventListener('abort', () => stop(options.signal!.reason), { once: true });
      events.on('completed', ({ jobId, returnvalue }) => {
        if (!pending.delete(jobId)) return;
        const { answer, worker } = returnvalue as unknown as ShardResult;
        if ('inputError' in answer) return stop(new BacktestInputError(answer.inputError));
        options.onResult(answer.result, worker);
        if (pending.size === 0) resolve();
      });
      // A worker of another version may join while the run lasts: it is refused as soon as it is seen.
      versionWatch = setInterval(() => {
        otherVersionWorker(queue, version).then((found) => found && stop(new QueueInputError(found)), stop);
      }, VERSION_CHECK_MS);
      events.on('failed', ({ jobId, failedReason }) => {
        const cell = pending.get(jobId);
        if (!cell) return;
        if (failedReason.startsWith(REFUSED))
          return stop(new QueueInputError(`grid cell ${cell.label}: ${failedReason}`));
        stop(new ShardFailedError(`grid cell ${cell.label} failed on the queue: ${failedReason}`));
      });
      queue
        .addBulk(
          cells.map((cell) => ({
            name: `cell ${cell.index}`,
            data: { version, runId, config, cell, files },
            opts: {
              jobId: shardJobId(runId, cell.index),
              attempts: SHARD_ATTEMPTS,
              backoff: { type: 'fixed', delay: 1000 },
              removeOnComplete: true, // the result travels in the completed event
              removeOnFail: { age: 24 * 3600 }, // kept a day, to look at
            },
          })),
        )
        .catch(stop);
    });
  } finally {
    clearInterval(versionWatch);
    events.removeAllListeners();
    // After a failure or Ctrl-C: the shards no worker has started go; a running one cannot be removed (it is
    // locked), its result is dropped when it comes.
    await Promise.all([...pending.keys()].map((jobId) => queue.remove(jobId).catch(() => 0)));
    await Promise.all([events.close(), queue.close()]);
  }
}

/** The id of the queue's newest event, or 0-0 when there is none yet. */
async function lastEventId(queue: Queue, target: QueueTarget): Promise<string> {
  const client = new Redis({ ...target.connection, lazyConnect: true });
  try {
    await client.connect();
    const [newest] = await client.xrevrange(queue.keys.events!, '+', '-', 'COUNT', 1);
    return newest?.[0] ?? '0-0';
  } finally {
    client.disconnect();
  }
}
