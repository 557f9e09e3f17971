// docs/api.md#persistence, kill -9 under load: a real `propsim serve --db` takes orders from several clients at once
// and is killed with SIGKILL at a moment of the load; restarted on the same file, every acknowledged order is there,
// and nothing is half-written: each order in the sandbox has its idempotency answer and each stored answer its
// order, so a client retrying an unanswered request gets either the order it placed or a new one, never a second.
// Repeated at several kill points on the same file; then a clean restart keeps the journal hash.
import { afterAll, describe, expect, it } from 'vitest';
import { buyLimitBody, KEYS } from './api-harness.js';
import { checkedFetch } from './openapi-responses.js';
import { durableServeFiles, startServe, type Server } from './serve-process.js';

const { db, seed } = durableServeFiles('propsim-kill-');
const operator = { 'x-service-api-key': KEYS.acmeOperator, 'content-type': 'application/json' };
const admin = { 'x-service-api-key': KEYS.admin };
const CLIENTS = 4;
/** Milliseconds of load before each SIGKILL; each kill also waits for MIN_ANSWERS, so a busy machine still kills under load. */
const KILL_AFTER_MS = [120, 300, 500, 750, 1000];
const MIN_ANSWERS = 12;

interface Sent {
  key: string;
  body: Record<string, unknown>;
}

let server: Server | undefined;
afterAll(() => server?.child.kill('SIGKILL'));
/** Answers the OpenAPI document does not describe: recorded, since the load loops take a throw for the kill. */
const undescribed: string[] = [];
const record = (problems: string[]) => undescribed.push(...problems);

async function start(): Promise<Server> {
  server = await startServe(['--db', db, '--seed', seed, '--snapshot-every', '400']);
  return server;
}

async function place(url: string, sent: Sent): Promise<{ status: number; replayed: boolean; orderId?: string }> {
  const response = await checkedFetch(
    `${url}/v1/orders`,
    { method: 'POST', headers: { ...operator, 'idempotency-key': sent.key }, body: JSON.stringify(sent.body) },
    record,
  );
  const body = (await response.json()) as { order_id?: string };
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    ...(body.order_id ? { orderId: body.order_id } : {}),
  };
}

async function allOrderIds(url: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const page = (await (
      await checkedFetch(`${url}/v1/orders?limit=500${cursor ? `&cursor=${cursor}` : ''}`, { headers: operator })
    ).json()) as { items: Array<{ order_id: string }>; next_cursor: string | null };
    for (const order of page.items) ids.add(order.order_id);
    cursor = page.next_cursor;
  } while (cursor);
  return ids;
}

async function eventsSha256(url: string): Promise<string | null> {
  const response = await checkedFetch(`${url}/v1/sandbox/session.yaml`, { headers: admin });
  await response.text();
  return response.headers.get('x-events-sha256');
}

describe('docs/api.md#persistence: kill -9 under load loses no acknowledged write and half-writes nothing', () => {
  it(`${CLIENTS} clients, SIGKILL after ${KILL_AFTER_MS.join(', ')} ms of load, restarts on the same file`, async () => {
    const sent: Sent[] = [];
    /** Acknowledged placements: key → order id. */
    const acknowledged = new Map<string, string>();
    let url = (await start()).url;
    const account = (
      (await (await checkedFetch(`${url}/v1/firm-control/accounts`, { headers: operator })).json()) as {
        items: Array<{ account_id: string }>;
      }
    ).items[0]!.account_id;

    for (const [round, killAfterMs] of KILL_AFTER_MS.entries()) {
      let answeredInRound = 0;
      const clients = Array.from({ length: CLIENTS }, async (_, client) => {
        for (let n = 0; ; n++) {
          const request: Sent = { key: `r${round}-c${client}-${n}`, body: buyLimitBody(account, '4900.00', 'gtc') };
          sent.push(request);
          try {
            const answer = await place(url, request);
            expect(answer.status).toBe(202);
            acknowledged.set(request.key, answer.orderId!);
            answeredInRound++;
          } catch {
            return; // the server is gone
          }
        }
      });
      await new Promise((settle) => setTimeout(settle, killAfterMs));
      while (answeredInRound < MIN_ANSWERS) await new Promise((settle) => setTimeout(settle, 5));
      server!.child.kill('SIGKILL');
      await Promise.all(clients);
      expect((await server!.exited).code).toBe(null); // killed, not exited

      url = (await start()).url;
      const orders = await allOrderIds(url);
      // Every acknowledged order survived.
      for (const [key, orderId] of acknowledged) expect(orders.has(orderId), `acknowledged ${key}`).toBe(true);
      // Every order has its stored answer: retrying every request sent gives back exactly the orders there are.
      const replayedOrders = new Set<string>();
      for (const request of sent) {
        const again = await place(url, request);
        if (again.replayed) {
          expect(again.orderId, `stored answer of ${request.key}`).toBeDefined();
          expect(orders.has(again.orderId!), `order of stored answer ${request.key}`).toBe(true);
          replayedOrders.add(again.orderId!);
        } else expect(acknowledged.has(request.key), `acknowledged ${request.key} was not stored`).toBe(false);
        acknowledged.set(request.key, again.orderId!);
      }
      expect(replayedOrders).toEqual(orders);
    }
    expect(acknowledged.size).toBeGreaterThan(KILL_AFTER_MS.length * 50);

    // A clean restart: the same journal.
    const before = await eventsSha256(url);
    server!.child.kill('SIGTERM');
    expect((await server!.exited).code).toBe(0);
    url = (await start()).url;
    expect(await eventsSha256(url)).toBe(before);
    expect((await allOrderIds(url)).size).toBe(acknowledged.size);
    expect(undescribed, 'every answer is one the OpenAPI document describes').toEqual([]);
  }, 120_000);
});
