// docs/api.md#idempotency and docs/api.md#lists-and-pagination against the app: replays, a reused key, keys per
// firm, the in-flight duplicate (two requests that really overlap), expiry after 24 h of simulated time; pages that
// neither repeat nor skip an item while new ones arrive between them, and a bad cursor.
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acmeDemoTrader, buyLimitBody, KEYS, startTestApi, type TestApi } from './api-harness.js';

let api: TestApi;
let account: string;
const acme = { 'x-service-api-key': KEYS.acmeOperator };
const admin = { 'x-service-api-key': KEYS.admin };

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());
beforeEach(async () => {
  await api.sandbox.reset();
  account = (await acmeDemoTrader(api)).accountId;
  await advance({ by: '1s' });
});
afterEach(() => {
  expect(api.schemaMisses).toEqual([]);
});

async function advance(body: Record<string, unknown>) {
  const response = await api.call({ method: 'POST', url: '/v1/sandbox/clock/advance', headers: admin, payload: body });
  expect(response.statusCode).toBe(200);
}

const limitOrder = (price: string) => buyLimitBody(account, price, 'gtc');

const place = (body: object, headers: Record<string, string> = acme) =>
  api.call({ method: 'POST', url: '/v1/orders', headers, payload: body });

async function orderCount(): Promise<number> {
  return api.json(await api.call({ method: 'GET', url: '/v1/orders?limit=500', headers: acme })).items.length;
}

describe('docs/api.md#idempotency', () => {
  it('the same key and body replay the first answer, marked Idempotent-Replayed, and place nothing', async () => {
    const first = await place(limitOrder('4900.00'), { ...acme, 'idempotency-key': 'k-1' });
    const again = await place(limitOrder('4900.00'), { ...acme, 'idempotency-key': 'k-1' });
    expect(first.statusCode).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body, 'the whole answer, byte for byte').toBe(first.body);
    expect(await orderCount()).toBe(1);
  });

  it('the same key with another body answers 409 idempotency_key_reused', async () => {
    await place(limitOrder('4900.00'), { ...acme, 'idempotency-key': 'k-2' });
    const other = await place(limitOrder('4800.00'), { ...acme, 'idempotency-key': 'k-2' });
    expect(other.statusCode).toBe(409);
    expect(api.json(other)).toMatchObject({ code: 'idempotency_key_reused' });
    expect(await orderCount()).toBe(1);
  });

  it("the kernel's refusal is replayed too; a 404 for an account the caller cannot see is answered afresh", async () => {
    const refused = { ...limitOrder('4900.00'), type: 'market' }; // a limit price on a market order
    const first = await place(refused, { ...acme, 'idempotency-key': 'k-400' });
    const again = await place(refused, { ...acme, 'idempotency-key': 'k-400' });
    expect([first.statusCode, again.statusCode]).toEqual([400, 400]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const unseen = { ...limitOrder('4900.00'), account_id: '00000000-0000-4000-8000-000000000000' };
    const notFound = await place(unseen, { ...acme, 'idempotency-key': 'k-404' });
    const notFoundAgain = await place(unseen, { ...acme, 'idempotency-key': 'k-404' });
    expect([notFound.statusCode, notFoundAgain.statusCode]).toEqual([404, 404]);
    expect(api.json(notFoundAgain).code).toBe('account_not_found');
    expect(notFoundAgain.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keys are per firm: the same key from another firm is a new request', async () => {
    await place(limitOrder('4900.00'), { ...acme, 'idempotency-key': 'shared' });
    const summitAccounts = api.json(
      await api.call({
        method: 'GET',
        url: '/v1/firm-control/accounts',
        headers: { 'x-service-api-key': KEYS.summitOperator },
      }),
    );
    const summit = await place(
      { ...limitOrder('4900.00'), account_id: summitAccounts.items[0].account_id },
      { 'x-service-api-key': KEYS.summitOperator, 'idempotency-key': 'shared' },
    );
    expect(summit.statusCode).toBe(202);
    expect(summit.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a duplicate that arrives while the first is still being handled answers 409 idempotency_request_in_progress', async () => {
    // The first request's body is still arriving (its stream is open) when the duplicate comes in.
    const slowBody = new PassThrough();
    const first = api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...acme, 'idempotency-key': 'k-3', 'content-type': 'application/json' },
      payload: slowBody,
    });
    await new Promise((settle) => setImmediate(settle));
    const duplicate = await place(limitOrder('4900.00'), { ...acme, 'idempotency-key': 'k-3' });
    slowBody.end(JSON.stringify(limitOrder('4900.00')));
    expect(duplicate.statusCode).toBe(409);
    expect(api.json(duplicate)).toMatchObject({ code: 'idempotency_request_in_progress' });
    expect((await first).statusCode).toBe(202);
    expect(await orderCount(), 'only the first placed an order').toBe(1);
    const later = await place(limitOrder('4900.00'), { ...acme, 'idempotency-key': 'k-3' });
    expect(later.headers['idempotent-replayed'], 'once answered, the key replays').toBe('true');
  });

  it('a key is kept for 24 hours of simulated time, then it is new again', async () => {
    const first = await place(limitOrder('4900.00'), { ...acme, 'idempotency-key': 'k-4' });
    await advance({ by: '23h' });
    const within = await place(limitOrder('4900.00'), { ...acme, 'idempotency-key': 'k-4' });
    expect(within.body).toBe(first.body);
    await advance({ by: '1h' });
    const after = await place(limitOrder('4900.00'), { ...acme, 'idempotency-key': 'k-4' });
    expect(after.statusCode).toBe(202);
    expect(api.json(after).order_id).not.toBe(api.json(first).order_id);
  });
});

describe('docs/api.md#lists-and-pagination', () => {
  async function page(path: string, cursor?: string) {
    const sep = path.includes('?') ? '&' : '?';
    const response = await api.call({
      method: 'GET',
      url: `${path}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`,
      headers: acme,
    });
    expect(response.statusCode).toBe(200);
    return api.json(response) as { items: { order_id: string }[]; next_cursor: string | null };
  }

  it('pages of equal timestamps neither repeat nor skip an order, even as new ones arrive between pages', async () => {
    const placed: string[] = [];
    for (let i = 0; i < 7; i++) placed.push(api.json(await place(limitOrder(`49${10 + i}.00`))).order_id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const p = await page('/v1/orders?limit=3', cursor);
      seen.push(...p.items.map((o) => o.order_id));
      cursor = p.next_cursor ?? undefined;
      pages++;
      // A new order arrives between two pages, at the same simulated millisecond as the others.
      if (pages <= 2) placed.push(api.json(await place(limitOrder(`48${10 + pages}.00`))).order_id);
    } while (cursor !== undefined);
    expect(seen, 'every order once, in creation order, including those placed between pages').toEqual(placed);
    expect(pages).toBe(3);
  });

  it('the last page answers next_cursor null', async () => {
    await place(limitOrder('4900.00'));
    expect(await page('/v1/orders?limit=5')).toMatchObject({ next_cursor: null });
  });

  it.each([
    ['not-a-cursor', 'garbage'],
    ['a cursor of another list', 'fills'],
  ])('a bad cursor (%s) answers 400 invalid_cursor', async (_name, kind) => {
    await place(limitOrder('4900.00'));
    await place(limitOrder('4901.00'));
    let cursor = 'bm90LWEtY3Vyc29y';
    if (kind === 'fills') {
      // Take a real cursor of the orders list and send it to fills.
      cursor = (await page('/v1/orders?limit=1')).next_cursor!;
    }
    const url = kind === 'fills' ? '/v1/fills' : '/v1/orders';
    const response = await api.call({ method: 'GET', url: `${url}?cursor=${cursor}`, headers: acme });
    expect(response.statusCode).toBe(400);
    expect(api.json(response)).toMatchObject({ code: 'invalid_cursor' });
  });

  it('a status filter filters, and an unknown status answers 400 with the statuses, not an empty page', async () => {
    await place(limitOrder('4900.00'));
    expect((await page('/v1/orders?status=SUBMITTED')).items).toHaveLength(1);
    expect((await page('/v1/orders?status=FILLED')).items).toHaveLength(0);
    const statuses = 'SUBMITTED, PARTIALLY_FILLED, FILLED, CANCELLED, REJECTED, EXPIRED';
    for (const [url, headers, expected] of [
      ['/v1/orders?status=filled', acme, statuses],
      ['/v1/admin/query/orders?status=WORKING', { ...admin, 'x-firm-id': 'acme-prop' }, statuses],
      [
        '/v1/admin/query/accounts?status=locked',
        { ...admin, 'x-firm-id': 'acme-prop' },
        'active, failed, passed, closed',
      ],
    ] as const) {
      const response = await api.call({ method: 'GET', url, headers });
      expect(response.statusCode, url).toBe(400);
      expect(api.json(response), url).toMatchObject({
        code: 'invalid_request',
        details: [{ field: 'status', message: expect.stringContaining(`expected one of ${expected}, got`) }],
      });
    }
  });

  it.each(['0', '501', 'abc', '1.5'])('limit=%s answers 400 naming limit', async (limit) => {
    const response = await api.call({ method: 'GET', url: `/v1/orders?limit=${limit}`, headers: acme });
    expect(response.statusCode).toBe(400);
    expect(api.json(response)).toMatchObject({ code: 'invalid_request', details: [{ field: 'limit' }] });
  });
});
