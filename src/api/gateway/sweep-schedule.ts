// When the gateway's maps of expiring entries (rate-limit buckets, idempotency answers, stream tickets) drop what has
// expired (docs/api.md#memory-stays-bounded): each time a map has doubled since its last sweep. A sweep then costs O(1)
// per entry added, and a map holds at most about twice the entries still alive, whatever the callers send.

export class SweepSchedule {
  private nextAt: number;

  constructor(private readonly minSize = 1024) {
    this.nextAt = minSize;
  }

  /** Sweeps `map` with `expired` when it is due. */
  sweep<K, V>(map: Map<K, V>, expired: (value: V) => boolean): void {
    if (map.size <= this.nextAt) return;
    for (const [key, value] of map) if (expired(value)) map.delete(key);
    this.nextAt = Math.max(this.minSize, map.size * 2);
  }
}
