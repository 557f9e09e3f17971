// The error rows of the routes' own tables (docs/api.md#routes and #errors) over HTTP: required query fields,
// malformed and unknown ids, unknown plans, the operations' 409s, media types and unknown routes. Each answer is
// the envelope, `error` first.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acmeDemoTrader, buyLimitBody, KEYS, startTestApi, type TestApi } from './api-harness.js';

const acme = { 'x-service-api-key': KEYS.acmeOperator };
const summit = { 'x-service-api-key': KEYS.summitOperator };
const admin = { 'x-service-api-key': KEYS.admin };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('docs/api.md#routes: the error rows of each route', () => {
  let api: TestApi;
  let account: string;

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());
  beforeEach(async () => {
    await api.sandbox.reset();
    account = (await acmeDemoTrader(api)).accountId;
    await api.call({ method: 'POST', url: '/v1/sandbox/clock/advance', headers: admin, payload: { by: '1s' } });
  });
  afterEach(() => {
    expect(api.schemaMisses).toEqual([]);
  });

  const call = async (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    headers: Record<string, string> = acme,
    payload?: object | string,
  ) => {
    const response = await api.call({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
    const body = api.json(response);
    expect(Object.keys(body)[0], 'the envelope: error first').toBe(
      response.statusCode >= 400 ? 'error' : Object.keys(body)[0],
    );
    return { status: response.statusCode, body };
  };
  const fields = (body: { details?: { field: string }[] }) => (body.details ?? []).map((d) => d.field);

  it('daily positions need from_date and to_date, each a YYYY-MM-DD date', async () => {
    const missing = await call('GET', `/v1/accounts/${account}/positions/daily`);
    expect(missing).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    expect(fields(missing.body).sort()).toEqual(['from_date', 'to_date']);
    const malformed = await call(
      'GET',
      `/v1/accounts/${account}/positions/daily?from_date=2026-3-2&to_date=2026-03-02`,
    );
    expect(fields(malformed.body)).toEqual(['from_date']);
    expect(
      (await call('GET', `/v1/accounts/${account}/positions/daily?from_date=2026-03-02&to_date=2026-03-02`)).status,
    ).toBe(200);
  });

  it('a malformed id is 400 naming the parameter; an unknown one is 404 with the resource named', async () => {
    expect(fields((await call('GET', '/v1/orders/not-an-id')).body)).toEqual(['order_id']);
    expect(await call('GET', `/v1/orders/${UNKNOWN}`)).toMatchObject({
      status: 404,
      body: { code: 'order_not_found' },
    });
    expect(await call('GET', `/v1/trades/${UNKNOWN}/lots`)).toMatchObject({
      status: 404,
      body: { code: 'trade_not_found' },
    });
    expect(await call('GET', `/v1/balances/${UNKNOWN}`)).toMatchObject({
      status: 404,
      body: { code: 'account_not_found' },
    });
    expect(await call('GET', `/v1/balances/${account}`, summit), 'another firm: as if it did not exist').toMatchObject({
      status: 404,
      body: { code: 'account_not_found' },
    });
  });

  it('stats need account_id', async () => {
    const answer = await call('GET', '/v1/stats');
    expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    expect(fields(answer.body)).toEqual(['account_id']);
  });

  it("provisioning names a plan of the firm: an unknown plan_reference is 400 naming it and the firm's plans", async () => {
    const answer = await call('POST', '/v1/firm-control/accounts', acme, {
      user: { email: 'x@example.com' },
      plan_reference: 'eval-150k',
    });
    expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    expect(fields(answer.body)).toEqual(['plan_reference']);
    expect(answer.body.error, "the firm's plans are listed").toContain(
      'expected one of eval-50k, eval-50k-intraday, eval-100k',
    );
  });

  it('the daily-loss operations answer their 409s (docs/risk-rules.md#status-codes-of-the-two-operations)', async () => {
    // acme's eval-50k has a 1,000 daily loss: the trigger moves; a trigger at the balance leaves no allowance.
    expect(
      await call('POST', `/v1/balances/${account}/daily-loss/trigger`, acme, {
        reason_code: 'ops',
        daily_loss_limit_trigger: '49500.00',
      }),
    ).toMatchObject({ status: 200 });
    await call('POST', `/v1/balances/${account}/adjust`, acme, { amount: '500.00', shift_floors: false });
    await call('POST', `/v1/balances/${account}/daily-loss/trigger`, acme, {
      reason_code: 'ops',
      daily_loss_limit_trigger: '50000.00',
    });
    expect(
      await call('POST', `/v1/balances/${account}/daily-loss/reanchor`, acme, { reason_code: 'ops' }),
    ).toMatchObject({
      status: 409,
      body: { code: 'no_daily_loss_allowance' },
    });
  });

  it("a max-loss-limit change on a static plan answers 409 (summit's eval-50k is static)", async () => {
    const summitAccount = (await call('GET', '/v1/firm-control/accounts', summit)).body.items[0].account_id;
    const answer = await call('PATCH', `/v1/firm-control/accounts/${summitAccount}/max-loss-limit`, summit, {
      max_drawdown_limit: '0',
    });
    expect(answer).toMatchObject({ status: 409, body: { code: 'static_drawdown' } });
  });

  it('an order already in an OCO group cannot join another: 409 oco_conflict', async () => {
    const place = async (price: string) =>
      (await call('POST', '/v1/orders', acme, buyLimitBody(account, price, 'gtc'))).body.order_id as string;
    const [a, b, c] = [await place('4900.00'), await place('4890.00'), await place('4880.00')];
    expect((await call('POST', '/v1/orders/groups/oco/link', acme, { order_ids: [a, b] })).status).toBe(201);
    expect(await call('POST', '/v1/orders/groups/oco/link', acme, { order_ids: [b, c] })).toMatchObject({
      status: 409,
      body: { code: 'oco_conflict' },
    });
  });

  it('replace of a replaced account answers 409 account_closed', async () => {
    expect((await call('POST', `/v1/firm-control/accounts/${account}/replace`)).status).toBe(201);
    expect(await call('POST', `/v1/firm-control/accounts/${account}/replace`)).toMatchObject({
      status: 409,
      body: { code: 'account_closed' },
    });
  });

  it('a body that is not JSON is 400 invalid_json; one that is not application/json is 415', async () => {
    const notJson = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...acme, 'content-type': 'application/json' },
      payload: '{"account_id":',
    });
    expect([notJson.statusCode, api.json(notJson).code]).toEqual([400, 'invalid_json']);
    const text = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...acme, 'content-type': 'text/plain' },
      payload: 'buy 1 ES',
    });
    expect([text.statusCode, api.json(text).code]).toEqual([415, 'unsupported_media_type']);
  });

  it('an unknown route is 404 route_not_found in the envelope', async () => {
    expect(await call('GET', '/v1/nothing-here')).toMatchObject({ status: 404, body: { code: 'route_not_found' } });
  });
});
