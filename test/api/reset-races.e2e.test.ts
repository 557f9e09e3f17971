// docs/api.md#what-a-reset-ends on a real listening server: a request authenticated with a session token before a
// reset (or a logout) whose body arrives after it is refused with 401 and changes nothing — the ids are seeded, so
// the account it names exists again on the fresh kernel, and it used to be placed there under the ended session. A
// trader stream whose upgrade was verified before a reset and registered after it is closed with 4001 at once. A
// firm key outlives a reset, so its slow request is placed on the fresh kernel.
import { request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_ENDED_CLOSE } from '../../src/api/streams/session-sockets.js';
import { KEYS, marketOrderBody } from './api-harness.js';
import { loggedInTrader, startListeningSandbox, type ListeningSandbox } from './listening-sandbox.js';

const admin = { 'X-Service-Api-Key': KEYS.admin };
/** A test's header: its request signals once the gateway has admitted it (its onRequest hooks have run). */
const ADMITTED = 'x-test-admitted';
/** A test's header on a stream upgrade: what happens between the gateway's checks and the socket's registration. */
const BETWEEN = 'x-test-between';

let server: ListeningSandbox;
const admitted = new Map<string, () => void>();
const between = new Map<string, () => Promise<void>>();

beforeAll(async () => {
  server = await startListeningSandbox({
    beforeListen: (app) => {
      // Added after the gateway's hooks, so they run after them: the request is authenticated by then.
      app.addHook('onRequest', (request, _reply, done) => {
        const id = request.headers[ADMITTED];
        if (typeof id === 'string') admitted.get(id)?.();
        done();
      });
      app.addHook('preHandler', async (request) => {
        const id = request.headers[BETWEEN];
        if (typeof id === 'string') await between.get(id)?.();
      });
    },
  });
});
afterAll(() => server.app.close());
beforeEach(() => server.http('POST', '/v1/sandbox/reset', admin));

const trader = () => loggedInTrader(server);

/**
 * POST /v1/orders with its body in two chunks: the first with the headers, the second once `meanwhile` has run
 * (after the gateway admitted the request). Resolves with the answer.
 */
function slowOrder(
  headers: Record<string, string>,
  body: unknown,
  meanwhile: () => Promise<unknown>,
): Promise<{ status: number; body: { code?: string } }> {
  const text = JSON.stringify(body);
  const half = Math.floor(text.length / 2);
  const id = String(Math.random());
  const [host, port] = server.address.split(':');
  return new Promise((answered, failed) => {
    const request = httpRequest(
      {
        host,
        port: Number(port),
        method: 'POST',
        path: '/v1/orders',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          [ADMITTED]: id,
        },
      },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('end', () => answered({ status: response.statusCode ?? 0, body: JSON.parse(answer) }));
      },
    );
    request.on('error', failed);
    admitted.set(id, () => {
      admitted.delete(id);
      void meanwhile().then(() => request.end(text.slice(half)), failed);
    });
    request.write(text.slice(0, half));
  });
}

/** Every order of the sandbox's kernel now. */
function orders(): unknown[] {
  const page = server.sandbox.kernel.read.orders({}, {}, { limit: 10 });
  return page.ok ? page.body.items : ['(the read failed)'];
}

describe('docs/api.md#what-a-reset-ends: a request on its way when its session ends', () => {
  it('an order whose body arrives after a reset answers 401 invalid_credentials and is not placed on the fresh kernel', async () => {
    const { token, accountId } = await trader();
    const answer = await slowOrder({ authorization: `Bearer ${token}` }, marketOrderBody(accountId), () =>
      server.http('POST', '/v1/sandbox/reset', admin),
    );
    expect([answer.status, answer.body.code]).toEqual([401, 'invalid_credentials']);
    expect(server.sandbox.kernel.read.accountState(accountId), 'the account exists again: seeded ids').toBeDefined();
    expect(orders()).toEqual([]);
  });

  it('an order whose body arrives after a logout of its token answers 401 and is not placed', async () => {
    const { token, accountId } = await trader();
    const answer = await slowOrder({ authorization: `Bearer ${token}` }, marketOrderBody(accountId), () =>
      server.http('POST', '/v1/auth/logout', { authorization: `Bearer ${token}` }),
    );
    expect([answer.status, answer.body.code]).toEqual([401, 'invalid_credentials']);
    expect(orders()).toEqual([]);
  });

  it('an order whose body arrives after its token expired on the clock answers 401 token_expired', async () => {
    const { token, accountId } = await trader();
    const answer = await slowOrder({ authorization: `Bearer ${token}` }, marketOrderBody(accountId), () =>
      server.http('POST', '/v1/sandbox/clock/advance', admin, { by: '2h' }),
    );
    expect([answer.status, answer.body.code]).toEqual([401, 'token_expired']);
    expect(orders()).toEqual([]);
  });

  it('a firm key outlives a reset: its slow order is placed on the fresh kernel', async () => {
    const { accountId } = await trader();
    const answer = await slowOrder({ 'X-Service-Api-Key': KEYS.acmeOperator }, marketOrderBody(accountId), () =>
      server.http('POST', '/v1/sandbox/reset', admin),
    );
    expect(answer.status).toBe(202);
    expect(orders()).toHaveLength(1);
  });
});

describe('docs/api.md#what-a-reset-ends: a stream whose upgrade was under way', () => {
  function open(headers: Record<string, string>) {
    const ws = new WebSocket(`ws://${server.address}/v1/ws`, { headers });
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.on('close', (code, reason) => done({ code, reason: String(reason) })),
    );
    ws.on('error', () => undefined);
    return { ws, closed };
  }

  it('a reset between the token check and the registration closes it with 4001 at once', async () => {
    const { token } = await trader();
    between.set('reset', async () => {
      await server.sandbox.reset();
    });
    const socket = open({ authorization: `Bearer ${token}`, [BETWEEN]: 'reset' });
    expect(await socket.closed).toEqual({
      code: SESSION_ENDED_CLOSE,
      reason: 'session ended: the sandbox was reset; log in again',
    });
  });

  it('a logout between the token check and the registration closes it with 4001 at once', async () => {
    const { token } = await trader();
    between.set('logout', async () => {
      await server.http('POST', '/v1/auth/logout', { authorization: `Bearer ${token}` });
    });
    const socket = open({ authorization: `Bearer ${token}`, [BETWEEN]: 'logout' });
    expect((await socket.closed).code).toBe(SESSION_ENDED_CLOSE);
  });

  it('with nothing between, the stream opens and stays open', async () => {
    const { token } = await trader();
    const socket = open({ authorization: `Bearer ${token}` });
    await new Promise((opened) => socket.ws.once('open', opened));
    await new Promise((settle) => setTimeout(settle, 50));
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    socket.ws.close();
  });
});
