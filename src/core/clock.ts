// The simulated clock and its scheduler (docs/architecture.md#time-is-an-input). Time only moves when a driver calls
// advanceTo; due events fire in (time, sequence) order, and an event scheduled while firing that is due by the target
// fires in the same advance. Events are plain data so a journal can record them.
import { declareSnapshot } from './snapshot/snapshot-fields.js';

export interface ScheduledEvent<E> {
  atMs: number;
  /** Order of scheduling: breaks ties between events due at the same instant. */
  seq: number;
  event: E;
}

export class ClockError extends Error {
  override name = 'ClockError';
}

export class SimClock<E> {
  private now: number;
  private nextSeq = 0;
  private readonly heap: ScheduledEvent<E>[] = [];
  /** Sequence numbers scheduled and neither fired nor cancelled; cancelled items leave the heap lazily. */
  private readonly live = new Set<number>();

  constructor(startMs: number) {
    if (!Number.isSafeInteger(startMs)) throw new ClockError(`start time must be integer ms, got ${startMs}`);
    this.now = startMs;
  }

  get nowMs(): number {
    return this.now;
  }

  /** Schedules `event` at `atMs` (not in the past); returns its sequence number, the handle for cancel. */
  schedule(atMs: number, event: E): number {
    if (!Number.isSafeInteger(atMs)) throw new ClockError(`event time must be integer ms, got ${atMs}`);
    if (atMs < this.now) throw new ClockError(`cannot schedule at ${atMs}: the clock is already at ${this.now}`);
    const item = { atMs, seq: this.nextSeq++, event };
    this.push(item);
    this.live.add(item.seq);
    return item.seq;
  }

  /** Cancels a scheduled event; false when it already fired or was cancelled. */
  cancel(seq: number): boolean {
    return this.live.delete(seq);
  }

  /** Time of the next live event, if any. */
  nextDueMs(): number | undefined {
    this.dropCancelledHead();
    return this.heap[0]?.atMs;
  }

  /**
   * Moves the clock to `targetMs`, calling `onDue` for each event due by then in (time, seq) order with the
   * clock set to the event's time. Refuses to go backwards. Returns how many events fired.
   */
  advanceTo(targetMs: number, onDue: (event: E, atMs: number) => void): number {
    if (!Number.isSafeInteger(targetMs)) throw new ClockError(`target time must be integer ms, got ${targetMs}`);
    if (targetMs < this.now)
      throw new ClockError(`the clock does not go backwards: at ${this.now}, asked for ${targetMs}`);
    let fired = 0;
    for (;;) {
      this.dropCancelledHead();
      const head = this.heap[0];
      if (!head || head.atMs > targetMs) break;
      this.pop();
      this.live.delete(head.seq);
      this.now = head.atMs;
      onDue(head.event, head.atMs);
      fired++;
    }
    this.now = targetMs;
    return fired;
  }

  /** Number of live scheduled events. */
  get pending(): number {
    return this.live.size;
  }

  private dropCancelledHead(): void {
    let head = this.heap[0];
    while (head && !this.live.has(head.seq)) {
      this.pop();
      head = this.heap[0];
    }
  }

  // Binary min-heap on (atMs, seq).
  private push(item: ScheduledEvent<E>): void {
    const heap = this.heap;
    heap.push(item);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop();
    if (!last || heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === i) return;
      [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
      i = smallest;
    }
  }
}

declareSnapshot(SimClock, {
  kept: ['now', 'nextSeq', 'heap', 'live'],
  skipped: [],
});

function before(a: ScheduledEvent<unknown>, b: ScheduledEvent<unknown>): boolean {
  return a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq);
}
