// docs/api.md#persistence and #streams: the streams match the journal, even across kill -9. A firm-stream subscriber
// of a real `propsim serve --db` receives fills, positions and balances while orders fill under load; the server is
// killed with SIGKILL. Every event the subscriber received is in the restarted server's stream with the same number
// and the same content (an event goes out only once its input is on disk), and a resume from the last number
// received continues with exactly the events after it.
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { KEYS, marketOrderBody } from './api-harness.js';
import { checkedFetch } from './openapi-responses.js';
import { durableServeFiles, startServe, type Server } from './serve-process.js';

const { db, seed } = durableServeFiles('propsim-stream-kill-');
const operator = { 'x-service-api-key': KEYS.acmeOperator };
const admin = { 'x-service-api-key': KEYS.admin };

type Message = { type: string; sequence?: number } & Record<string, unknown>;

let server: Server | undefined;
afterAll(() => server?.child.kill('SIGKILL'));

/** A firm-stream subscription: every message, and a promise of the close. */
async function firmStream(url: string, since?: number): Promise<{ messages: Message[]; closed: Promise<void> }> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/v1/firm-ws`, { headers: operator });
  const messages: Message[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Message));
  ws.on('error', () => undefined); // the kill
  const closed = new Promise<void>((done) => ws.on('close', () => done()));
  await new Promise<void>((open) => ws.on('open', () => open()));
  ws.send(JSON.stringify({ op: 'subscribe', ...(since === undefined ? {} : { since_sequence: since }) }));
  await until(() => messages.length > 0);
  return { messages, closed };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((settle) => setTimeout(settle, 10));
}

const events = (messages: readonly Message[]) => messages.filter((m) => m.type !== 'subscribed');

describe('docs/api.md#persistence: the streams match the journal across kill -9', () => {
  it('every event received before the kill is in the restarted stream, and a resume continues without gap', async () => {
    server = await startServe(['--db', db, '--seed', seed]);
    let url = server.url;
    // Answers the OpenAPI document does not describe are recorded: the load loop takes a throw for the kill.
    const undescribed: string[] = [];
    const post = (path: string, headers: Record<string, string>, body: unknown) =>
      checkedFetch(
        url + path,
        { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) },
        (problems) => undescribed.push(...problems),
      );
    const account = (
      (await (await checkedFetch(`${url}/v1/firm-control/accounts`, { headers: operator })).json()) as {
        items: Array<{ account_id: string }>;
      }
    ).items[0]!.account_id;
    await post('/v1/sandbox/clock/advance', admin, { by: '1s' });
    const before = await firmStream(url);

    const load = Array.from({ length: 2 }, async (_, client) => {
      for (let n = 0; ; n++) {
        try {
          await post('/v1/orders', operator, marketOrderBody(account, (n + client) % 2 === 0 ? 'buy' : 'sell'));
          await post('/v1/sandbox/market/prints', admin, { prints: [{ instrument_id: 'ESM6', price: '5000.00' }] });
        } catch {
          return; // the server is gone
        }
      }
    });
    await until(() => events(before.messages).length >= 30);
    server.child.kill('SIGKILL');
    await Promise.all([...load, before.closed]);
    const received = events(before.messages);
    expect(received.map((m) => m.type)).toContain('fills.created');

    server = await startServe(['--db', db, '--seed', seed]);
    url = server.url;
    const replayed = await firmStream(url, 0);
    await new Promise((settle) => setTimeout(settle, 300)); // the backlog arrives with the acknowledgement
    const kept = new Map(events(replayed.messages).map((m) => [m.sequence, JSON.stringify(m)]));
    for (const event of received)
      expect(kept.get(event.sequence), `event ${event.sequence}`).toBe(JSON.stringify(event));

    const last = received.at(-1)!.sequence!;
    const resumed = await firmStream(url, last);
    await new Promise((settle) => setTimeout(settle, 300));
    expect(events(resumed.messages)).toEqual(events(replayed.messages).filter((m) => m.sequence! > last));
    expect(undescribed, 'every answer is one the OpenAPI document describes').toEqual([]);
  }, 60_000);
});
