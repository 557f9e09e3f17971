// A WebSocket client of the sandbox's streams for tests on a listening server (docs/api.md#streams): it keeps every
// message it received, parsed, and says when a number of them have come.
import WebSocket from 'ws';

export interface StreamClient {
  ws: WebSocket;
  messages: Array<Record<string, unknown>>;
  /** Resolves once `count` messages have arrived in all. */
  received(count: number): Promise<Array<Record<string, unknown>>>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens `ws://address/path` with `headers`; resolves once it is open. */
export async function connectStream(
  address: string,
  path: string,
  headers: Record<string, string>,
): Promise<StreamClient> {
  const ws = new WebSocket(`ws://${address}${path}`, { headers });
  const messages: Array<Record<string, unknown>> = [];
  const waiters: Array<{ count: number; done: () => void }> = [];
  ws.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as Record<string, unknown>);
    for (const waiter of waiters.filter((w) => messages.length >= w.count)) waiter.done();
  });
  const closed = new Promise<{ code: number; reason: string }>((done) =>
    ws.on('close', (code, reason) => done({ code, reason: String(reason) })),
  );
  await new Promise<void>((open, fail) => {
    ws.on('open', () => open());
    ws.on('error', fail);
  });
  return {
    ws,
    messages,
    closed,
    received: (count) =>
      new Promise((done) => {
        if (messages.length >= count) return done(messages.slice(0, count));
        waiters.push({ count, done: () => done(messages.slice(0, count)) });
      }),
  };
}

/** Sends `{op: "subscribe", …fields}`. */
export function subscribeTo(socket: StreamClient, fields: Record<string, unknown>): void {
  socket.ws.send(JSON.stringify({ op: 'subscribe', ...fields }));
}
