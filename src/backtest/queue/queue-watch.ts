// The coordinator's watch over its running grid (docs/scaling.md#failures). Every WATCH_MS it checks that Redis
// answers, that a propsim worker is there (and of this build), and that every shard it waits for is still on the
// queue. Shards Redis lost (a FLUSHDB, a restart of a Redis without persistence) are queued again; no worker, or
// Redis not answering, for the whole --worker-wait stops the run with exit 1. Each is said on stderr when first seen:
// a coordinator that waits does not wait silently.
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { GridCell } from '../config/grid.js';
import { QueueInputError, QueueLostError, ShardFailedError } from './queue-errors.js';
import type { QueueTarget } from './queue-url.js';
import { withTimeout } from './redis-reachable.js';
import { otherBuildWorker, queueWorkers, type AnnouncedWorker } from './worker-versions.js';

/** How often the coordinator looks. */
export const WATCH_MS = 2000;
/** Times one shard may be lost and queued again before the run fails. */
export const MAX_REQUEUES = 3;
/** How long one look at the queue may take before Redis counts as not answering. */
const LOOK_TIMEOUT_MS = 5000;

export interface WatchedRun {
  target: QueueTarget;
  queue: Queue;
  /** This coordinator's build identity. */
  version: string;
  workerWaitMs: number;
  /** The shards not done yet: job id → cell. */
  pending: ReadonlyMap<string, GridCell>;
  cells: number;
  /** Puts these shards on the queue again, as they were first added. */
  requeue(jobIds: readonly string[]): Promise<void>;
  warn(message: string): void;
}

/** What one look read: the workers the client list shows (undefined: hidden), lost shards, shards running. */
interface QueueState {
  workers: AnnouncedWorker[] | undefined;
  lost: string[];
  active: number;
}

export class RunWatch {
  /** Its own connection, made again at a look after Redis went away: a look fails at once, never queues. */
  private readonly client: Redis;
  /** The client's last connection error: why Redis does not answer (ECONNREFUSED, a timeout). */
  private lastError: Error | undefined;
  private noWorkerSinceMs: number | undefined;
  private noRedisSinceMs: number | undefined;
  private resultSinceLastLook = false;
  private readonly requeues = new Map<string, number>();

  constructor(
    private readonly run: WatchedRun,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.client = new Redis({
      ...run.target.connection,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    this.client.on('error', (error: Error) => (this.lastError = error)); // a Redis away is what look() reports
  }

  close(): void {
    this.client.disconnect();
  }

  /** When to look next: every WATCH_MS, or sooner when the wait for a worker or for Redis ends before that. */
  nextLookInMs(): number {
    const since = [this.noWorkerSinceMs, this.noRedisSinceMs].filter((ms) => ms !== undefined);
    const ends = since.map((ms) => ms + this.run.workerWaitMs - this.nowMs());
    return Math.max(0, Math.min(WATCH_MS, ...ends));
  }

  /** Whether Redis answered the last look. */
  get redisAnswers(): boolean {
    return this.noRedisSinceMs === undefined;
  }

  /** A cell's result came back: a worker is there, whatever the client list says. */
  resultArrived(): void {
    this.resultSinceLastLook = true;
  }

  /** One look; throws what stops the run. */
  async look(): Promise<void> {
    let state: QueueState;
    try {
      state = await withTimeout(this.read(), LOOK_TIMEOUT_MS);
    } catch (error) {
      return this.redisSilent((this.lastError ?? (error as Error)).message);
    } finally {
      this.lastError = undefined;
    }
    if (this.noRedisSinceMs !== undefined) this.run.warn(`Redis at ${this.run.target.shown} answers again`);
    this.noRedisSinceMs = undefined;
    const other = state.workers && otherBuildWorker(state.workers, this.run.version);
    if (other) throw new QueueInputError(other);
    if (state.lost.length > 0 && !(await this.requeue(state.lost))) return;
    // A worker is there when the client list shows one, or, where Redis hides it (or a worker reconnected without
    // its name), when a shard runs or a result came back since the last look.
    const there = (state.workers?.length ?? 0) > 0 || this.resultSinceLastLook || state.active > 0;
    this.resultSinceLastLook = false;
    this.workerThere(there);
  }

  private async read(): Promise<QueueState> {
    const { queue, pending } = this.run;
    if (this.client.status !== 'ready') await this.client.connect();
    const ids = [...pending.keys()];
    const pipeline = this.client.pipeline();
    for (const id of ids) pipeline.exists(queue.toKey(id));
    // Finished shards stay on the queue until the coordinator has read their result (queue-coordinator.ts).
    const found = (await pipeline.exec()) ?? [];
    const lost = ids.filter((id, i) => found[i]?.[1] === 0);
    const [workers, active] = await Promise.all([queueWorkers(queue), queue.getActiveCount()]);
    return { workers, lost: lost.filter((id) => pending.has(id)), active };
  }

  /** Queues the lost shards again; false when Redis did not take them (the next look tries again). */
  private async requeue(lost: readonly string[]): Promise<boolean> {
    for (const id of lost) {
      const times = (this.requeues.get(id) ?? 0) + 1;
      if (times > MAX_REQUEUES)
        throw new ShardFailedError(
          `grid cell ${this.run.pending.get(id)!.label} was lost from the queue ${times} times (Redis restarted or flushed each time?)`,
        );
    }
    try {
      await withTimeout(this.run.requeue(lost), LOOK_TIMEOUT_MS);
    } catch (error) {
      this.redisSilent((error as Error).message);
      return false;
    }
    for (const id of lost) this.requeues.set(id, (this.requeues.get(id) ?? 0) + 1);
    const one = lost.length === 1;
    this.run.warn(
      `${lost.length} cell${one ? ' was' : 's were'} no longer on the queue (Redis restarted or flushed?): queued again`,
    );
    return true;
  }

  private workerThere(there: boolean): void {
    if (there) {
      if (this.noWorkerSinceMs !== undefined) this.run.warn('a propsim worker is there again');
      this.noWorkerSinceMs = undefined;
      return;
    }
    const { shown } = this.run.target;
    const waitS = this.run.workerWaitMs / 1000;
    if (this.noWorkerSinceMs === undefined) {
      this.noWorkerSinceMs = this.nowMs();
      this.run.warn(`no propsim worker is connected to ${shown}; waiting up to ${waitS} s for one (--worker-wait)`);
    }
    if (this.nowMs() - this.noWorkerSinceMs >= this.run.workerWaitMs)
      throw new QueueLostError(
        `no propsim worker connected to ${shown} for ${waitS} s (--worker-wait): ${this.notDone()}; start workers with propsim worker --queue ${shown}`,
      );
  }

  private redisSilent(reason: string): void {
    const { shown } = this.run.target;
    const waitS = this.run.workerWaitMs / 1000;
    if (this.noRedisSinceMs === undefined) {
      this.noRedisSinceMs = this.nowMs();
      this.run.warn(`Redis at ${shown} does not answer (${reason}); waiting up to ${waitS} s for it (--worker-wait)`);
    }
    if (this.nowMs() - this.noRedisSinceMs >= this.run.workerWaitMs)
      throw new QueueLostError(`Redis at ${shown} did not answer for ${waitS} s (--worker-wait): ${this.notDone()}`);
  }

  private notDone(): string {
    return `${this.run.pending.size} of ${this.run.cells} cells not done`;
  }
}
