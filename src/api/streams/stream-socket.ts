// One WebSocket of a stream (docs/api.md#streams): its subscriptions, each sent first what the log kept after
// `since_sequence` and then the live events, with no gap or duplicate between the two (both happen in one turn of
// the event loop); and the slow-consumer bound, which closes a socket whose unsent data passes the limit, so one
// client cannot grow the server's memory. Live events come from the subscription's group (stream-fanout.ts), as
// frames ready to write to the connection; acknowledgements and errors go through ws. A socket follows each account's
// channels (or its firm) as a set (docs/api.md#subscribing): a channel it already follows is not joined again, so no
// event reaches it twice, and it follows at most MAX_ACCOUNTS_PER_SOCKET accounts.
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { eventFrame } from './stream-events.js';
import type { FanoutSocket, StreamFanout, StreamRoute } from './stream-fanout.js';
import type { StreamLog } from './stream-log.js';

/** How many accounts one trader socket may follow. */
export const MAX_ACCOUNTS_PER_SOCKET = 100;

/** The close code and reason of a socket that fell behind (1013: try again later). */
export const SLOW_CONSUMER_CLOSE = 1013;

/** What one subscribe message asks to follow: an account's channels, or (no account) the firm's stream. */
export interface Topic {
  readonly accountId?: string;
  readonly channels: readonly string[];
}

/** The firm stream's place among a socket's topics: it has no account. */
const FIRM = '';

export class StreamSocket implements FanoutSocket {
  private readonly leaves: Array<() => void> = [];
  /** What the socket follows: channels by account (the firm stream under FIRM, with no channel). */
  private readonly following = new Map<string, Set<string>>();

  constructor(
    private readonly socket: WebSocket,
    /** The connection under the WebSocket. */
    private readonly tcp: Socket,
    private readonly log: StreamLog,
    private readonly fanout: StreamFanout,
    private readonly bufferLimitBytes: number,
  ) {
    socket.on('close', () => this.leaveAll());
  }

  /**
   * What of `topic` this socket does not follow yet: the channels to add (all of the firm stream's, none), or
   * undefined when it follows all of them already; `'limit'` when the topic is a new account past the cap.
   */
  unfollowed(topic: Topic): string[] | undefined | 'limit' {
    const followed = this.following.get(topic.accountId ?? FIRM);
    if (!followed) return this.following.size >= MAX_ACCOUNTS_PER_SOCKET ? 'limit' : [...new Set(topic.channels)];
    const added = [...new Set(topic.channels)].filter((c) => !followed.has(c));
    return added.length === 0 ? undefined : added;
  }

  /**
   * Acknowledges with `subscribed` and the current sequence, then sends the kept events after `since` that the
   * route wants, then the live ones of its group; the socket now follows `topic`. False when events after `since`
   * are no longer kept. A route of one account resumes from that account's events alone.
   */
  subscribe(ack: Record<string, unknown>, route: StreamRoute, since: number | undefined, topic: Topic): boolean {
    this.log.activate();
    const backlog =
      since === undefined
        ? []
        : route.accountId === undefined
          ? this.log.after(since)
          : this.log.accountAfter(route.accountId, since);
    if (!backlog) return false;
    this.acknowledge(ack);
    const current = this.log.sequence;
    const frames = backlog.filter(route.wanted).map(eventFrame);
    if (frames.length > 0) this.write(Buffer.concat(frames));
    if (this.isOpen()) this.leaves.push(this.fanout.join(route, { after: current, socket: this }));
    const followed = this.following.get(topic.accountId ?? FIRM) ?? new Set<string>();
    for (const channel of topic.channels) followed.add(channel);
    this.following.set(topic.accountId ?? FIRM, followed);
    return true;
  }

  /** `subscribed` with the current sequence: what a subscription that adds nothing answers too. */
  acknowledge(ack: Record<string, unknown>): void {
    this.sendJson({ type: 'subscribed', ...ack, sequence: this.log.sequence });
  }

  error(code: string, message: string): void {
    this.sendJson({ type: 'error', code, error: message });
  }

  private sendJson(message: Record<string, unknown>): void {
    if (this.isOpen()) this.socket.send(JSON.stringify(message));
  }

  /** Writes frames under ws, which sends its own synchronously (no compression), so the two never interleave. */
  write(frames: Buffer): void {
    if (!this.isOpen()) return;
    this.tcp.write(frames);
    if (this.tcp.writableLength > this.bufferLimitBytes) {
      this.leaveAll();
      this.socket.close(
        SLOW_CONSUMER_CLOSE,
        `slow consumer: more than ${this.bufferLimitBytes} bytes unsent; reconnect with since_sequence`,
      );
    }
  }

  private isOpen(): boolean {
    return this.socket.readyState === this.socket.OPEN && !this.tcp.destroyed;
  }

  private leaveAll(): void {
    for (const leave of this.leaves.splice(0)) leave();
  }
}
