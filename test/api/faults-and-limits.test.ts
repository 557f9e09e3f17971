// docs/api.md#fault-windows, #rate-limits and the 409/503 rows of docs/api.md#errors against the app: each fault
// status per target and path prefix on simulated time, Retry-After, the token bucket per key, the risk engine's
// loading window, and the conflicts of orders, lockouts and the clock.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SEED_FILE, loadSeedFile } from '../../src/api/sandbox/seed-file.js';
import { acmeDemoTrader, KEYS, startTestApi, type TestApi } from './api-harness.js';

const acme = { 'x-service-api-key': KEYS.acmeOperator };
const admin = { 'x-service-api-key': KEYS.admin };

describe('sandbox API conflicts, faults and the loading window', () => {
  let api: TestApi;
  let account: string;

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());
  beforeEach(async () => {
    await api.sandbox.reset();
    account = (await acmeDemoTrader(api)).accountId;
  });
  afterEach(() => {
    expect(api.schemaMisses).toEqual([]);
  });

  const call = async (
    method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
    url: string,
    headers: Record<string, string> = acme,
    payload?: object,
  ) => {
    const response = await api.call({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, headers: response.headers, body: api.json(response) };
  };
  const advance = (body: object) => call('POST', '/v1/sandbox/clock/advance', admin, body);
  const fault = (body: object) => call('POST', '/v1/sandbox/faults', admin, body);
  const order = (body: object) =>
    call('POST', '/v1/orders', acme, {
      account_id: account,
      instrument_id: 'ESM6',
      quantity: 1,
      time_in_force: 'day',
      ...body,
    });

  describe('docs/risk-rules.md#the-loading-window: 503 risk_loading while the risk engine loads an account', () => {
    it('a new account answers 503 with Retry-After: 1 for 250 ms of simulated time, then 200', async () => {
      const provisioned = await call('POST', '/v1/firm-control/accounts', acme, {
        user: { email: 'new@example.com' },
        plan_reference: 'eval-50k',
      });
      const id = provisioned.body.account_ids[0];
      const loading = await call('GET', `/v1/firm-control/accounts/${id}/risk-state`);
      expect(loading).toMatchObject({ status: 503, body: { code: 'risk_loading' } });
      expect(loading.headers['retry-after']).toBe('1');
      await advance({ by: '249ms' });
      expect((await call('GET', `/v1/firm-control/accounts/${id}/risk-state`)).status).toBe(503);
      await advance({ by: '1ms' });
      expect((await call('GET', `/v1/firm-control/accounts/${id}/risk-state`)).status).toBe(200);
    });
  });

  describe('docs/api.md#errors: conflicts', () => {
    beforeEach(async () => {
      await advance({ by: '1s' });
    });

    it('DELETE of a FILLED order answers 409 order_final; of a CANCELLED one 200 unchanged', async () => {
      const filled = await order({ side: 'buy', type: 'market' });
      await call('POST', '/v1/sandbox/market/prints', admin, { prints: [{ instrument_id: 'ESM6', price: '5000.00' }] });
      expect(await call('DELETE', `/v1/orders/${filled.body.order_id}`)).toMatchObject({
        status: 409,
        body: { code: 'order_final' },
      });
      const resting = await order({ side: 'buy', type: 'limit', limit_price: '4900.00' });
      expect((await call('DELETE', `/v1/orders/${resting.body.order_id}`)).status).toBe(202);
      const again = await call('DELETE', `/v1/orders/${resting.body.order_id}`);
      expect(again).toMatchObject({ status: 200, body: { status: 'CANCELLED' } });
    });

    it('PATCH of a FILLED order answers 409 order_final', async () => {
      const filled = await order({ side: 'buy', type: 'market' });
      await call('POST', '/v1/sandbox/market/prints', admin, { prints: [{ instrument_id: 'ESM6', price: '5000.00' }] });
      const patched = await call('PATCH', `/v1/orders/${filled.body.order_id}`, acme, { quantity: 2 });
      expect(patched).toMatchObject({ status: 409, body: { code: 'order_final' } });
    });

    it("an order the risk engine sent to flatten answers 409 risk_order to the client's cancel", async () => {
      await order({ side: 'buy', type: 'market' });
      await call('POST', '/v1/sandbox/market/prints', admin, { prints: [{ instrument_id: 'ESM6', price: '5000.00' }] });
      const flattened = await call('POST', `/v1/accounts/${account}/flatten`);
      expect(flattened.status).toBe(200);
      const orders = await call('GET', `/v1/orders?account_id=${account}&status=SUBMITTED`);
      const riskOrder = orders.body.items.find((o: { origin: string }) => o.origin === 'risk');
      expect(riskOrder, 'flatten sent a closing market order').toBeDefined();
      expect(await call('DELETE', `/v1/orders/${riskOrder.order_id}`)).toMatchObject({
        status: 409,
        body: { code: 'risk_order' },
      });
    });

    it('DELETE lockout without a firm lock answers 409 not_firm_locked; with one, 200 unlocked', async () => {
      expect(await call('DELETE', `/v1/accounts/${account}/lockout`)).toMatchObject({
        status: 409,
        body: { code: 'not_firm_locked' },
      });
      expect(await call('POST', `/v1/accounts/${account}/lockout`, acme, { reason_code: 'review' })).toMatchObject({
        status: 200,
        body: { is_locked: true },
      });
      expect(await call('DELETE', `/v1/accounts/${account}/lockout`)).toMatchObject({
        status: 200,
        body: { is_locked: false },
      });
    });

    it('a clock target behind the clock answers 409 clock_backwards and the clock stays', async () => {
      const before = (await call('GET', '/v1/sandbox/clock', admin)).body.now_ms;
      expect(await advance({ to: before - 1 })).toMatchObject({ status: 409, body: { code: 'clock_backwards' } });
      expect((await call('GET', '/v1/sandbox/clock', admin)).body.now_ms).toBe(before);
    });

    it('an order accepted with 202 on a locked account ends REJECTED, with the reason on the order', async () => {
      await call('POST', `/v1/accounts/${account}/lockout`, acme, {});
      const placed = await order({ side: 'buy', type: 'market' });
      expect(placed.status).toBe(202);
      const read = await call('GET', `/v1/orders/${placed.body.order_id}`);
      expect(read.body).toMatchObject({ status: 'REJECTED', error: { code: expect.any(String) } });
    });
  });

  describe('docs/api.md#fault-windows', () => {
    it.each([
      ['trading', 503, 'service_unavailable', 'GET', '/v1/orders'],
      ['trading', 502, 'bad_gateway', 'GET', '/v1/fills'],
      ['balances', 421, 'wrong_shard', 'GET', '/v1/balances'],
      ['risk', 429, 'rate_limited', 'GET', '/v1/firm-control/accounts/ACCOUNT/risk-state'],
      ['accounts', 503, 'service_unavailable', 'GET', '/v1/firm-control/accounts'],
      ['gateway', 502, 'bad_gateway', 'GET', '/v1/stats?account_id=ACCOUNT'],
    ] as const)('a %s window answers %i %s', async (target, status, code, method, path) => {
      expect((await fault({ target, status, duration_ms: 5000 })).status).toBe(201);
      const url = path.replace('ACCOUNT', account);
      const answer = await call(method, url);
      expect(answer).toMatchObject({ status, body: { code } });
      expect(Object.keys(answer.body)[0]).toBe('error');
      if (status === 429 || status === 503)
        expect(answer.headers['retry-after'], 'seconds left in the window').toBe('5');
      else expect(answer.headers['retry-after']).toBeUndefined();
    });

    it('a window covers only its target: another group of routes answers normally', async () => {
      await fault({ target: 'balances', status: 503, duration_ms: 5000 });
      expect((await call('GET', '/v1/orders')).status).toBe(200);
      expect((await call('GET', '/v1/balances')).status).toBe(503);
    });

    it('path_prefix narrows a window to the paths that start with it', async () => {
      await fault({ target: 'trading', status: 502, duration_ms: 5000, path_prefix: '/v1/fills' });
      expect((await call('GET', '/v1/fills')).status).toBe(502);
      expect((await call('GET', '/v1/orders')).status).toBe(200);
    });

    it('a window ends after duration_ms of simulated time; Retry-After counts down with the clock', async () => {
      await fault({ target: 'trading', status: 503, duration_ms: 10_000 });
      await advance({ by: '7s' });
      expect((await call('GET', '/v1/orders')).headers['retry-after']).toBe('3');
      await advance({ by: '3s' });
      expect((await call('GET', '/v1/orders')).status).toBe(200);
    });

    it('DELETE /v1/sandbox/faults closes every window; /health and sandbox control are never faulted', async () => {
      await fault({ target: 'gateway', status: 503, duration_ms: 60_000 });
      expect((await call('GET', '/v1/orders')).status).toBe(503);
      expect((await call('GET', '/health', {})).status).toBe(200);
      expect((await call('GET', '/v1/sandbox/clock', admin)).status).toBe(200);
      expect((await call('DELETE', '/v1/sandbox/faults', admin)).status).toBe(200);
      expect((await call('GET', '/v1/orders')).status).toBe(200);
    });

    it.each([
      [{ target: 'kitchen', status: 503, duration_ms: 1000 }, 'target'],
      [{ target: 'trading', status: 500, duration_ms: 1000 }, 'status'],
      [{ target: 'trading', status: 503, duration_ms: 0 }, 'duration_ms'],
    ])('a bad window %j answers 400 naming %s', async (body, field) => {
      const answer = await fault(body);
      expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      expect(answer.body.details.map((d: { field: string }) => d.field)).toContain(field);
    });
  });
});

describe('docs/api.md#rate-limits: a token bucket per key', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ seed: { ...loadSeedFile(DEFAULT_SEED_FILE), rateLimit: { perSecond: 1, burst: 3 } } });
  });
  afterAll(() => api.close());

  it('the burst passes, then 429 rate_limited with Retry-After; another key still passes', async () => {
    const get = (key: string) => api.call({ method: 'GET', url: '/v1/orders', headers: { 'x-service-api-key': key } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(KEYS.acmeOperator)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await get(KEYS.acmeOperator);
    expect(api.json(limited)).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await get(KEYS.acmeViewer)).statusCode, 'each key has its own bucket').toBe(200);
  });
});
