// docs/api.md#the-client: the typed client (propsim/client, as a user imports it) against a real `propsim serve`
// process, with the sandbox's own faults. The client's waits move the sandbox's simulated clock instead of sleeping,
// so a fault's simulated duration runs out exactly as the backoff says; random() is fixed at 0.5, so each wait is
// three quarters of its backoff step (188, 375, 750 ms, …). Every answer the clients receive, each retry's included,
// is checked against the served OpenAPI document (test/api/openapi-responses.ts).
import { createPropsimClient, type PropsimClient } from 'propsim/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEYS } from '../api/api-harness.js';
import { checkedFetch } from '../api/openapi-responses.js';
import { startServe, type Server } from '../api/serve-process.js';

let server: Server;
let admin: PropsimClient;
let operator: PropsimClient;
let waits: number[];
let accountId: string;
/** Answers the document does not describe: recorded, since the client takes a throw for a network failure and retries. */
const undescribed: string[] = [];
const transport = (request: Request) => checkedFetch(request, undefined, (problems) => undescribed.push(...problems));

/** Waits as the client asks, in simulated time: the sandbox's clock moves by that much. */
async function sleepOnSandbox(ms: number): Promise<void> {
  waits.push(ms);
  const { response } = await admin.POST('/v1/sandbox/clock/advance', { body: { by: `${ms}ms` } });
  expect(response.status).toBe(200);
}

const order = (side: 'buy' | 'sell') => ({
  account_id: accountId,
  instrument_id: 'ESM6',
  side,
  type: 'market' as const,
  quantity: 1,
  time_in_force: 'day' as const,
});

beforeAll(async () => {
  server = await startServe();
  admin = createPropsimClient({ baseUrl: server.url, apiKey: KEYS.admin, retry: false, fetch: transport });
  operator = createPropsimClient({
    baseUrl: server.url,
    apiKey: KEYS.acmeOperator,
    retry: { random: () => 0.5, sleep: sleepOnSandbox },
    fetch: transport,
  });
  const provisioned = await operator.POST('/v1/firm-control/accounts', {
    body: { user: { email: 'client@example.com', first_name: 'Cleo' }, plan_reference: 'eval-50k' },
  });
  expect(provisioned.response.status).toBe(201);
  accountId = provisioned.data!.account_ids[0]!;
}, 30_000);
afterAll(() => {
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
});
afterEach(() => {
  expect(undescribed.splice(0), 'every answer is one the OpenAPI document describes').toEqual([]);
});
beforeEach(async () => {
  waits = [];
  await admin.DELETE('/v1/sandbox/faults');
});

describe('propsim/client against a real serve', () => {
  it('waits out the risk engine loading a new account (503 risk_loading, Retry-After: 1) and reads it', async () => {
    const { data, response } = await operator.GET('/v1/firm-control/accounts/{account_id}/risk-state', {
      params: { path: { account_id: accountId } },
    });
    expect(response.status).toBe(200);
    // eval-50k: 50,000 start, 2,000 trailing allowance.
    expect(data?.item).toMatchObject({ balance: '50000.00', max_loss_limit_trigger: '48000.00' });
    expect(waits).toEqual([1_000]);
  });

  it('retries a read through a 502 fault of the trading service until its simulated second is over', async () => {
    const placed = await operator.POST('/v1/orders', { body: order('buy') });
    expect(placed.response.status).toBe(202);
    const fault = await admin.POST('/v1/sandbox/faults', {
      body: { target: 'trading', status: 502, duration_ms: 1_000 },
    });
    expect(fault.response.status).toBe(201);
    const { data, response } = await operator.GET('/v1/orders/{order_id}', {
      params: { path: { order_id: placed.data!.order_id } },
    });
    // Down at 0, 188 and 563 ms of the fault; up at 1,313 ms.
    expect(response.status).toBe(200);
    expect(data?.order_id).toBe(placed.data!.order_id);
    expect(waits).toEqual([188, 375, 750]);
  });

  it('sends POST /v1/orders once without an Idempotency-Key, and retries it with one: one order either way', async () => {
    await admin.POST('/v1/sandbox/faults', { body: { target: 'trading', status: 502, duration_ms: 500 } });
    const bare = await operator.POST('/v1/orders', { body: order('buy') });
    expect(bare.response.status).toBe(502);
    expect(bare.error).toMatchObject({ error: expect.any(String) });
    expect(waits).toEqual([]);

    const before = await operator.GET('/v1/orders', { params: { query: { account_id: accountId, limit: 100 } } });
    const keyed = await operator.POST('/v1/orders', {
      body: order('sell'),
      headers: { 'Idempotency-Key': 'client-e2e-1' },
    });
    expect(keyed.response.status).toBe(202);
    expect(waits).toEqual([188, 375]);
    const after = await operator.GET('/v1/orders', { params: { query: { account_id: accountId, limit: 100 } } });
    expect(after.data!.items.length).toBe(before.data!.items.length + 1);
    const again = await operator.POST('/v1/orders', {
      body: order('sell'),
      headers: { 'Idempotency-Key': 'client-e2e-1' },
    });
    expect(again.data?.order_id).toBe(keyed.data?.order_id);
  });

  it('honours Retry-After on a 429 of the gateway: it waits the whole seconds the sandbox says', async () => {
    await admin.POST('/v1/sandbox/faults', { body: { target: 'gateway', status: 429, duration_ms: 2_500 } });
    const { response } = await operator.GET('/v1/orders', { params: { query: { account_id: accountId } } });
    expect(response.status).toBe(200);
    // 2.5 s left: Retry-After 3 (whole seconds, rounded up), and the window is over after one wait.
    expect(waits).toEqual([3_000]);
  });

  it('gives up after its attempts and returns the last answer when the fault outlasts them', async () => {
    const patient = createPropsimClient({
      baseUrl: server.url,
      apiKey: KEYS.acmeOperator,
      retry: { maxAttempts: 3, random: () => 0.5, sleep: sleepOnSandbox },
      fetch: transport,
    });
    await admin.POST('/v1/sandbox/faults', { body: { target: 'trading', status: 502, duration_ms: 60_000 } });
    const { response } = await patient.GET('/v1/orders', { params: { query: { account_id: accountId } } });
    expect(response.status).toBe(502);
    expect(waits).toEqual([188, 375]);
  });
});
