// docs/api.md#rate-limits on a real listening server: the failed-authentication limit holds whatever arrives at once.
// Its bucket was checked as a request arrived and charged once it was answered, so requests sent together all passed
// the check before any failure was counted: 30 concurrent wrong passwords from one address were all tried against a
// limit of 3. Now the bucket is checked again, and charged, in the same step as the credential is judged.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, PASSWORD } from './api-harness.js';
import { startListeningSandbox, type ListeningSandbox } from './listening-sandbox.js';

const BURST = 3;
let server: ListeningSandbox | undefined;
afterEach(async () => {
  await server?.app.close();
  server = undefined;
});

async function limited(): Promise<ListeningSandbox> {
  return (server = await startListeningSandbox({ failedAuthLimit: { perSecond: 0.01, burst: BURST } }));
}

/**
 * `count` requests at once, each on its own connection: every connection is open before any request is written, the
 * heads are written in one go, and the bodies (if any) once every head has had time to pass the gateway. The
 * statuses and codes they got, counted.
 */
async function together(
  server: ListeningSandbox,
  count: number,
  request: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<Record<string, number>> {
  const [host, port] = server.address.split(':');
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((open, fail) => {
          const socket = connect(Number(port), host!, () => open(socket));
          socket.on('error', fail);
        }),
    ),
  );
  const answers = sockets.map(
    (socket) =>
      new Promise<string>((answered) => {
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          text += chunk;
          const [head, body] = text.split('\r\n\r\n');
          const length = Number(/content-length: (\d+)/i.exec(head ?? '')?.[1] ?? NaN);
          if (body === undefined || Buffer.byteLength(body) < length) return;
          socket.destroy();
          answered(`${head!.split(' ')[1]} ${(JSON.parse(body) as { code?: string }).code ?? ''}`.trim());
        });
      }),
  );
  const body = request.body ?? '';
  const headers = { ...request.headers, host: server.address, 'content-length': String(Buffer.byteLength(body)) };
  const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  for (const socket of sockets) socket.write(head);
  if (body !== '') {
    await new Promise((settle) => setTimeout(settle, 100));
    for (const socket of sockets) socket.write(body);
  }
  const counts: Record<string, number> = {};
  for (const answer of await Promise.all(answers)) counts[answer] = (counts[answer] ?? 0) + 1;
  return counts;
}

const json = { 'content-type': 'application/json' };

describe('docs/api.md#rate-limits: failed authentications sent at once', () => {
  it(`30 wrong passwords at once: ${BURST} are judged (401), the rest 429`, async () => {
    const sandbox = await limited();
    const counts = await together(sandbox, 30, {
      path: '/v1/auth/login',
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'trader@acme.example', password: 'guess' }),
    });
    expect(counts).toEqual({ '401 invalid_login': BURST, '429 rate_limited': 30 - BURST });
  });

  it(`30 bad session tokens at once: ${BURST} are judged (401), the rest 429`, async () => {
    const sandbox = await limited();
    const counts = await together(sandbox, 30, {
      path: '/v1/orders',
      method: 'GET',
      headers: { authorization: `Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.${'x'.repeat(43)}` },
    });
    expect(counts).toEqual({ '401 invalid_credentials': BURST, '429 rate_limited': 30 - BURST });
  });

  it(`30 unknown keys at once: ${BURST} are judged (401), the rest 429`, async () => {
    const sandbox = await limited();
    const counts = await together(sandbox, 30, {
      path: '/v1/orders',
      method: 'GET',
      headers: { 'x-service-api-key': 'svc_live_guess_0000000000' },
    });
    expect(counts).toEqual({ '401 invalid_credentials': BURST, '429 rate_limited': 30 - BURST });
  });

  it('right passwords and keys at once are not held back while the bucket has tokens', async () => {
    const sandbox = await limited();
    const logins = await together(sandbox, 20, {
      path: '/v1/auth/login',
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'trader@acme.example', password: PASSWORD }),
    });
    expect(logins).toEqual({ '200': 20 });
    const reads = await together(sandbox, 20, {
      path: '/v1/orders',
      method: 'GET',
      headers: { 'x-service-api-key': KEYS.acmeOperator },
    });
    expect(reads).toEqual({ '200': 20 });
  });
});
