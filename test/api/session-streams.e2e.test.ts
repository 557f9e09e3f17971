// docs/api.md#streams on a real listening server: a trader stream is a session's, so it closes (code 4001, a reason
// saying why) when the session ends — a logout, the token's expiry on the simulated clock, a sandbox reset — and a
// refresh carries it over to the new token. An upgrade authenticated by the session cookie must come from a page of
// this server: another site's Origin is refused with 403 before the upgrade.
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_ENDED_CLOSE } from '../../src/api/streams/session-sockets.js';
import { KEYS, PASSWORD } from './api-harness.js';
import { startListeningSandbox, type ListeningSandbox } from './listening-sandbox.js';

let server: ListeningSandbox;
const admin = { 'X-Service-Api-Key': KEYS.admin };

beforeAll(async () => {
  server = await startListeningSandbox();
});
afterAll(() => server.app.close());
beforeEach(() => server.http('POST', '/v1/sandbox/reset', admin));

async function login(): Promise<string> {
  const answer = await server.http('POST', '/v1/auth/login', {}, { email: 'trader@acme.example', password: PASSWORD });
  return answer.body.access_token as string;
}

interface Opened {
  ws: WebSocket;
  closed: Promise<{ code: number; reason: string }>;
}

function open(headers: Record<string, string>): Promise<Opened> {
  const ws = new WebSocket(`ws://${server.address}/v1/ws`, { headers });
  const closed = new Promise<{ code: number; reason: string }>((done) =>
    ws.on('close', (code, reason) => done({ code, reason: String(reason) })),
  );
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ ws, closed }));
    ws.on('unexpected-response', (_request, response) => reject(new Error(`refused: ${response.statusCode}`)));
    ws.on('error', reject);
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const stillOpen = async (socket: Opened) => {
  await new Promise((settle) => setTimeout(settle, 50));
  return socket.ws.readyState === WebSocket.OPEN;
};

describe('docs/api.md#streams: a trader stream lives as long as its session', () => {
  it('a logout closes the session stream with 4001; another session of the same user stays open', async () => {
    const token = await login();
    const other = await login();
    const socket = await open(bearer(token));
    const otherSocket = await open(bearer(other));
    expect((await server.http('POST', '/v1/auth/logout', bearer(token))).status).toBe(200);
    expect(await socket.closed).toEqual({ code: SESSION_ENDED_CLOSE, reason: 'session ended: logged out' });
    expect(await stillOpen(otherSocket)).toBe(true);
    otherSocket.ws.close();
  });

  it('the token expiring on the simulated clock closes it; a refresh before that carries it to the new token', async () => {
    const refreshedToken = await login();
    const refreshed = await open(bearer(refreshedToken));
    const expiring = await open(bearer(await login()));
    await server.http('POST', '/v1/sandbox/clock/advance', admin, { by: '30m' });
    expect((await server.http('POST', '/v1/auth/refresh', bearer(refreshedToken))).status).toBe(200);
    await server.http('POST', '/v1/sandbox/clock/advance', admin, { by: '30m' });
    expect(await expiring.closed).toEqual({ code: SESSION_ENDED_CLOSE, reason: 'session expired; log in again' });
    expect(await stillOpen(refreshed), 'the refreshed session has half an hour left').toBe(true);
    await server.http('POST', '/v1/sandbox/clock/advance', admin, { by: '30m' });
    expect((await refreshed.closed).code).toBe(SESSION_ENDED_CLOSE);
  });

  it('a reset closes every session stream', async () => {
    const socket = await open(bearer(await login()));
    await server.http('POST', '/v1/sandbox/reset', admin);
    expect(await socket.closed).toEqual({
      code: SESSION_ENDED_CLOSE,
      reason: 'session ended: the sandbox was reset; log in again',
    });
  });
});

describe('docs/api.md#streams: the session cookie opens a stream only from a page of this server', () => {
  it('another Origin is refused with 403 origin_forbidden; the same host, or no Origin, is let in', async () => {
    const cookie = { cookie: `session=${await login()}` };
    await expect(open({ ...cookie, origin: 'https://evil.example' })).rejects.toThrow(/refused: 403/);
    const same = await open({ ...cookie, origin: `http://${server.address}` });
    const none = await open(cookie);
    same.ws.close();
    none.ws.close();
    const bearerFromElsewhere = await open({ ...bearer(await login()), origin: 'https://tool.example' });
    expect(await stillOpen(bearerFromElsewhere), 'a bearer token is sent on purpose, from anywhere').toBe(true);
    bearerFromElsewhere.ws.close();
  });
});
