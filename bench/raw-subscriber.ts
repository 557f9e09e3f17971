// A lean WebSocket subscriber for the fan-out benchmark: the HTTP upgrade written by hand on a plain TCP socket, one
// masked frame to subscribe (framed by ws), and then the raw bytes read as frames without decoding their text. A
// thousand `ws` clients in the benchmark's process would spend more CPU decoding messages than the server spends
// sending them, on the same two cores, and the figures would be the client's. It counts frames and FILLED records, and times a chunk's FILLED
// records by the order ids of its first and last ones (all the orders of one tick are filled by one print).
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { textFrame } from '../src/api/streams/text-frame.js';

const FILLED = '"status":"FILLED"';
const ORDER_ID = '"order_id":"';
const ID_LENGTH = 36;

export interface Deliveries {
  /** Chunks read from the sockets (a server writing a batch at once sends one per socket and batch). */
  reads: number;
  frames: number;
  filled: number;
  /** Latency of each delivered FILLED record, in buckets of 0.1 ms. */
  readonly histogram: Uint32Array;
}

export function newDeliveries(): Deliveries {
  return { reads: 0, frames: 0, filled: 0, histogram: new Uint32Array(100_000) };
}

/**
 * The bytes every subscriber reads into (Node's `onread`): a read is handled at once, before the next, so one buffer
 * serves them all, and a read costs no allocation and none of the stream machinery of a socket's 'data' events.
 */
const READ_BUFFER = Buffer.alloc(1 << 20);
const HEAD_END = '\r\n\r\n';
const NOTHING = Buffer.alloc(0);

/** Opens /v1/ws, subscribes to the account's `orders` channel and resolves once the acknowledgement has come. */
export function rawSubscriber(
  url: string,
  token: string,
  accountId: string,
  sentAt: ReadonlyMap<string, number>,
  into: Deliveries,
): Promise<Socket> {
  return new Promise((ready, fail) => {
    const { hostname, port, pathname } = new URL(url);
    let head = ''; // the upgrade's answer, until its blank line
    let upgraded = false;
    let acknowledged = false;
    let rest = NOTHING;
    const onBytes = (chunk: Buffer) => {
      into.reads++;
      const bytes = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
      const end = completeFramesEnd(bytes, into);
      if (!acknowledged && end > 0) {
        acknowledged = true;
        ready(socket);
      } else timeFilled(bytes.subarray(0, end), sentAt, into);
      // What is left of a frame is copied: the read buffer holds the next read.
      rest = end === bytes.length ? NOTHING : Buffer.from(bytes.subarray(end));
    };
    const readHead = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const headEnd = head.indexOf(HEAD_END);
      if (headEnd < 0) return;
      if (!head.startsWith('HTTP/1.1 101')) {
        fail(new Error(`upgrade refused: ${head.slice(0, head.indexOf('\r\n'))}`));
        socket.destroy();
        return;
      }
      upgraded = true;
      const frames = Buffer.from(head.slice(headEnd + HEAD_END.length), 'latin1');
      if (frames.length > 0) onBytes(frames);
    };
    const socket = connect({
      host: hostname,
      port: Number(port),
      onread: {
        buffer: READ_BUFFER,
        callback(length: number, buffer: Uint8Array): boolean {
          const chunk = Buffer.from(buffer.buffer, buffer.byteOffset, length);
          if (upgraded) onBytes(chunk);
          else readHead(chunk);
          return true; // keep reading
        },
      },
    });
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.write(
        [
          `GET ${pathname} HTTP/1.1`,
          `Host: ${hostname}:${port}`,
          'Connection: Upgrade',
          'Upgrade: websocket',
          'Sec-WebSocket-Version: 13',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          `Authorization: Bearer ${token}`,
          '',
          '',
        ].join('\r\n'),
      );
      const subscribe = Buffer.from(JSON.stringify({ op: 'subscribe', channels: ['orders'], account_id: accountId }));
      socket.write(textFrame(subscribe, { masked: true }));
    });
  });
}

/** Where the last complete frame of `bytes` ends, counting the complete frames. */
function completeFramesEnd(bytes: Buffer, into: Deliveries): number {
  let at = 0;
  for (;;) {
    if (bytes.length - at < 2) return at;
    let length = bytes[at + 1]! & 0x7f;
    let header = 2;
    if (length === 126) {
      if (bytes.length - at < 4) return at;
      length = bytes.readUInt16BE(at + 2);
      header = 4;
    } else if (length === 127) {
      if (bytes.length - at < 10) return at;
      length = bytes.readUIntBE(at + 4, 6);
      header = 10;
    }
    if (bytes.length - at < header + length) return at;
    at += header + length;
    into.frames++;
  }
}

/**
 * Counts and times a chunk's FILLED records. The chunk is searched as a Latin-1 string (a copy of a few kilobytes):
 * the engine's string search costs little a call, a Buffer's indexOf a call into C++ each, which was the
 * subscribers' largest cost.
 */
function timeFilled(frames: Buffer, sentAt: ReadonlyMap<string, number>, into: Deliveries): void {
  const now = performance.now();
  const text = frames.toString('latin1');
  let first = -1;
  let last = -1;
  let count = 0;
  for (let at = text.indexOf(FILLED); at >= 0; at = text.indexOf(FILLED, at + FILLED.length)) {
    if (first < 0) first = at;
    last = at;
    count++;
  }
  if (count === 0) return;
  into.filled += count;
  const firstSent = sentAt.get(orderIdBefore(text, first));
  const lastSent = sentAt.get(orderIdBefore(text, last));
  if (firstSent === undefined || lastSent === undefined) return;
  if (firstSent === lastSent) return record(into, now - firstSent, count);
  // Records of more than one tick in one chunk: each one by its own order.
  for (let at = text.indexOf(FILLED); at >= 0; at = text.indexOf(FILLED, at + FILLED.length)) {
    const sent = sentAt.get(orderIdBefore(text, at));
    if (sent !== undefined) record(into, now - sent, 1);
  }
}

function orderIdBefore(text: string, at: number): string {
  const start = text.lastIndexOf(ORDER_ID, at) + ORDER_ID.length;
  return text.slice(start, start + ID_LENGTH);
}

function record(into: Deliveries, ms: number, count: number): void {
  into.histogram[Math.min(into.histogram.length - 1, Math.max(0, Math.round(ms * 10)))]! += count;
}

/** The latency (ms) under which a share `p` of the recorded deliveries fall. */
export function percentile(into: Deliveries, p: number): number {
  let total = 0;
  for (const n of into.histogram) total += n;
  let seen = 0;
  for (let bucket = 0; bucket < into.histogram.length; bucket++) {
    seen += into.histogram[bucket]!;
    if (seen > 0 && seen >= p * total) return bucket / 10;
  }
  return NaN;
}
