// docs/api.md#gateway hardening against the app: routes are denied by default (the app refuses to start with a route
// that declares no policy), the JSON parser refuses prototype poisoning, failed authentication is rate-limited per
// client address, keys are looked up in constant time, and the gateway's maps of expiring entries (rate-limit buckets,
// idempotency answers, stream tickets) stay bounded while 100,000 distinct keys pass through them.
import { afterEach, describe, expect, it } from 'vitest';
import { MissingRoutePolicyError } from '../../src/api/gateway/route-policies.js';
import { SecretTable, sameSecret } from '../../src/api/gateway/secrets.js';
import { TokenBucketStore } from '../../src/api/gateway/token-bucket-store.js';
import { IdempotencyRecords } from '../../src/api/sandbox/idempotency.js';
import { MAX_TICKETS, StreamTickets, TICKET_SECONDS } from '../../src/api/streams/stream-tickets.js';
import { acmeDemoTrader, buyLimitBody, KEYS, PASSWORD, startTestApi, testSeed, type TestApi } from './api-harness.js';

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('default deny: every route declares its policy', () => {
  it('adding a route without an auth policy makes the app refuse it, naming the route', async () => {
    api = await startTestApi();
    const app = api.app;
    expect(() => app.get('/v1/secret-report', async () => ({ everything: true }))).toThrow(MissingRoutePolicyError);
    expect(() => app.get('/v1/secret-report', async () => ({}))).toThrow(
      /GET \/v1\/secret-report declares no auth policy/,
    );
  });

  it('the reference page registered by swagger-ui is public, and an unknown route is 404 route_not_found', async () => {
    api = await startTestApi();
    expect((await api.call({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400);
    const unknown = await api.call({ method: 'GET', url: '/v1/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(api.json(unknown).code).toBe('route_not_found');
  });
});

describe('the JSON parser refuses prototype poisoning', () => {
  it.each([
    ['__proto__', '{"__proto__":{"admin":true},"account_id":"x"}'],
    ['constructor.prototype', '{"constructor":{"prototype":{"admin":true}},"account_id":"x"}'],
  ])('a body with %s answers 400 invalid_json and places nothing', async (_key, body) => {
    api = await startTestApi();
    const answer = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { 'x-service-api-key': KEYS.acmeOperator, 'content-type': 'application/json' },
      payload: body,
    });
    expect(answer.statusCode).toBe(400);
    expect(api.json(answer)).toMatchObject({ code: 'invalid_json', error: expect.stringMatching(/forbidden/) });
  });
});

describe('failed authentication is rate-limited per client address', () => {
  const limited = () => startTestApi({ seed: { ...testSeed(), failedAuthLimit: { perSecond: 0.01, burst: 3 } } });

  it('after 3 failures every credentialed request from that address is 429 with Retry-After; others are not held back', async () => {
    api = await limited();
    const from = (remoteAddress: string, headers: Record<string, string>) =>
      api!.call({ method: 'GET', url: '/v1/orders', headers, remoteAddress });
    for (let i = 0; i < 3; i++)
      expect((await from('10.0.0.7', { 'x-service-api-key': `svc_live_guess_${i}_0000000` })).statusCode).toBe(401);
    const fourth = await from('10.0.0.7', { 'x-service-api-key': 'svc_live_guess_3_0000000' });
    expect(fourth.statusCode).toBe(429);
    expect(api.json(fourth).code).toBe('rate_limited');
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const rightKey = await from('10.0.0.7', { 'x-service-api-key': KEYS.acmeOperator });
    expect(rightKey.statusCode, 'a right guess is not told from a wrong one').toBe(429);
    const login = await api.call({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'trader@acme.example', password: PASSWORD },
      remoteAddress: '10.0.0.7',
    });
    expect(login.statusCode, 'logins too').toBe(429);
    expect((await api.call({ method: 'GET', url: '/health', remoteAddress: '10.0.0.7' })).statusCode).toBe(200);
    expect((await from('10.0.0.8', { 'x-service-api-key': KEYS.acmeOperator })).statusCode, 'another address').toBe(
      200,
    );
  });

  it('wrong passwords count; a missing credential does not', async () => {
    api = await limited();
    for (let i = 0; i < 5; i++)
      expect((await api.call({ method: 'GET', url: '/v1/orders', remoteAddress: '10.0.0.9' })).statusCode).toBe(401);
    const badLogin = () =>
      api!.call({
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: 'trader@acme.example', password: 'wrong-password' },
        remoteAddress: '10.0.0.9',
      });
    for (let i = 0; i < 3; i++) expect((await badLogin()).statusCode).toBe(401);
    expect((await badLogin()).statusCode).toBe(429);
  });
});

describe('keys and passwords are compared in constant time', () => {
  it('a table finds each key, whatever the length of what is presented, and nothing else', () => {
    const table = new SecretTable([
      ['svc_live_alpha_key_1', 'alpha'],
      ['svc_live_beta_key_22', 'beta'],
    ]);
    expect(table.get('svc_live_alpha_key_1')).toBe('alpha');
    expect(table.get('svc_live_beta_key_22')).toBe('beta');
    expect(table.get('svc_live_alpha_key_')).toBeUndefined();
    expect(table.get('svc_live_alpha_key_1x'.repeat(50))).toBeUndefined();
    expect(table.get('')).toBeUndefined();
    expect(sameSecret('propsim-sandbox', 'propsim-sandbox')).toBe(true);
    expect(sameSecret('propsim-sandbo', 'propsim-sandbox')).toBe(false);
  });

  it('the seed keys still authenticate through it', async () => {
    api = await startTestApi();
    const { accountId } = await acmeDemoTrader(api);
    const placed = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { 'x-service-api-key': KEYS.acmeOperator },
      payload: buyLimitBody(accountId),
    });
    expect(placed.statusCode).not.toBe(401);
  });
});

describe('memory stays bounded: 100,000 distinct keys pass through each map', () => {
  const KEYS_PASSING = 100_000;

  it('rate-limit buckets: a full bucket is dropped, so the map holds the callers of the last seconds', () => {
    let nowMs = 0;
    const buckets = new Map();
    const store = new TokenBucketStore(50, 100, () => nowMs, buckets);
    let largest = 0;
    for (let i = 0; i < KEYS_PASSING; i++) {
      nowMs += 1; // a new caller every millisecond; a bucket refills in 2 s (100 at 50/s)
      store.take(`ip:10.${i}`);
      largest = Math.max(largest, buckets.size);
    }
    expect(largest, 'about 2,000 callers are within 2 s at any time').toBeLessThan(8_192);
  });

  it('idempotency answers: expired ones are dropped as new ones come', () => {
    const records = new IdempotencyRecords();
    const dayMs = 24 * 3_600_000;
    let largest = 0;
    for (let i = 0; i < KEYS_PASSING; i++) {
      const nowMs = i * (dayMs / 1_000); // 1,000 new keys per simulated day, each kept a day
      records.store('firm', `key-${i}`, { fingerprint: 'f', status: 202, body: {}, expiresAtMs: nowMs + dayMs }, nowMs);
      largest = Math.max(largest, records.size);
    }
    expect(largest).toBeLessThan(4_096);
    expect(
      records.lookup('firm', `key-${KEYS_PASSING - 1}`, 'f', KEYS_PASSING * 86_400).kind,
      'a live one is kept',
    ).toBe('replay');
  });

  it('stream tickets: expired ones are dropped, and at most MAX_TICKETS are held on a clock that stands still', () => {
    const tickets = new StreamTickets();
    const caller = { kind: 'admin', key: 'k' } as const;
    let largest = 0;
    for (let i = 0; i < KEYS_PASSING; i++) {
      tickets.issue(caller, i * 10); // 100 tickets a simulated second, each good for a minute
      largest = Math.max(largest, tickets.size);
    }
    expect(largest).toBeLessThan(2 * TICKET_SECONDS * 100 + 2_048);
    const still = new StreamTickets();
    const first = still.issue(caller, 0).ticket;
    for (let i = 1; i < KEYS_PASSING; i++) still.issue(caller, 0);
    expect(still.size).toBe(MAX_TICKETS);
    expect(still.take(first, 0), 'the oldest went first').toBeUndefined();
  });
});
