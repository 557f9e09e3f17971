// docs/api.md#memory-stays-bounded: what the sandbox keeps per caller stays bounded while the clock stands still, and
// is dropped once it can no longer matter. Revoked session ids are kept until the token would have expired anyway;
// an idempotency answer is kept only for a request that reached the kernel (not a 404 for an account the caller
// cannot see); the shared-device check costs a login what the users of its device and IP cost, not every login
// so far, and keeps one entry per user, device and IP, however often they log in.
import { afterEach, describe, expect, it } from 'vitest';
import {
  DeviceLogins,
  SHARED_DEVICE_WINDOW_MS,
  type DeviceFlag,
  type Login,
} from '../../src/api/sandbox/device-logins.js';
import { acmeDemoTrader, buyLimitBody, key, KEYS, startTestApi, type TestApi } from './api-harness.js';

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const admin = key(KEYS.admin);

async function refreshLoop(api: TestApi, token: string, times: number): Promise<string> {
  let current = token;
  for (let i = 0; i < times; i++) {
    const answer = await api.call({
      method: 'POST',
      url: '/v1/auth/refresh',
      headers: { authorization: `Bearer ${current}` },
    });
    expect(answer.statusCode).toBe(200);
    current = api.json(answer).access_token;
  }
  return current;
}

describe('docs/api.md#memory-stays-bounded: revoked session ids', () => {
  it('are dropped once the token would have expired: refreshes an hour apart do not add up', async () => {
    api = await startTestApi();
    const first = await acmeDemoTrader(api);
    await refreshLoop(api, first.token, 1500);
    expect(api.sandbox.revokedTokens.size).toBe(1500);
    await api.call({ method: 'POST', url: '/v1/sandbox/clock/advance', headers: admin, payload: { by: '2h' } });
    const second = await acmeDemoTrader(api);
    await refreshLoop(api, second.token, 1500);
    // The first 1,500 expired an hour ago: at most the live ones and those since the last sweep are held.
    expect(api.sandbox.revokedTokens.size).toBeLessThan(2 * 1500);
    expect(api.sandbox.revokedTokens.size).toBeGreaterThanOrEqual(1500);
  }, 60_000);

  it('a revoked token stays refused until it expires, across the sweeps', async () => {
    api = await startTestApi();
    const { token } = await acmeDemoTrader(api);
    await refreshLoop(api, token, 1100); // past a sweep
    const answer = await api.call({ method: 'GET', url: '/v1/orders', headers: { authorization: `Bearer ${token}` } });
    expect([answer.statusCode, api.json(answer).code]).toEqual([401, 'invalid_credentials']);
  }, 60_000);
});

describe('docs/api.md#idempotency: which answers are kept', () => {
  it('a 404 for an account the caller cannot see is not kept: the key is free for the next request', async () => {
    api = await startTestApi();
    const summit = api.json(
      await api.call({ method: 'GET', url: '/v1/firm-control/accounts', headers: key(KEYS.summitOperator) }),
    );
    const { accountId } = await acmeDemoTrader(api);
    const headers = key(KEYS.acmeOperator, { 'idempotency-key': 'k-404' });
    const foreign = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers,
      payload: buyLimitBody(summit.items[0].account_id),
    });
    expect([foreign.statusCode, api.json(foreign).code]).toEqual([404, 'account_not_found']);
    expect(api.sandbox.idempotency.size).toBe(0);
    await api.call({ method: 'POST', url: '/v1/sandbox/clock/advance', headers: admin, payload: { by: '1s' } });
    const own = await api.call({ method: 'POST', url: '/v1/orders', headers, payload: buyLimitBody(accountId) });
    expect(own.statusCode, 'not 409 idempotency_key_reused').toBe(202);
    expect(api.sandbox.idempotency.size).toBe(1);
  });

  it("a kernel's refusal is kept and replayed, as the first answer", async () => {
    api = await startTestApi();
    const { accountId } = await acmeDemoTrader(api);
    const headers = key(KEYS.acmeOperator, { 'idempotency-key': 'k-400' });
    const body = { ...buyLimitBody(accountId), type: 'market' }; // a limit price on a market order: the kernel's 400
    const first = await api.call({ method: 'POST', url: '/v1/orders', headers, payload: body });
    const again = await api.call({ method: 'POST', url: '/v1/orders', headers, payload: body });
    expect([first.statusCode, api.json(first).details?.[0]?.field]).toEqual([400, 'limit_price']);
    expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([first.statusCode, 'true']);
  });
});

describe('docs/api.md#shared-devices: the check is linear and its memory bounded', () => {
  const at = (n: number): Login => ({
    userId: `user-${n}`,
    firmId: 'firm-1',
    fingerprint: `device-${n}`,
    ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    atMs: 1_000_000 + n,
  });

  it('20,000 logins on their own devices take well under a few seconds (each scanned every login three times: a minute)', () => {
    const logins = new DeviceLogins();
    const startedMs = performance.now();
    let flags = 0;
    for (let n = 0; n < 20_000; n++) flags += logins.record(at(n)).length;
    expect(performance.now() - startedMs).toBeLessThan(5000);
    expect(flags).toBe(0);
  });

  it('one user logging in again and again on one device keeps one entry per device and IP', () => {
    const logins = new DeviceLogins();
    for (let i = 0; i < 20_000; i++) logins.record({ ...at(1), atMs: 1_000_000 });
    expect(logins.size).toBe(2);
  });

  it('flags as it did: the same users, devices and IPs, for random logins over a few days', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const logins = new DeviceLogins();
    const reference: Login[] = [];
    let atMs = 0;
    for (let i = 0; i < 3000; i++) {
      atMs += random(4) === 0 ? random(SHARED_DEVICE_WINDOW_MS / 4) : random(60_000);
      const login: Login = {
        userId: `u${random(12)}`,
        firmId: `f${random(2)}`,
        fingerprint: random(3) === 0 ? undefined : `d${random(5)}`,
        ip: `10.0.0.${random(4)}`,
        atMs,
      };
      expect(unordered(logins.record(login)), `login ${i}`).toEqual(unordered(referenceFlags(reference, login)));
    }
  });
});

/** The flags with their lists of users as sets: which users, not in which order. */
function unordered(flags: DeviceFlag[]): unknown[] {
  return flags.map(({ type, data }) => ({
    type,
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Array.isArray(v) ? [...v].sort() : v])),
  }));
}

/** The flags by the rule as docs/api.md#shared-devices states it, over every login kept (the former code). */
function referenceFlags(kept: Login[], login: Login): DeviceFlag[] {
  const recent = kept.filter((l) => login.atMs - l.atMs < SHARED_DEVICE_WINDOW_MS);
  kept.splice(0, kept.length, ...recent, login);
  const others = recent.filter((l) => l.firmId === login.firmId && l.userId !== login.userId);
  const users = (ls: Login[]) => [...new Set(ls.map((l) => l.userId))];
  const byFingerprint =
    login.fingerprint === undefined ? [] : users(others.filter((l) => l.fingerprint === login.fingerprint));
  const byIp = users(others.filter((l) => l.ip === login.ip));
  const flags: DeviceFlag[] = [];
  if (byFingerprint.length > 0)
    flags.push({
      type: 'fingerprints.flagged',
      data: { firm_id: login.firmId, fingerprint: login.fingerprint, user_ids: [login.userId, ...byFingerprint] },
    });
  if (byIp.length > 0)
    flags.push({
      type: 'ip_logs.flagged',
      data: { firm_id: login.firmId, ip: login.ip, user_ids: [login.userId, ...byIp] },
    });
  if (flags.length > 0)
    flags.unshift({
      type: 'devices.flagged',
      data: {
        firm_id: login.firmId,
        user_id: login.userId,
        shared_with: users(others.filter((l) => byFingerprint.includes(l.userId) || byIp.includes(l.userId))),
        ...(byFingerprint.length > 0 ? { fingerprint: login.fingerprint } : {}),
        ...(byIp.length > 0 ? { ip: login.ip } : {}),
      },
    });
  return flags;
}
