// docs/api.md#the-client: the interface's retry rules, against a scripted transport. Waits are recorded, not slept.
// Backoff steps by hand: 250, 500, 1,000, 2,000, 4,000, 8,000, 16,000, then 30,000 (32,000 capped); 50 % jitter
// takes off up to half a step, so with random() = 0.5 each wait is three quarters of its step.
import { describe, expect, it } from 'vitest';
import { backoffMs, retryPolicy } from '../../src/client/retry-policy.js';
import { retryingFetch } from '../../src/client/retrying-fetch.js';

/** A transport that answers from a script (a status, or 'network' for a failure), recording what it was sent. */
function scripted(script: Array<number | 'network'>, headers: Record<string, string> = {}) {
  const sent: Array<{ method: string; url: string; body: string }> = [];
  const send = async (request: Request) => {
    sent.push({ method: request.method, url: request.url, body: await request.text() });
    const next = script[Math.min(sent.length - 1, script.length - 1)]!;
    if (next === 'network') throw new TypeError('fetch failed');
    return new Response(JSON.stringify({ error: `status ${next}` }), { status: next, headers });
  };
  return { send, sent };
}

function recordingPolicy(random = 0.5, maxAttempts = 6) {
  const waits: number[] = [];
  const policy = retryPolicy({ maxAttempts, random: () => random, sleep: async (ms) => void waits.push(ms) });
  return { policy, waits };
}

const get = () => new Request('http://sandbox.test/v1/orders/o-1');
const placeOrder = (headers: Record<string, string> = {}) =>
  new Request('http://sandbox.test/v1/orders', { method: 'POST', headers, body: '{"quantity":1}' });

describe('the retry rules of the interface', () => {
  it('backoff starts at 250 ms, doubles, stops at 30 s, and jitter takes off up to half of each step', () => {
    const steps = (random: number) =>
      Array.from({ length: 9 }, (_, retry) => backoffMs(retryPolicy({ random: () => random }), retry));
    expect(steps(0)).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(steps(0.5)).toEqual([188, 375, 750, 1_500, 3_000, 6_000, 12_000, 22_500, 22_500]);
    expect(steps(0.999_999)).toEqual([125, 250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000]);
  });

  it('rule 1: a 5xx is retried with the backoff until it succeeds', async () => {
    const { send, sent } = scripted([502, 502, 200]);
    const { policy, waits } = recordingPolicy();
    const response = await retryingFetch(policy, send)(get());
    expect(response.status).toBe(200);
    expect(sent).toHaveLength(3);
    expect(waits).toEqual([188, 375]);
  });

  it('rule 1: a network failure is retried; when the attempts run out, the last failure is thrown', async () => {
    const { send, sent } = scripted(['network']);
    const { policy, waits } = recordingPolicy(0.5, 4);
    await expect(retryingFetch(policy, send)(get())).rejects.toThrow('fetch failed');
    expect(sent).toHaveLength(4);
    expect(waits).toEqual([188, 375, 750]);
  });

  it('rule 1: when the attempts run out on a 5xx, the last answer is returned as it came', async () => {
    const { send, sent } = scripted([500]);
    const { policy } = recordingPolicy(0.5, 3);
    const response = await retryingFetch(policy, send)(get());
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'status 500' });
    expect(sent).toHaveLength(3);
  });

  it('rule 2: POST /v1/orders is sent once without an Idempotency-Key, and retried with one, body and all', async () => {
    const once = scripted([503, 202]);
    const bare = await retryingFetch(recordingPolicy().policy, once.send)(placeOrder());
    expect(bare.status).toBe(503);
    expect(once.sent).toHaveLength(1);

    const keyed = scripted([503, 'network', 202]);
    const answer = await retryingFetch(recordingPolicy().policy, keyed.send)(placeOrder({ 'Idempotency-Key': 'k-1' }));
    expect(answer.status).toBe(202);
    expect(keyed.sent.map((s) => s.body)).toEqual(['{"quantity":1}', '{"quantity":1}', '{"quantity":1}']);
  });

  it('rule 2 is about order placement only: another POST is retried without a key', async () => {
    const { send, sent } = scripted([503, 200]);
    const request = new Request('http://sandbox.test/v1/sandbox/clock/advance', { method: 'POST', body: '{}' });
    expect((await retryingFetch(recordingPolicy().policy, send)(request)).status).toBe(200);
    expect(sent).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 421, 422])('rule 3: a %i is not retried', async (status) => {
    const { send, sent } = scripted([status, 200]);
    expect((await retryingFetch(recordingPolicy().policy, send)(get())).status).toBe(status);
    expect(sent).toHaveLength(1);
  });

  it('rule 4: a 429 waits what Retry-After says (whole seconds), not the backoff', async () => {
    const { send, sent } = scripted([429, 429, 200], { 'Retry-After': '3' });
    const { policy, waits } = recordingPolicy();
    expect((await retryingFetch(policy, send)(get())).status).toBe(200);
    expect(sent).toHaveLength(3);
    expect(waits).toEqual([3_000, 3_000]);
  });

  it('a 503 with Retry-After (the risk engine loading an account) waits that long too', async () => {
    const { send } = scripted([503, 200], { 'Retry-After': '1' });
    const { policy, waits } = recordingPolicy();
    expect((await retryingFetch(policy, send)(get())).status).toBe(200);
    expect(waits).toEqual([1_000]);
  });
});
