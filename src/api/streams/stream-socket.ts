// One WebSocket of a stream (docs/api.md#streams): its subscriptions, each sent first what the log kept after
// `since_sequence` and then the live events, with no gap or duplicate between the two (both happen in one turn of
// the event loop); and the slow-consumer bound, which closes a socket whose unsent data passes the limit, so one
// client cannot grow the server's memory. Live events come from the subscription's group (stream-fanout.ts), as
// frames ready to write to the connection; acknowledgements and errors go through ws.
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { eventFrame } from './stream-events.js';
import type { FanoutSocket, StreamFanout, StreamRoute } from './stream-fanout.js';
import type { StreamLog } from './stream-log.js';

/** The close code and reason of a socket that fell behind (1013: try again later). */
export const SLOW_CONSUMER_CLOSE = 1013;

export class StreamSocket implements FanoutSocket {
  private readonly leaves: Array<() => void> = [];

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
   * Acknowledges with `subscribed` and the current sequence, then sends the kept events after `since` that the
   * route wants, then the live ones of its group. False when events after `since` are no longer kept.
   */
  subscribe(ack: Record<string, unknown>, route: StreamRoute, since: number | undefined): boolean {
    this.log.activate();
    const backlog = since === undefined ? [] : this.log.after(since);
    if (!backlog) return false;
    const current = this.log.sequence;
    this.sendJson({ type: 'subscribed', ...ack, sequence: current });
    const frames = backlog.filter(route.wanted).map(eventFrame);
    if (frames.length > 0) this.write(Buffer.concat(frames));
    if (this.isOpen()) this.leaves.push(this.fanout.join(route, { after: current, socket: this }));
    return true;
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
