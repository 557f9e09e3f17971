// docs/api.md#errors under fuzzing: random and mutated bodies, query strings and headers on every write route never
// answer a 5xx, every refusal is the error envelope, and a refused request changes nothing (the state digest of
// the kernel and the gateway is the same before and after).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyLimitBody, KEYS, PASSWORD, startTestApi, stateDigest, type TestApi } from './api-harness.js';

const RUNS = Number(process.env.PROPSIM_FUZZ_RUNS ?? 60);

interface Ids {
  account: string;
  order: string;
  group: string;
  staff: string;
  token: string;
}

interface WriteRoute {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path(ids: Ids): string;
  /** A body the route accepts, which the fuzzer mutates. */
  valid?(ids: Ids): Record<string, unknown>;
}

const WRITE_ROUTES: WriteRoute[] = [
  {
    method: 'POST',
    path: () => '/v1/orders',
    valid: (ids) => buyLimitBody(ids.account),
  },
  { method: 'PATCH', path: (ids) => `/v1/orders/${ids.order}`, valid: () => ({ quantity: 2, limit_price: '4901.25' }) },
  { method: 'DELETE', path: (ids) => `/v1/orders/${ids.order}` },
  { method: 'POST', path: () => '/v1/orders/groups/oco/link', valid: (ids) => ({ order_ids: [ids.order, ids.order] }) },
  {
    method: 'POST',
    path: () => '/v1/orders/groups/oco/companion',
    valid: (ids) => ({ oco_group_id: ids.group, order_id: ids.order }),
  },
  {
    method: 'POST',
    path: () => '/v1/firm-control/accounts',
    valid: () => ({ user: { email: 'fuzz@example.com', first_name: 'F' }, plan_reference: 'eval-50k' }),
  },
  {
    method: 'PATCH',
    path: (ids) => `/v1/firm-control/accounts/${ids.account}/max-loss-limit`,
    valid: () => ({ max_drawdown_limit: '47000.00' }),
  },
  { method: 'POST', path: (ids) => `/v1/firm-control/accounts/${ids.account}/replace` },
  {
    method: 'PUT',
    path: () => '/v1/firm-control/offerings',
    valid: () => ({ product_family: 'energy', enabled: false }),
  },
  {
    method: 'POST',
    path: () => '/v1/firm-control/staff/roles/assign',
    valid: (ids) => ({ user_id: ids.staff, role_name: 'support' }),
  },
  {
    method: 'POST',
    path: () => '/v1/firm-control/staff/roles/remove',
    valid: (ids) => ({ user_id: ids.staff, role_id: ids.group }),
  },
  {
    method: 'POST',
    path: (ids) => `/v1/balances/${ids.account}/daily-loss/trigger`,
    valid: () => ({ reason_code: 'manual', daily_loss_limit_trigger: '49500.00' }),
  },
  {
    method: 'POST',
    path: (ids) => `/v1/balances/${ids.account}/daily-loss/reanchor`,
    valid: () => ({ reason_code: 'x' }),
  },
  { method: 'POST', path: (ids) => `/v1/balances/${ids.account}/adjust`, valid: () => ({ amount: '-25.50' }) },
  {
    method: 'POST',
    path: (ids) => `/v1/accounts/${ids.account}/lockout`,
    valid: () => ({ reason_code: 'review', flatten: true }),
  },
  { method: 'DELETE', path: (ids) => `/v1/accounts/${ids.account}/lockout` },
  { method: 'POST', path: (ids) => `/v1/accounts/${ids.account}/flatten` },
  { method: 'POST', path: (ids) => `/v1/accounts/${ids.account}/orders/cancel` },
  { method: 'POST', path: () => '/v1/auth/login', valid: () => ({ email: 'trader@acme.example', password: PASSWORD }) },
  { method: 'POST', path: () => '/v1/auth/refresh' },
  { method: 'POST', path: () => '/v1/sandbox/clock/advance', valid: () => ({ by: '1s' }) },
  {
    method: 'POST',
    path: () => '/v1/sandbox/market/prints',
    valid: () => ({ prints: [{ instrument_id: 'ESM6', price: '5000.25', size: 1 }] }),
  },
  {
    method: 'POST',
    path: () => '/v1/sandbox/faults',
    valid: () => ({ target: 'trading', status: 503, duration_ms: 1000, path_prefix: '/v1/orders' }),
  },
];

/** A JSON value of any shape, including the ones that trip parsers: huge numbers, deep nesting, odd keys. */
const anyJson = fc.jsonValue({ maxDepth: 3 });
const oddKey = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'prototype', ''));

/** A valid body with one field removed, replaced by any JSON value, or a field added. */
function mutated(valid: Record<string, unknown>) {
  const keys = Object.keys(valid);
  return fc.oneof(
    fc.constantFrom(...(keys.length > 0 ? keys : ['x'])).map((k) => {
      const copy = { ...valid };
      delete copy[k];
      return copy;
    }),
    fc.tuple(fc.constantFrom(...(keys.length > 0 ? keys : ['x'])), anyJson).map(([k, v]) => ({ ...valid, [k]: v })),
    fc.tuple(oddKey, anyJson).map(([k, v]) => JSON.parse(JSON.stringify({ ...valid, [k]: v }))),
    fc.constantFrom(...keys.map((k) => ({ ...valid, [k]: String(valid[k]) })), { unknown_field: 1 }),
  );
}

/** What goes on the wire as the body: JSON text of a value, or arbitrary text. */
function payloadOf(route: WriteRoute, ids: Ids) {
  const valid = route.valid?.(ids) ?? {};
  return fc.oneof(
    mutated(valid).map((v) => JSON.stringify(v)),
    anyJson.map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 40 }),
    fc.constantFrom('', '{', '{"a":', 'null', '[]', '"x"', '1e999', '{"quantity":1}{'),
  );
}

const headerValue = fc.oneof(
  fc.string({ maxLength: 30 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  fc.constantFrom('', ' ', 'svc_live_', 'Bearer', 'Bearer ', 'Bearer a.b.c'),
);

function headersOf(ids: Ids) {
  return fc.record(
    {
      credential: fc.constantFrom<Record<string, string>>(
        { 'x-service-api-key': KEYS.acmeOperator },
        { 'x-service-api-key': KEYS.acmeViewer },
        { authorization: `Bearer ${KEYS.summitOperator}` },
        { 'x-service-api-key': KEYS.admin, 'x-firm-id': 'acme-prop' },
        { 'x-service-api-key': KEYS.admin },
        { authorization: `Bearer ${ids.token}` },
      ),
      contentType: fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/xml',
      ),
      extra: fc.dictionary(
        fc.constantFrom(
          'idempotency-key',
          'x-request-id',
          'x-firm-id',
          'x-firm-entity-slug',
          'authorization',
          'cookie',
        ),
        headerValue,
        { maxKeys: 2 },
      ),
    },
    { requiredKeys: ['credential', 'contentType'] },
  );
}

const queryString = fc.option(
  fc
    .dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 })
    .map((q) => new URLSearchParams(q).toString()),
  { nil: undefined },
);

describe('docs/api.md#errors: fuzzed requests on every write route', () => {
  let api: TestApi;
  let ids: Ids;

  beforeAll(async () => {
    api = await startTestApi();
    ids = await buildWorld(api);
  });
  afterAll(() => api.close());

  it('the state digest sees an accepted write (so an unchanged digest means something)', async () => {
    const before = stateDigest(api.sandbox);
    const route = WRITE_ROUTES[0]!;
    const response = await api.call({
      method: 'POST',
      url: route.path(ids),
      payload: route.valid!(ids),
      headers: { 'x-service-api-key': KEYS.acmeOperator },
    });
    expect(response.statusCode).toBe(202);
    expect(stateDigest(api.sandbox)).not.toBe(before);
    await api.sandbox.reset();
    ids = await buildWorld(api);
  });

  for (const route of WRITE_ROUTES)
    it(`${route.method} ${route.path({ account: '{account_id}', order: '{order_id}', group: '', staff: '', token: '' })}`, async () => {
      await fc.assert(
        fc.asyncProperty(payloadOf(route, ids), headersOf(ids), queryString, async (payload, headers, query) => {
          const before = stateDigest(api.sandbox);
          const response = await api.call({
            method: route.method,
            url: route.path(ids) + (query ? `?${query}` : ''),
            payload,
            headers: { ...headers.credential, ...headers.extra, 'content-type': headers.contentType },
          });
          expect(response.statusCode).toBeLessThan(500);
          if (response.statusCode >= 400) {
            const body = JSON.parse(response.body);
            expect(Object.keys(body)[0]).toBe('error');
            expect(body).toMatchObject({
              error: expect.any(String),
              code: expect.any(String),
              request_id: expect.any(String),
            });
            expect(stateDigest(api.sandbox)).toBe(before);
          }
          // An accepted write is undone, so every run starts from the same world (the ids are seeded).
          else {
            await api.sandbox.reset();
            expect(await buildWorld(api)).toEqual({ ...ids, token: expect.any(String) });
          }
        }),
        { numRuns: RUNS },
      );
      expect(api.schemaMisses.map((m) => `${m.route} ${m.status}: ${m.problems}`)).toEqual([]);
    });
});

/** The world the fuzzer writes to: trader A's account with a resting order and an OCO group, and a staff member. */
async function buildWorld(api: TestApi): Promise<Ids> {
  const op = { 'x-service-api-key': KEYS.acmeOperator };
  const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) => {
    const response = await api.call({ method, url, headers, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.body}`);
    return api.json(response);
  };
  const login = await call('POST', '/v1/auth/login', {}, { email: 'trader@acme.example', password: PASSWORD });
  const staff = await call('POST', '/v1/auth/login', {}, { email: 'ops@acme.example', password: PASSWORD });
  const accounts = await call('GET', `/v1/firm-control/accounts?user_id=${login.user.user_id}`, op);
  const account: string = accounts.items[0].account_id;
  await call('POST', '/v1/sandbox/clock/advance', { 'x-service-api-key': KEYS.admin }, { by: '1s' });
  const place = async (price: string): Promise<string> =>
    (await call('POST', '/v1/orders', op, buyLimitBody(account, price))).order_id;
  const order = await place('4900.00');
  const legs = [await place('4890.00'), await place('4880.00')];
  const group = await call('POST', '/v1/orders/groups/oco/link', op, { order_ids: legs });
  return { account, order, group: group.oco_group_id, staff: staff.user.user_id, token: login.access_token };
}
