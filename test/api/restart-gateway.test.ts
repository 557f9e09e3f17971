// docs/api.md#persistence, restart equality for what the gateway keeps: idempotency answers, revoked and live tokens,
// fault windows and the logins for the shared-device events survive a restart, and so does a reset (the sandbox it
// left, its stream numbers and its new token secret).
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/api/streams/stream-events.js';
import { buyLimitBody, PASSWORD, stateDigest, type TestApi } from './api-harness.js';
import { acmeAccount, admin, closeRunning, dbFile, everything, open, operator, stop } from './restart-harness.js';

afterEach(closeRunning);

async function login(api: TestApi, email: string): Promise<string> {
  const answer = await api.call({ method: 'POST', url: '/v1/auth/login', payload: { email, password: PASSWORD } });
  expect(answer.statusCode).toBe(200);
  return api.json<{ access_token: string }>(answer).access_token;
}

describe('docs/api.md#persistence: restart equality', () => {
  it('idempotency answers, live and revoked tokens, fault windows and logins survive a restart', async () => {
    const file = dbFile();
    const api = await open(file);
    const account = await acmeAccount(api);
    const placed = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...operator, 'idempotency-key': 'order-1' },
      payload: buyLimitBody(account),
    });
    expect(placed.statusCode).toBe(202);
    const refused = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...operator, 'idempotency-key': 'order-2' },
      payload: { ...buyLimitBody(account), type: 'market' }, // the kernel's 400: a market order has no limit price
    });
    expect(refused.statusCode).toBe(400);
    const live = await login(api, 'trader@acme.example');
    const revoked = await login(api, 'trader@acme.example');
    await api.call({ method: 'POST', url: '/v1/auth/logout', headers: { authorization: `Bearer ${revoked}` } });
    await login(api, 'ops@acme.example'); // a second user of the firm from the same IP: flagged, both users kept
    await api.call({
      method: 'POST',
      url: '/v1/sandbox/faults',
      headers: admin,
      payload: { target: 'balances', status: 503, duration_ms: 3_600_000 },
    });
    const digest = stateDigest(api.sandbox);
    await stop(api);

    const again = await open(file);
    expect(stateDigest(again.sandbox)).toBe(digest);
    const replayed = await again.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...operator, 'idempotency-key': 'order-1' },
      payload: buyLimitBody(account),
    });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(placed.body);
    const refusedAgain = await again.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...operator, 'idempotency-key': 'order-2' },
      payload: { ...buyLimitBody(account), type: 'market' },
    });
    expect(refusedAgain.statusCode).toBe(refused.statusCode);
    expect(again.json(refusedAgain).code).toBe(api.json(refused).code);
    expect(refusedAgain.headers['idempotent-replayed']).toBe('true');

    const me = (token: string) =>
      again.call({ method: 'GET', url: '/v1/orders', headers: { authorization: `Bearer ${token}` } });
    expect((await me(live)).statusCode).toBe(200); // signed with the store's secret: still valid
    expect((await me(revoked)).statusCode).toBe(401);
    const balances = await again.call({ method: 'GET', url: '/v1/balances', headers: operator });
    expect(balances.statusCode).toBe(503);

    // The logins before the restart still count: a third user's login from the same IP names all of them.
    again.sandbox.streams.activate();
    const flagged: StreamEvent[] = [];
    again.sandbox.streams.events$.subscribe((event) => flagged.push(event));
    await again.call({ method: 'POST', url: '/v1/sandbox/faults', headers: admin }); // no body: refused, no change
    await again.call({ method: 'DELETE', url: '/v1/sandbox/faults', headers: admin });
    const summit = await again.call({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'ops@acme.example', password: PASSWORD },
      headers: { 'x-device-fingerprint': 'laptop-1' },
    });
    expect(summit.statusCode).toBe(200);
    await login(again, 'trader@acme.example');
    const ipFlag = flagged.filter((e) => e.type === 'ip_logs.flagged').at(-1);
    expect(ipFlag?.data.user_ids).toHaveLength(2);
    const cleared = await again.call({ method: 'GET', url: '/v1/balances', headers: operator });
    expect(cleared.statusCode).toBe(200);
  });

  it('a reset is kept: the restart is the reset sandbox, and stream numbers are not used again', async () => {
    const file = dbFile();
    const api = await open(file);
    api.sandbox.streams.activate();
    const account = await acmeAccount(api);
    await api.call({ method: 'POST', url: '/v1/orders', headers: operator, payload: buyLimitBody(account) });
    const numberedBeforeReset = api.sandbox.streams.sequence;
    expect(numberedBeforeReset).toBeGreaterThan(0);
    await api.call({ method: 'POST', url: '/v1/sandbox/reset', headers: admin });
    await api.call({ method: 'POST', url: '/v1/orders', headers: operator, payload: buyLimitBody(account, '4800.00') });
    const before = await everything(api);
    expect(before.sequence).toBeGreaterThan(numberedBeforeReset);
    await stop(api);

    const again = await open(file);
    expect(await everything(again)).toEqual(before);
    const orders = again.json<{ items: Array<{ limit_price: string }> }>(
      await again.call({ method: 'GET', url: '/v1/orders', headers: operator }),
    ).items;
    expect(orders.map((o) => o.limit_price)).toEqual(['4800.00']);
  });

  it("a reset's new token secret is kept: a session from before it stays ended after a restart, a later one lives on", async () => {
    const file = dbFile();
    const api = await open(file);
    const before = await login(api, 'trader@acme.example');
    await api.call({ method: 'POST', url: '/v1/sandbox/reset', headers: admin });
    const after = await login(api, 'trader@acme.example');
    await stop(api);

    const again = await open(file);
    const orders = (token: string) =>
      again.call({ method: 'GET', url: '/v1/orders', headers: { authorization: `Bearer ${token}` } });
    expect((await orders(before)).statusCode).toBe(401);
    expect((await orders(after)).statusCode).toBe(200);
  });
});
