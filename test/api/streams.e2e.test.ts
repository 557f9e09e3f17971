// docs/api.md#streams: the sandbox's WebSocket streams on a real listening server, with a real WebSocket client.
// The trader stream takes a session token only (a firm key is refused with 403 before the upgrade), sends every
// status record of an order in order, resumes after `since_sequence` with no gap or duplicate, and closes a consumer
// that stops reading once its unsent data passes the limit. The firm stream carries locks and balances of the
// firm's accounts only.
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/api/sandbox/sandbox.js';
import { SLOW_CONSUMER_CLOSE } from '../../src/api/streams/stream-socket.js';
import { KEYS, marketOrderBody, PASSWORD } from './api-harness.js';
import { startListeningSandbox, type ListeningSandbox } from './listening-sandbox.js';
import { connectStream, subscribeTo } from './stream-client.js';

const BUFFER_LIMIT = 64 * 1024;
let server: ListeningSandbox;
let sandbox: Sandbox;
let base: string;

beforeAll(async () => {
  server = await startListeningSandbox({ streamBufferLimitBytes: BUFFER_LIMIT });
  ({ sandbox, address: base } = server);
});
afterAll(async () => {
  await server.app.close();
});
beforeEach(async () => {
  await http('POST', '/v1/sandbox/reset', { 'X-Service-Api-Key': KEYS.admin });
});

const http: ListeningSandbox['http'] = (...args) => server.http(...args);

const admin = { 'X-Service-Api-Key': KEYS.admin };
const operator = { 'X-Service-Api-Key': KEYS.acmeOperator };

/** The seed's acme trader: a session token and the id of the account the seed gave them. */
async function trader(): Promise<{ token: string; accountId: string }> {
  const login = await http('POST', '/v1/auth/login', {}, { email: 'trader@acme.example', password: PASSWORD });
  const token: string = login.body.access_token;
  const accounts = await http('GET', '/v1/balances', { authorization: `Bearer ${token}` });
  return { token, accountId: accounts.body.items[0].account_id };
}

const connect = (path: string, headers: Record<string, string>) => connectStream(base, path, headers);
const subscribe = subscribeTo;

/** The status of an upgrade the server refuses before it happens, with the envelope's code. */
function refusedUpgrade(path: string, headers: Record<string, string>): Promise<{ status: number; code: string }> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(`ws://${base}${path}`, { headers });
    ws.on('error', () => undefined); // the abort below
    ws.on('unexpected-response', (request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => {
        request.destroy(); // ws leaves a refused upgrade's connection to whoever listens for it
        done({ status: response.statusCode ?? 0, code: JSON.parse(body).code });
      });
    });
    ws.on('open', () => fail(new Error('the upgrade was accepted')));
  });
}

async function placeMarketOrder(accountId: string, side: 'buy' | 'sell' = 'buy'): Promise<string> {
  const placed = await http('POST', '/v1/orders', operator, marketOrderBody(accountId, side));
  expect(placed.status).toBe(202);
  return placed.body.order_id;
}

const print = (price: string) =>
  http('POST', '/v1/sandbox/market/prints', admin, { prints: [{ instrument_id: 'ESM6', price }] });

describe('docs/api.md#streams: /v1/ws, a trader session', () => {
  it('refuses a firm key (403 firm_key_forbidden_route) and an admin key (403 session_required) before the upgrade, and no credentials with 401', async () => {
    expect(await refusedUpgrade('/v1/ws', operator)).toEqual({ status: 403, code: 'firm_key_forbidden_route' });
    expect(await refusedUpgrade('/v1/ws', admin)).toEqual({ status: 403, code: 'session_required' });
    expect(await refusedUpgrade('/v1/ws', {})).toEqual({ status: 401, code: 'missing_credentials' });
  });

  it('acknowledges a subscription and sends every status record of an order, in order', async () => {
    const { token, accountId } = await trader();
    await http('POST', '/v1/sandbox/clock/advance', admin, { by: '1s' }); // past the risk engine's loading window
    const socket = await connect('/v1/ws', { authorization: `Bearer ${token}` });
    subscribe(socket, { channels: ['orders'], account_id: accountId });
    const [ack] = await socket.received(1);
    expect(ack).toMatchObject({ type: 'subscribed', channels: ['orders'], account_id: accountId });
    const orderId = await placeMarketOrder(accountId);
    await print('5000.00');
    // SUBMITTED when placed, FILLED at the print, and the fill, numbered one after another.
    const events = (await socket.received(4)).slice(1);
    expect(events.map((e) => [e.type, (e.data as Record<string, unknown>).status ?? null])).toEqual([
      ['orders.state', 'SUBMITTED'],
      ['orders.state', 'FILLED'],
      ['fills.created', null],
    ]);
    expect(events.every((e) => (e.data as Record<string, unknown>).order_id === orderId)).toBe(true);
    expect(Object.keys(events[0]!.data as object)).toEqual([
      'order_id',
      'account_id',
      'status',
      'reason',
      'occurred_at',
    ]);
    const sequences = events.map((e) => e.sequence as number);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(sequences[0]).toBeGreaterThan(ack!.sequence as number);
    socket.ws.close();
  });

  it('resumes after since_sequence with no gap and no duplicate', async () => {
    const { token, accountId } = await trader();
    await http('POST', '/v1/sandbox/clock/advance', admin, { by: '1s' });
    const first = await connect('/v1/ws', { authorization: `Bearer ${token}` });
    subscribe(first, { channels: ['orders', 'balances'], account_id: accountId });
    const [firstAck] = await first.received(1);
    const base = firstAck!.sequence as number; // where this test's events start
    await placeMarketOrder(accountId);
    await print('5000.00');
    const seen = (await first.received(4)).slice(1);
    first.ws.close();
    await first.closed;
    const lastSeen = seen[seen.length - 1]!.sequence as number;

    // While disconnected: the rest of the first order's events, and a second order filled.
    await placeMarketOrder(accountId, 'sell');
    await print('5010.00');
    const whole = await connect('/v1/ws', { authorization: `Bearer ${token}` });
    subscribe(whole, { channels: ['orders', 'balances'], account_id: accountId, since_sequence: base });
    const resumed = await connect('/v1/ws', { authorization: `Bearer ${token}` });
    subscribe(resumed, { channels: ['orders', 'balances'], account_id: accountId, since_sequence: lastSeen });
    const [ackWhole] = await whole.received(1);
    await new Promise((settle) => setTimeout(settle, 100));
    const everything = whole.messages.slice(1).map((m) => m.sequence as number);
    const after = resumed.messages.slice(1).map((m) => m.sequence as number);
    expect(after.length).toBeGreaterThan(0);
    expect(after).toEqual(everything.filter((s) => s > lastSeen));
    expect(everything.filter((s) => s <= lastSeen)).toEqual(seen.map((m) => m.sequence));
    expect(everything[everything.length - 1]).toBe(ackWhole!.sequence);
    whole.ws.close();
    resumed.ws.close();
  });

  it('answers a bad subscription with an error message and keeps the socket open', async () => {
    const { token } = await trader();
    const socket = await connect('/v1/ws', { authorization: `Bearer ${token}` });
    const summit = await http('GET', '/v1/firm-control/accounts', { 'X-Service-Api-Key': KEYS.summitOperator });
    const others: string = summit.body.items[0].account_id;
    socket.ws.send('not json');
    subscribe(socket, { channels: ['news'], account_id: others });
    subscribe(socket, { channels: ['orders'], account_id: others });
    subscribe(socket, { channels: ['orders'], account_id: others, since_sequence: -1 });
    const errors = await socket.received(4);
    expect(errors.map((e) => [e.type, e.code])).toEqual([
      ['error', 'invalid_message'],
      ['error', 'invalid_message'],
      ['error', 'account_not_found'],
      ['error', 'account_not_found'],
    ]);
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    socket.ws.close();
  });

  it('closes a consumer that stops reading once more than the limit is unsent (1013), and stays up for others', async () => {
    const { token, accountId } = await trader();
    await http('POST', '/v1/sandbox/clock/advance', admin, { by: '1s' });
    const slow = await connect('/v1/ws', { authorization: `Bearer ${token}` });
    subscribe(slow, { channels: ['orders', 'positions', 'balances'], account_id: accountId });
    await slow.received(1);
    slow.ws.pause(); // stops reading its socket: the server's unsent data grows
    // Thousands of events in one burst, straight through the sandbox's kernel.
    for (let i = 0; i < 30_000; i++) {
      sandbox.kernel.dispatch({ type: 'place_order', body: marketOrderBody(accountId, i % 2 === 0 ? 'buy' : 'sell') });
      sandbox.kernel.dispatch({ type: 'tick', instrument_id: 'ESM6', price: '5000.00' });
    }
    slow.ws.resume();
    const { code, reason } = await slow.closed;
    expect(code).toBe(SLOW_CONSUMER_CLOSE);
    expect(reason).toContain('slow consumer');
    expect((await http('GET', '/health', {})).status).toBe(200);
  }, 60_000);
});

describe('docs/api.md#streams: /v1/firm-ws, a firm key', () => {
  it('refuses a trader session (403 user_forbidden_route) before the upgrade', async () => {
    const { token } = await trader();
    expect(await refusedUpgrade('/v1/firm-ws', { authorization: `Bearer ${token}` })).toEqual({
      status: 403,
      code: 'user_forbidden_route',
    });
  });

  it("carries the firm's locks and balance updates, and nothing of another firm", async () => {
    const acme = await http('GET', '/v1/firm-control/accounts', operator);
    const accountId: string = acme.body.items[0].account_id;
    const summit = await http('GET', '/v1/firm-control/accounts', { 'X-Service-Api-Key': KEYS.summitOperator });
    const summitAccount: string = summit.body.items[0].account_id;
    const socket = await connect('/v1/firm-ws', operator);
    subscribe(socket, {});
    await socket.received(1);
    await http(
      'POST',
      `/v1/accounts/${summitAccount}/lockout`,
      { 'X-Service-Api-Key': KEYS.summitOperator },
      { reason_code: 'review' },
    );
    const locked = await http('POST', `/v1/accounts/${accountId}/lockout`, operator, { reason_code: 'review' });
    expect(locked.status).toBeLessThan(300);
    const [, event] = await socket.received(2);
    expect(event).toMatchObject({ type: 'account.locked', data: { account_id: accountId } });
    await new Promise((settle) => setTimeout(settle, 50));
    expect(
      socket.messages.every((m) => (m.data as Record<string, unknown> | undefined)?.account_id !== summitAccount),
    ).toBe(true);
    socket.ws.close();
  });
});

// docs/api.md#shared-devices: two users of one firm logging in from one X-Device-Fingerprint, or one IP, within
// 24 hours of simulated time. Every login here comes from 127.0.0.1, so two users always share the IP.
describe('docs/api.md#shared-devices: the firm stream flags shared devices', () => {
  const login = (email: string, fingerprint?: string) =>
    http('POST', '/v1/auth/login', fingerprint ? { 'X-Device-Fingerprint': fingerprint } : {}, {
      email,
      password: PASSWORD,
    });

  it('flags a second user of the firm on the same fingerprint and IP, and not a user of another firm', async () => {
    const socket = await connect('/v1/firm-ws', operator);
    subscribe(socket, {});
    await socket.received(1);
    const first = await login('trader@acme.example', 'device-1');
    expect(first.status).toBe(200);
    expect((await login('trader@summit.example', 'device-1')).status).toBe(200); // another firm: nothing for acme
    const second = await login('ops@acme.example', 'device-1');
    expect(second.status).toBe(200);
    const [, devices, fingerprints, ips] = await socket.received(4);
    const traderId: string = first.body.user.user_id;
    const opsId: string = second.body.user.user_id;
    expect(devices).toMatchObject({
      type: 'devices.flagged',
      data: { user_id: opsId, shared_with: [traderId], fingerprint: 'device-1', ip: '127.0.0.1' },
    });
    expect(fingerprints).toMatchObject({
      type: 'fingerprints.flagged',
      data: { fingerprint: 'device-1', user_ids: [opsId, traderId] },
    });
    expect(ips).toMatchObject({ type: 'ip_logs.flagged', data: { ip: '127.0.0.1', user_ids: [opsId, traderId] } });
    await new Promise((settle) => setTimeout(settle, 50));
    expect(socket.messages).toHaveLength(4);
    socket.ws.close();
  });

  it('does not flag the same user twice, nor logins more than 24 hours of simulated time apart', async () => {
    const socket = await connect('/v1/firm-ws', operator);
    subscribe(socket, {});
    await socket.received(1);
    await login('trader@acme.example', 'device-2');
    await login('trader@acme.example', 'device-2');
    await http('POST', '/v1/sandbox/clock/advance', admin, { by: '25h' });
    await login('ops@acme.example', 'device-2');
    await new Promise((settle) => setTimeout(settle, 50));
    expect(socket.messages.slice(1).filter((m) => String(m.type).endsWith('.flagged'))).toEqual([]);
    socket.ws.close();
  });
});
