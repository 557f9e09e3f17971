// docs/api.md#subscribing on a real listening server: subscribing is idempotent per channel — a socket that
// subscribes twice, or to [orders] and then [orders, balances], gets each event once, and a since_sequence brings
// the backlog of the channels it adds only; the firm stream likewise; a socket follows at most
// MAX_ACCOUNTS_PER_SOCKET accounts, and one more is refused with `subscription_limit` (the socket stays open).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ACCOUNTS_PER_SOCKET } from '../../src/api/streams/stream-socket.js';
import { KEYS, marketOrderBody } from './api-harness.js';
import { loggedInTrader, startListeningSandbox, type ListeningSandbox } from './listening-sandbox.js';
import { connectStream, subscribeTo, type StreamClient } from './stream-client.js';

let server: ListeningSandbox;
const admin = { 'X-Service-Api-Key': KEYS.admin };
const operator = { 'X-Service-Api-Key': KEYS.acmeOperator };

beforeAll(async () => {
  server = await startListeningSandbox();
});
afterAll(() => server.app.close());
beforeEach(() => server.http('POST', '/v1/sandbox/reset', admin));

const trader = () => loggedInTrader(server);

/** A market order filled by a print: orders.state ×2, fills.created, positions.created, balance.updated. */
async function tradeOnce(accountId: string): Promise<void> {
  expect((await server.http('POST', '/v1/orders', operator, marketOrderBody(accountId))).status).toBe(202);
  await server.http('POST', '/v1/sandbox/market/prints', admin, {
    prints: [{ instrument_id: 'ESM6', price: '5000.00' }],
  });
}

/** What a socket holds once the sandbox is quiet: its acknowledgements, and the sequences of its events. */
async function settled(socket: StreamClient) {
  await new Promise((settle) => setTimeout(settle, 150));
  const events = socket.messages.filter((m) => m.type !== 'subscribed' && m.type !== 'error');
  return {
    acks: socket.messages.filter((m) => m.type === 'subscribed'),
    errors: socket.messages.filter((m) => m.type === 'error'),
    sequences: events.map((m) => m.sequence as number),
    types: events.map((m) => m.type as string),
  };
}

const once = (sequences: number[]) =>
  expect(new Set(sequences).size, `each once: ${sequences.join(',')}`).toBe(sequences.length);

describe('docs/api.md#subscribing: idempotent per channel', () => {
  it('the same subscription twice delivers each event once', async () => {
    const { token, accountId } = await trader();
    const socket = await connectStream(server.address, '/v1/ws', { authorization: `Bearer ${token}` });
    subscribeTo(socket, { channels: ['orders'], account_id: accountId });
    subscribeTo(socket, { channels: ['orders'], account_id: accountId, since_sequence: 0 });
    await socket.received(2);
    await tradeOnce(accountId);
    const { acks, sequences, types } = await settled(socket);
    expect(acks).toHaveLength(2);
    expect(types).toEqual(['orders.state', 'orders.state', 'fills.created']);
    once(sequences);
    socket.ws.close();
  });

  it('[orders] then [orders, balances]: orders once, balances from the second subscription on', async () => {
    const { token, accountId } = await trader();
    const socket = await connectStream(server.address, '/v1/ws', { authorization: `Bearer ${token}` });
    subscribeTo(socket, { channels: ['orders'], account_id: accountId });
    await socket.received(1);
    subscribeTo(socket, { channels: ['orders', 'balances'], account_id: accountId });
    await socket.received(2);
    await tradeOnce(accountId);
    const { sequences, types } = await settled(socket);
    expect(types.sort()).toEqual(['balance.updated', 'fills.created', 'orders.state', 'orders.state']);
    once(sequences);
    socket.ws.close();
  });

  it('a since_sequence brings the backlog of the added channels only, none of those already followed', async () => {
    const { token, accountId } = await trader();
    const socket = await connectStream(server.address, '/v1/ws', { authorization: `Bearer ${token}` });
    subscribeTo(socket, { channels: ['orders'], account_id: accountId });
    const [first] = await socket.received(1);
    await tradeOnce(accountId);
    await socket.received(4);
    subscribeTo(socket, {
      channels: ['orders', 'balances', 'positions'],
      account_id: accountId,
      since_sequence: first!.sequence,
    });
    const { sequences, types } = await settled(socket);
    expect(types).toEqual(['orders.state', 'orders.state', 'fills.created', 'positions.created', 'balance.updated']);
    once(sequences);
    socket.ws.close();
  });

  it('the firm stream subscribed twice delivers each event once', async () => {
    const { accountId } = await trader();
    const socket = await connectStream(server.address, '/v1/firm-ws', operator);
    subscribeTo(socket, {});
    subscribeTo(socket, { since_sequence: 0 });
    await socket.received(2);
    await tradeOnce(accountId);
    const { acks, sequences, types } = await settled(socket);
    expect(acks).toHaveLength(2);
    expect(types.sort()).toEqual(['balance.updated', 'fills.created', 'positions.created']);
    once(sequences);
    socket.ws.close();
  });
});

describe('docs/api.md#subscribing: a cap per socket', () => {
  it(`a socket follows at most ${MAX_ACCOUNTS_PER_SOCKET} accounts; one more is refused and the socket stays open`, async () => {
    for (const count of [100, 10])
      expect(
        (
          await server.http('POST', '/v1/firm-control/accounts', operator, {
            user: { email: 'trader@acme.example' },
            plan_reference: 'eval-50k',
            count,
          })
        ).status,
      ).toBe(201);
    const { token } = await trader();
    const accounts = await server.http('GET', '/v1/balances?limit=500', { authorization: `Bearer ${token}` });
    const ids = (accounts.body.items as Array<{ account_id: string }>).map((a) => a.account_id);
    expect(ids.length).toBeGreaterThan(MAX_ACCOUNTS_PER_SOCKET);
    const socket = await connectStream(server.address, '/v1/ws', { authorization: `Bearer ${token}` });
    for (const id of ids.slice(0, MAX_ACCOUNTS_PER_SOCKET))
      subscribeTo(socket, { channels: ['orders'], account_id: id });
    subscribeTo(socket, { channels: ['balances'], account_id: ids[0] }); // a followed account: not one more
    subscribeTo(socket, { channels: ['orders'], account_id: ids[MAX_ACCOUNTS_PER_SOCKET] });
    const messages = await socket.received(MAX_ACCOUNTS_PER_SOCKET + 2);
    expect(messages.slice(0, -1).every((m) => m.type === 'subscribed')).toBe(true);
    expect(messages.at(-1)).toMatchObject({ type: 'error', code: 'subscription_limit' });
    subscribeTo(socket, { channels: ['positions'], account_id: ids[1] });
    expect((await socket.received(MAX_ACCOUNTS_PER_SOCKET + 3)).at(-1)).toMatchObject({ type: 'subscribed' });
    socket.ws.close();
  });
});
