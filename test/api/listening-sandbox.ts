// A sandbox app listening on a free loopback port, for tests that need real sockets (WebSocket streams, a browser):
// the bundled seed with the rate limit lifted, a manual clock, and a JSON helper for plain HTTP calls whose every
// answer is checked against the served OpenAPI document (openapi-responses.ts).
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/api/app.js';
import { DEFAULT_START_MS, Sandbox } from '../../src/api/sandbox/sandbox.js';
import { DEFAULT_SEED_FILE, loadSeedFile } from '../../src/api/sandbox/seed-file.js';
import { GlobexCalendar } from '../../src/core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { KEYS, PASSWORD } from './api-harness.js';
import { checkedFetch } from './openapi-responses.js';

export interface ListeningSandbox {
  app: FastifyInstance;
  sandbox: Sandbox;
  /** host:port */
  address: string;
  http(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
type Answer = { status: number; body: any };

export async function startListeningSandbox(
  options: Omit<AppDeps, 'sandbox'> & {
    /** Called with the app before it listens: a test's own hooks, which run after the gateway's. */
    beforeListen?: (app: FastifyInstance, sandbox: Sandbox) => void;
    /** Overrides of the failed-authentication limit (lifted by default). */
    failedAuthLimit?: { perSecond: number; burst: number };
  } = {},
): Promise<ListeningSandbox> {
  const { beforeListen, failedAuthLimit, ...deps } = options;
  const sandbox = await Sandbox.start({
    seed: {
      ...loadSeedFile(DEFAULT_SEED_FILE),
      rateLimit: { perSecond: 1e6, burst: 1e6 },
      failedAuthLimit: failedAuthLimit ?? { perSecond: 1e6, burst: 1e6 },
    },
    startMs: DEFAULT_START_MS,
    calendar: new GlobexCalendar(loadHolidayFile()),
    market: [],
    clockMode: 'manual',
  });
  const app = await buildApp({ sandbox, ...deps });
  beforeListen?.(app, sandbox);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = `127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    sandbox,
    address,
    async http(method, path, headers, body) {
      const response = await checkedFetch(`http://${address}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json() };
    },
  };
}

/**
 * The seed's acme trader logged in: a session token and the id of the account the seed gave them, with the clock
 * moved past the risk engine's loading window so that the account takes orders.
 */
export async function loggedInTrader(server: ListeningSandbox): Promise<{ token: string; accountId: string }> {
  const login = await server.http('POST', '/v1/auth/login', {}, { email: 'trader@acme.example', password: PASSWORD });
  const token = login.body.access_token as string;
  const balances = await server.http('GET', '/v1/balances', { authorization: `Bearer ${token}` });
  await server.http('POST', '/v1/sandbox/clock/advance', { 'X-Service-Api-Key': KEYS.admin }, { by: '1s' });
  return { token, accountId: balances.body.items[0].account_id };
}
