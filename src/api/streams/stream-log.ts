// The sandbox's stream of events (docs/api.md#streams): every event a stream carries, numbered once, kept for
// resuming (`since_sequence`), and published as an RxJS Subject that the socket hubs subscribe to. Numbers keep
// growing across a sandbox reset, which empties the log, so a number is never reused.
import { Subject, type Subscription } from 'rxjs';
import type { Kernel } from '../../core/kernel/kernel.js';
import { streamEventOf, type StreamEvent } from './stream-events.js';

/** Events kept for resuming (at least these, up to a tenth more); an older since_sequence is `sequence_expired`. */
export const RETAINED_EVENTS = 100_000;

export class StreamLog {
  readonly events$ = new Subject<StreamEvent>();
  private kept: StreamEvent[] = [];
  private lastSequence = 0;
  private following: Subscription | undefined;
  private kernel: Kernel | undefined;
  private active = false;

  /** The number of the last event published (0 before any). */
  get sequence(): number {
    return this.lastSequence;
  }

  /**
   * Follows a kernel's events (a reset hands over a new kernel; the log starts empty). The log listens only once a
   * client has subscribed (`activate`): before that no client holds a number to resume from, and building and
   * keeping every event would cost each write about a fifth of its speed for nothing.
   */
  follow(kernel: Kernel): void {
    this.following?.unsubscribe();
    this.following = undefined;
    this.kept = [];
    this.kernel = kernel;
    if (this.active) this.listen();
  }

  /** Starts numbering and keeping the kernel's events, for good (the first subscription of any stream). */
  activate(): void {
    if (this.active) return;
    this.active = true;
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
    // Trimmed a tenth at a time, not one event per event: a full log would otherwise shift 100,000 entries each time.
    if (this.kept.length > RETAINED_EVENTS * 1.1) this.kept.splice(0, this.kept.length - RETAINED_EVENTS);
    this.events$.next(event);
  }

  /** The kept events after `sequence` (exclusive), or undefined when some of them are no longer kept. */
  after(sequence: number): StreamEvent[] | undefined {
    const firstKept = this.kept[0]?.sequence ?? this.lastSequence + 1;
    if (sequence < firstKept - 1) return undefined;
    let from = this.kept.length;
    while (from > 0 && this.kept[from - 1]!.sequence > sequence) from--;
    return this.kept.slice(from);
  }
}
