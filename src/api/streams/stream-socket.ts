// One WebSocket of a stream (docs/api.md#streams): its subscriptions, each sent first what the log kept after
// `since_sequence` and then the live events, with no gap or duplicate between the two (both happen in one turn of
// the event loop); and the slow-consumer bound, which closes a socket whose unsent data passes the limit, so one
// client cannot grow the server's memory. What one turn of the event loop sends to a socket (the events of one
// request, say) leaves in one write: the TCP socket is corked until the turn ends.
import type { Socket } from 'node:net';
import { filter, type Subscription } from 'rxjs';
import type { WebSocket } from 'ws';
import { eventMessage, type StreamEvent } from './stream-events.js';
import type { StreamLog } from './stream-log.js';

/** The close code and reason of a socket that fell behind (1013: try again later). */
export const SLOW_CONSUMER_CLOSE = 1013;

export class StreamSocket {
  private readonly subscriptions: Subscription[] = [];
  private corked = false;

  constructor(
    private readonly socket: WebSocket,
    /** The connection under the WebSocket. */
    private readonly tcp: Socket,
    private readonly log: StreamLog,
    private readonly bufferLimitBytes: number,
  ) {
    socket.on('close', () => {
      for (const subscription of this.subscriptions) subscription.unsubscribe();
    });
  }

  /**
   * Acknowledges with `subscribed` and the current sequence, then sends the kept events after `since` that
   * `wanted` accepts, then the live ones. False when events after `since` are no longer kept.
   */
  subscribe(ack: Record<string, unknown>, wanted: (event: StreamEvent) => boolean, since: number | undefined): boolean {
    this.log.activate();
    const backlog = since === undefined ? [] : this.log.after(since);
    if (!backlog) return false;
    const current = this.log.sequence;
    this.sendJson({ type: 'subscribed', ...ack, sequence: current });
    for (const event of backlog) if (wanted(event)) this.send(eventMessage(event));
    this.subscriptions.push(
      this.log.events$
        .pipe(filter((event) => event.sequence > current && wanted(event)))
        .subscribe((event) => this.send(eventMessage(event))),
    );
    return true;
  }

  error(code: string, message: string): void {
    this.sendJson({ type: 'error', code, error: message });
  }

  private sendJson(message: Record<string, unknown>): void {
    this.send(JSON.stringify(message));
  }

  private send(text: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (!this.corked) {
      this.corked = true;
      this.tcp.cork();
      process.nextTick(() => {
        this.corked = false;
        this.tcp.uncork();
      });
    }
    this.socket.send(text);
    if (this.socket.bufferedAmount > this.bufferLimitBytes) {
      for (const subscription of this.subscriptions) subscription.unsubscribe();
      this.socket.close(
        SLOW_CONSUMER_CLOSE,
        `slow consumer: more than ${this.bufferLimitBytes} bytes unsent; reconnect with since_sequence`,
      );
    }
  }
}
