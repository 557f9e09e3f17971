// The sandbox's stream of events (docs/api.md#streams): every event a stream carries, numbered once, kept for
// resuming (`since_sequence`), and published as an RxJS Subject that the socket hubs subscribe to. Numbers keep
// growing across a sandbox reset, which empties the log, so a number is never reused. With a durable store, an event
// goes out only once the input that made it is on disk (`durable`), so no client sees what a kill could take back;
// a restart numbers the journal's events again, to the same numbers (docs/api.md#persistence). Resuming reads the
// kept events by binary search, and a trader's backlog only its own account's events (an index of the log): a
// subscription with an old since_sequence had walked every kept event, ~110,000, each time (docs/api.md#subscribing).
import { Subject, type Subscription } from 'rxjs';
import type { Kernel } from '../../core/kernel/kernel.js';
import { streamEventOf, type StreamEvent } from './stream-events.js';
import { declareSnapshot } from '../../core/snapshot/snapshot-fields.js';

/** Events kept for resuming (at least these, up to a tenth more); an older since_sequence is `sequence_expired`. */
export const RETAINED_EVENTS = 100_000;

export interface StreamLogOptions {
  /** Settles once everything journaled so far is durable; undefined when nothing waits (or there is no store). */
  durable?: () => Promise<void> | undefined;
  /** Told when the first subscription starts the numbering (the store journals it). */
  onActivate?: () => void;
}

export class StreamLog {
  readonly events$ = new Subject<StreamEvent>();
  private kept: StreamEvent[] = [];
  /** The kept events of each account, in order: an index of `kept`, rebuilt on restore. */
  private byAccount = new Map<string, StreamEvent[]>();
  private lastSequence = 0;
  /** The last event sent to subscribers: the kept events after it wait for the store. */
  private lastSent = 0;
  /**
   * Events waiting for the store, by the commit they wait for (oldest first): each commit sends the events of its own
   * batch, never those of a later batch still being written. A reset or restore starts a new generation.
   */
  private waiting: Array<{ durable: Promise<void>; upTo: number; sent: Promise<void> }> = [];
  private generation = 0;
  private following: Subscription | undefined;
  private kernel: Kernel | undefined;
  private active = false;

  constructor(private readonly options: StreamLogOptions = {}) {}

  /** The number of the last event sent to subscribers (0 before any). */
  get sequence(): number {
    return this.lastSent;
  }

  /** The number of the last event numbered, sent or still waiting for the store (where a reset goes on from). */
  get lastNumbered(): number {
    return this.lastSequence;
  }

  /** Whether the first subscription has started the numbering. */
  get activated(): boolean {
    return this.active;
  }

  /** A restart's starting point: the numbers used before the journal's last reset, and whether numbering was on. */
  resume(sequence: number, active: boolean): void {
    this.lastSequence = this.lastSent = sequence;
    this.active = active;
  }

  /**
   * Follows a kernel's events (a reset hands over a new kernel; the log starts empty). The log listens only once a
   * client has subscribed (`activate`): before that no client holds a number to resume from, and building and
   * keeping every event would cost each write about a fifth of its speed for nothing.
   */
  follow(kernel: Kernel): void {
    this.kept = [];
    this.byAccount = new Map();
    this.attach(kernel); // what waited for the store is undone by the reset that brought the kernel
  }

  /**
   * Follows the kernel a snapshot was restored into, with the events the snapshot kept: all of them were sent (or
   * could have been), since the snapshot was committed after them.
   */
  restored(kernel: Kernel): void {
    this.byAccount = new Map();
    for (const event of this.kept) this.index(event);
    this.attach(kernel);
  }

  /** Listens to `kernel` from now on, with every event numbered so far counted as sent. */
  private attach(kernel: Kernel): void {
    this.waiting = [];
    this.generation++;
    this.following?.unsubscribe();
    this.following = undefined;
    this.lastSent = this.lastSequence;
    this.kernel = kernel;
    if (this.active) this.listen();
  }

  /** Starts numbering and keeping the kernel's events, for good (the first subscription of any stream). */
  activate(): void {
    if (this.active) return;
    this.active = true;
    this.options.onActivate?.();
    this.listen();
  }

  private listen(): void {
    this.following = this.kernel?.events$.subscribe((kernelEvent) => {
      const event = streamEventOf(kernelEvent, this.lastSequence + 1);
      if (event) this.publish(event);
    });
  }

  /** A firm-wide event of the firm stream that the API raises itself (a shared device at login). */
  publishFirmEvent(type: string, firmId: string, timeMs: number, data: Record<string, unknown>): void {
    const sequence = this.lastSequence + 1;
    this.publish({
      sequence,
      type,
      occurred_at: timeMs,
      account_id: undefined,
      firm_id: firmId,
      channel: undefined,
      firm: true,
      data,
    });
  }

  private publish(event: StreamEvent): void {
    this.lastSequence = event.sequence;
    this.kept.push(event);
    this.index(event);
    // Trimmed a tenth at a time, not one event per event: a full log would otherwise shift 100,000 entries each time.
    if (this.kept.length > RETAINED_EVENTS * 1.1) this.unindex(this.kept.splice(0, this.kept.length - RETAINED_EVENTS));
    const durable = this.options.durable?.();
    const last = this.waiting.at(-1);
    if (!last && !durable) return this.sendUpTo(event.sequence);
    if (last && durable === last.durable) {
      last.upTo = event.sequence; // the same batch: goes out with it
      return;
    }
    // A later batch (or none, behind events that still wait): sent once its commit and every earlier one are done.
    const generation = this.generation;
    const entry = { durable: durable ?? Promise.resolve(), upTo: event.sequence, sent: Promise.resolve() };
    entry.sent = Promise.all([last?.sent, entry.durable]).then(
      () => {
        if (generation !== this.generation) return; // a reset or restore undid what waited
        this.waiting.shift();
        this.sendUpTo(entry.upTo);
      },
      () => undefined, // the store failed: nothing more is acknowledged, nor sent
    );
    this.waiting.push(entry);
  }

  private sendUpTo(sequence: number): void {
    const from = this.lastSent;
    this.lastSent = sequence;
    for (const event of slice(this.kept, from, sequence)) this.events$.next(event);
  }

  /** The kept events after `sequence` (exclusive) that have been sent, or undefined when some are no longer kept. */
  after(sequence: number): StreamEvent[] | undefined {
    if (this.expired(sequence)) return undefined;
    return slice(this.kept, sequence, this.lastSent);
  }

  /** As `after`, of one account's events only: what a trader's subscription resumes, read from the account's index. */
  accountAfter(accountId: string, sequence: number): StreamEvent[] | undefined {
    if (this.expired(sequence)) return undefined;
    return slice(this.byAccount.get(accountId) ?? [], sequence, this.lastSent);
  }

  /** Whether some events after `sequence` are no longer kept. */
  private expired(sequence: number): boolean {
    const firstKept = this.kept[0]?.sequence ?? this.lastSequence + 1;
    return sequence < firstKept - 1;
  }

  private index(event: StreamEvent): void {
    if (event.account_id === undefined) return;
    const events = this.byAccount.get(event.account_id);
    if (events) events.push(event);
    else this.byAccount.set(event.account_id, [event]);
  }

  /** Drops trimmed events from the index: they are the oldest of their accounts', so each account loses a head. */
  private unindex(dropped: readonly StreamEvent[]): void {
    const counts = new Map<string, number>();
    for (const event of dropped)
      if (event.account_id !== undefined) counts.set(event.account_id, (counts.get(event.account_id) ?? 0) + 1);
    for (const [accountId, count] of counts) {
      const events = this.byAccount.get(accountId)!;
      if (count >= events.length) this.byAccount.delete(accountId);
      else events.splice(0, count);
    }
  }
}

/** The events of a list in sequence order numbered after `from` up to `to`, found by binary search. */
function slice(events: readonly StreamEvent[], from: number, to: number): StreamEvent[] {
  return events.slice(firstAfter(events, from), firstAfter(events, to));
}

/** The index of the first event numbered after `sequence` (the list's length when there is none). */
function firstAfter(events: readonly StreamEvent[], sequence: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (events[middle]!.sequence <= sequence) low = middle + 1;
    else high = middle;
  }
  return low;
}

// Snapshots keep the numbered events. Those waiting for a commit are counted as sent by a restore (the snapshot is
// committed after their lines), and `restored` subscribes to the restored kernel again.
declareSnapshot(StreamLog, {
  kept: ['kept', 'lastSequence', 'lastSent', 'kernel', 'active'],
  skipped: ['options', 'events$', 'waiting', 'generation', 'following', 'byAccount'],
});
