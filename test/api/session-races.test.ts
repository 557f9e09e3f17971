// docs/api.md#keys-and-login and #idempotency under concurrency: a refresh token is single-use — of two refreshes of
// one token sent at once, one gets the new token and the other 401 — and an idempotent replay answers only a caller
// who may see the stored order's account: another trader of the same firm who sends the same key and body gets the
// 404 a fresh request from them would, never that order.
import { afterEach, describe, expect, it } from 'vitest';
import { acmeDemoTrader, buyLimitBody, key, KEYS, PASSWORD, startTestApi, type TestApi } from './api-harness.js';

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const admin = key(KEYS.admin);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('docs/api.md#keys-and-login: a token is refreshed once', () => {
  it('two refreshes of one token at once: one 200, one 401, and the old token is revoked', async () => {
    api = await startTestApi();
    const { token } = await acmeDemoTrader(api);
    const refresh = () => api!.call({ method: 'POST', url: '/v1/auth/refresh', headers: bearer(token) });
    const answers = await Promise.all([refresh(), refresh(), refresh()]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401]);
    expect(answers.filter((a) => a.statusCode === 401).map((a) => api!.json(a).code)).toEqual([
      'invalid_credentials',
      'invalid_credentials',
    ]);
    const fresh = api.json(answers.find((a) => a.statusCode === 200)!).access_token;
    expect((await api.call({ method: 'GET', url: '/v1/orders', headers: bearer(fresh) })).statusCode).toBe(200);
    expect((await api.call({ method: 'GET', url: '/v1/orders', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('a refresh and a logout of one token at once: the refreshed token is not left standing after the logout', async () => {
    api = await startTestApi();
    const { token } = await acmeDemoTrader(api);
    const [refreshed, loggedOut] = await Promise.all([
      api.call({ method: 'POST', url: '/v1/auth/refresh', headers: bearer(token) }),
      api.call({ method: 'POST', url: '/v1/auth/logout', headers: bearer(token) }),
    ]);
    expect([refreshed.statusCode, loggedOut.statusCode].sort()).toEqual([200, 401]);
  });
});

describe('docs/api.md#idempotency: a replay answers only who may see the order', () => {
  it("another trader of the firm sending the first trader's key and body gets 404, not the first trader's order", async () => {
    api = await startTestApi();
    const first = await acmeDemoTrader(api);
    const provisioned = await api.call({
      method: 'POST',
      url: '/v1/firm-control/accounts',
      headers: key(KEYS.acmeOperator),
      payload: { user: { email: 'second@acme.example' }, plan_reference: 'eval-50k' },
    });
    expect(provisioned.statusCode).toBe(201);
    const login = await api.call({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'second@acme.example', password: PASSWORD },
    });
    const second = api.json(login).access_token as string;
    await api.call({ method: 'POST', url: '/v1/sandbox/clock/advance', headers: admin, payload: { by: '1s' } });

    const body = buyLimitBody(first.accountId);
    const place = (token: string) =>
      api!.call({
        method: 'POST',
        url: '/v1/orders',
        headers: { ...bearer(token), 'idempotency-key': 'shared-key' },
        payload: body,
      });
    const placed = await place(first.token);
    expect(placed.statusCode).toBe(202);
    const stolen = await place(second);
    expect([stolen.statusCode, api.json(stolen).code]).toEqual([404, 'account_not_found']);
    expect(stolen.headers['idempotent-replayed']).toBeUndefined();
    expect(stolen.body).not.toContain(api.json(placed).order_id);
    const replayed = await place(first.token);
    expect([replayed.statusCode, replayed.headers['idempotent-replayed']]).toEqual([202, 'true']);
    expect(replayed.body).toBe(placed.body);
  });
});
