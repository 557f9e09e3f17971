// A token bucket per caller for @fastify/rate-limit (docs/api.md#rate-limits): `burst` requests at once, refilled
// at `perSecond`, on the wall clock in every clock mode (it protects the process, not the simulation). The plugin
// asks a store for a request count within a window; a bucket answers it as "tokens used", so the plugin's
// `max` is the burst and its `ttl` the time until the next token. A full bucket is the same as none, so full ones are
// dropped as the map grows: memory follows the callers of the last few seconds, not every caller ever seen.
import { SweepSchedule } from './sweep-schedule.js';

interface Bucket {
  tokens: number;
  atMs: number;
}

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

export class TokenBucketStore {
  private readonly sweeps = new SweepSchedule();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
    private readonly buckets: Map<string, Bucket> = new Map(),
  ) {}

  incr(key: string, callback: Callback): void {
    callback(null, this.take(key));
  }

  /** Every route shares the same buckets: the limit is per caller, not per route. */
  child(): TokenBucketStore {
    return this;
  }

  /** Milliseconds until `key` has a token again, or undefined when it has one now (nothing is taken). */
  waitMs(key: string): number | undefined {
    const bucket = this.buckets.get(key);
    if (!bucket) return undefined;
    const tokens = Math.min(this.burst, bucket.tokens + ((this.now() - bucket.atMs) * this.perSecond) / 1000);
    return tokens >= 1 ? undefined : Math.max(1, Math.ceil(((1 - tokens) * 1000) / this.perSecond));
  }

  take(key: string): { current: number; ttl: number } {
    const nowMs = this.now();
    this.sweeps.sweep(this.buckets, (b) => b.tokens + ((nowMs - b.atMs) * this.perSecond) / 1000 >= this.burst);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.burst, atMs: nowMs };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(this.burst, bucket.tokens + ((nowMs - bucket.atMs) * this.perSecond) / 1000);
      bucket.atMs = nowMs;
    }
    const refillMs = 1000 / this.perSecond;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { current: this.burst - Math.floor(bucket.tokens), ttl: Math.ceil((1 - (bucket.tokens % 1)) * refillMs) };
    }
    return { current: this.burst + 1, ttl: Math.max(1, Math.ceil((1 - bucket.tokens) * refillMs)) };
  }
}
