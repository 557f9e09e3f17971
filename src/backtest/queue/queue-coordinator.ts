// The coordinator's side of `backtest --queue`: every cell goes on the queue as one shard, and the cells' results
// come back through the queue's events, in whatever order workers finish (run-backtest.ts puts them in cell
// order). While they run, a watch (queue-watch.ts) queues again the shards Redis lost and stops a run left without
// workers or without Redis. Ctrl-C removes the run's shards that no worker has started (docs/scaling.md#failures).
import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { BacktestConfig } from '../config/backtest-config.js';
import { BacktestInputError } from '../backtest-input-error.js';
import type { CellResult } from '../cells/cell-runner.js';
import type { GridCell } from '../config/grid.js';
import { loadHolidayDocument } from '../../market/holiday-file.js';
import { buildIdentity } from './build-identity.js';
import { QueueInputError, ShardFailedError } from './queue-errors.js';
import { parseQueueUrl, type QueueTarget } from './queue-url.js';
import { RunWatch } from './queue-watch.js';
import { checkRedisReachable, withTimeout } from './redis-reachable.js';
import { QUEUE_NAME, SHARD_ATTEMPTS, shardJobId, type Shard, type ShardResult } from './shard.js';
import { shardFiles } from './shard-files.js';
import { REFUSED } from './shard-refusal.js';
import { DEFAULT_WORKER_WAIT_S } from './worker-wait.js';
import { otherBuildWorker, queueWorkers } from './worker-versions.js';

/** How long one read of the queue's events waits for an event. */
const EVENTS_BLOCK_MS = 1000;
/** How long closing may take (removing waiting shards, closing connections) before the connections are dropped. */
const CLOSE_MS = 3000;

export interface QueueRunOptions {
  signal?: AbortSignal | undefined;
  onResult: (result: CellResult, worker: string) => void;
  /** How long the run may go with no worker, or no Redis, before it stops with exit 1 (--worker-wait). */
  workerWaitMs?: number | undefined;
  /** What the watch sees, for stderr. */
  warn?: ((message: string) => void) | undefined;
}

export async function runCellsOnQueue(
  config: BacktestConfig,
  cells: readonly GridCell[],
  queueUrl: string,
  options: QueueRunOptions,
): Promise<void> {
  const target = parseQueueUrl(queueUrl);
  await checkRedisReachable(target); // exit 2 naming the URL, before any work
  const files = await shardFiles(config);
  const runId = randomUUID();
  const version = buildIdentity();
  const holidays = loadHolidayDocument(); // the calendar this run's own checks used (docs/scaling.md#data-files)
  const queue = new Queue<Shard, ShardResult>(QUEUE_NAME, { connection: target.connection });
  // Events read from the stream's present end, fixed before the first shard is added: QueueEvents' default ('$'
  // at its first read, which may come later) could miss a shard refused within milliseconds and wait forever.
  const events = new QueueEvents(QUEUE_NAME, {
    connection: target.connection,
    lastEventId: await lastEventId(queue, target),
    // Each read of the events blocks this long, and BullMQ's watchdog on it (1 s more) outlives a close: 10 s by
    // default kept a coordinator whose Redis is gone alive that long after its run had stopped.
    blockingTimeout: EVENTS_BLOCK_MS,
  });
  // Connection errors are the watch's to report (Redis not answering), once, not one line per reconnection.
  queue.on('error', () => {});
  events.on('error', () => {});
  const pending = new Map(cells.map((cell) => [shardJobId(runId, cell.index), cell]));
  const shard = (cell: GridCell) => ({
    name: `cell ${cell.index}`,
    data: { version, runId, config, cell, files, holidays },
    opts: {
      jobId: shardJobId(runId, cell.index),
      attempts: SHARD_ATTEMPTS,
      backoff: { type: 'fixed' as const, delay: 1000 },
      // Kept until the coordinator has read its result from the completed event and removes it, so that the watch
      // tells a finished shard from a lost one; an hour at most, should the coordinator die first.
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 24 * 3600 }, // kept a day, to look at
    },
  });
  let watching = true;
  const watch = new RunWatch({
    target,
    queue,
    version,
    workerWaitMs: options.workerWaitMs ?? DEFAULT_WORKER_WAIT_S * 1000,
    pending,
    cells: cells.length,
    requeue: async (jobIds) => void (await queue.addBulk(jobIds.map((id) => shard(pending.get(id)!)))),
    warn: (message) => watching && options.warn?.(message), // nothing once the run is over
  });
  let nextLook: NodeJS.Timeout | undefined;
  try {
    await events.waitUntilReady();
    const workers = await queueWorkers(queue);
    const mismatch = workers && otherBuildWorker(workers, version);
    if (mismatch) throw new QueueInputError(mismatch); // before any shard is added
    await new Promise<void>((resolve, reject) => {
      const stop = (error: unknown) => {
        stopListening(events);
        reject(error);
      };
      options.signal?.throwIfAborted();
      options.signal?.addEventListener('abort', () => stop(options.signal!.reason), { once: true });
      events.on('completed', ({ jobId, returnvalue }) => {
        if (!pending.delete(jobId)) return;
        void queue.remove(jobId).catch(() => 0);
        watch.resultArrived();
        const { answer, worker } = returnvalue as unknown as ShardResult;
        if ('inputError' in answer) return stop(new BacktestInputError(answer.inputError));
        options.onResult(answer.result, worker);
        if (pending.size === 0) resolve();
      });
      events.on('failed', ({ jobId, failedReason }) => {
        const cell = pending.get(jobId);
        if (!cell) return;
        if (failedReason.startsWith(REFUSED))
          return stop(new QueueInputError(`grid cell ${cell.label}: ${failedReason}`));
        stop(new ShardFailedError(`grid cell ${cell.label} failed on the queue: ${failedReason}`));
      });
      // The first look as soon as the shards are on the queue (no worker is said at once), then every WATCH_MS.
      const look = (): void => {
        watch.look().then(() => {
          if (watching) nextLook = setTimeout(look, watch.nextLookInMs());
        }, stop);
      };
      queue.addBulk(cells.map(shard)).then(look).catch(stop);
    });
  } finally {
    watching = false;
    clearTimeout(nextLook);
    watch.close();
    stopListening(events);
    await closeQueue(queue, events, watch.redisAnswers ? [...pending.keys()] : undefined);
  }
}

function stopListening(events: QueueEvents): void {
  events.removeAllListeners('completed');
  events.removeAllListeners('failed');
}

/**
 * After a failure or Ctrl-C: the shards no worker has started go; a running one cannot be removed (it is locked), its
 * result is dropped when it comes. With Redis gone (`jobIds` undefined, or closing takes CLOSE_MS) this would wait
 * forever: the connections are dropped instead, without waiting for BullMQ to say so (it may never).
 */
async function closeQueue(queue: Queue, events: QueueEvents, jobIds: readonly string[] | undefined): Promise<void> {
  const close = async () => {
    await Promise.all(jobIds!.map((jobId) => queue.remove(jobId).catch(() => 0)));
    await Promise.all([events.close(), queue.close()]);
  };
  try {
    if (jobIds === undefined) throw new Error('Redis does not answer');
    await withTimeout(close(), CLOSE_MS);
  } catch {
    // close() stops the events' read loop (disconnect alone leaves it retrying every 5 s); disconnect() stops the
    // queue's connection reconnecting, which close() would wait for.
    events.close().catch(() => {});
    queue
      .disconnect()
      .then(() => queue.close())
      .catch(() => {});
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
