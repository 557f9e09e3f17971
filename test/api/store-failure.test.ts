// docs/api.md#persistence: once the store fails to commit, every answer is 503 `store_unavailable` in the envelope,
// and nothing the handler meant to say goes with it: no session cookie from a login, no Idempotent-Replayed, no
// Content-Disposition. Only X-Request-Id stays. A failed commit is made here by a store whose commits fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeDemoTrader, buyLimitBody, KEYS, PASSWORD, startTestApi, type TestApi } from './api-harness.js';

let api: TestApi;
let account: string;
const acme = { 'x-service-api-key': KEYS.acmeOperator };

beforeAll(async () => {
  api = await startTestApi();
  account = (await acmeDemoTrader(api)).accountId;
  await api.call({
    method: 'POST',
    url: '/v1/sandbox/clock/advance',
    headers: { 'x-service-api-key': KEYS.admin },
    payload: { by: '1s' },
  });
  await api.call({
    method: 'POST',
    url: '/v1/orders',
    headers: { ...acme, 'idempotency-key': 'before' },
    payload: buyLimitBody(account),
  });
  const failed = Promise.reject(new Error('the store failed to commit: disk I/O error'));
  failed.catch(() => undefined);
  api.sandbox.durable = () => failed;
});
afterAll(() => api.close());

describe('docs/api.md#persistence: a failed store answers 503 with none of the handler headers', () => {
  it('a login answers 503 store_unavailable and sets no session cookie', async () => {
    const answer = await api.call({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'x-request-id': 'login-1' },
      payload: { email: 'trader@acme.example', password: PASSWORD },
    });
    expect(answer.statusCode).toBe(503);
    expect(api.json(answer)).toMatchObject({ code: 'store_unavailable', request_id: 'login-1' });
    expect(answer.headers['set-cookie'], 'no session from a login the store did not keep').toBeUndefined();
    expect(answer.headers['x-request-id']).toBe('login-1');
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });

  it('a replayed placement answers 503 without Idempotent-Replayed', async () => {
    const answer = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...acme, 'idempotency-key': 'before' },
      payload: buyLimitBody(account),
    });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['idempotent-replayed']).toBeUndefined();
  });

  it('the session export answers 503 JSON, not YAML with its attachment headers', async () => {
    const answer = await api.call({
      method: 'GET',
      url: '/v1/sandbox/session.yaml',
      headers: { 'x-service-api-key': KEYS.admin },
    });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['content-disposition']).toBeUndefined();
    expect(answer.headers['x-events-sha256']).toBeUndefined();
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });
});
