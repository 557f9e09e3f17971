// The sandbox app on the bundled seed, for inject() tests: one app per test file, reset between tests.
import { createHash } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { buildApp } from '../../src/api/app.js';
import { servedDocument } from '../../src/api/openapi/served-document.js';
import { DEFAULT_START_MS, Sandbox, type SandboxConfig } from '../../src/api/sandbox/sandbox.js';
import { DEFAULT_SEED_FILE, loadSeedFile, type SandboxSeed } from '../../src/api/sandbox/seed-file.js';
import type { SandboxDb } from '../../src/store/sandbox-db.js';
import { responseChecker, type ResponseChecker } from './openapi-responses.js';

export const KEYS = {
  acmeOperator: 'svc_live_acme_operator_demo',
  acmeViewer: 'svc_live_acme_readonly_demo',
  summitOperator: 'svc_live_summit_operator_demo',
  summitViewer: 'svc_live_summit_readonly_demo',
  admin: 'svc_live_platform_admin_demo',
} as const;

export const PASSWORD = 'propsim-sandbox';
const calendar = new GlobexCalendar(loadHolidayFile());

/** An answer the served OpenAPI document does not describe: its status, content type, headers or body. */
export interface SchemaMiss {
  route: string;
  status: number;
  problems: string;
}

export interface TestApi {
  app: FastifyInstance;
  sandbox: Sandbox;
  call(options: InjectOptions): Promise<LightMyRequestResponse>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely; schemaMisses checks their shape
  json<T = any>(response: LightMyRequestResponse): T;
  /** Answers so far that the served /openapi.json does not describe (test/api/openapi-responses.ts). */
  schemaMisses: SchemaMiss[];
  /** Closes the app and its sandbox; fails when any answer of the app was a schema miss. */
  close(): Promise<void>;
}

/** The bundled seed with the rate limit lifted. */
export function testSeed(): SandboxSeed {
  return {
    ...loadSeedFile(DEFAULT_SEED_FILE),
    rateLimit: { perSecond: 1e6, burst: 1e6 },
    failedAuthLimit: { perSecond: 1e6, burst: 1e6 },
  };
}

/** The app on a sandbox of the bundled seed (or `overrides`), kept in `db` when one is given. */
export async function startTestApi(
  overrides: Partial<SandboxConfig> & { seed?: SandboxSeed } = {},
  db?: SandboxDb,
): Promise<TestApi> {
  const seed = overrides.seed ?? testSeed();
  const config = { seed, startMs: DEFAULT_START_MS, calendar, market: [], clockMode: 'manual' as const, ...overrides };
  const sandbox = await Sandbox.start(config, db);
  const app = await buildApp({ sandbox });
  const schemaMisses: SchemaMiss[] = [];
  // Every answer of the app, whoever injected it, against the document the app serves. Last of the onSend hooks,
  // so it sees the answer as it leaves (a failed commit's 503 included); a stream's payload (the /docs page's files)
  // is not a body the document describes. The document is what GET /openapi.json sends, made at the first answer:
  // until then a test may still add routes to the app.
  let checker: ResponseChecker | undefined;
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && payload !== null && payload !== undefined) return payload;
    checker ??= responseChecker(JSON.parse(JSON.stringify(servedDocument(app))));
    const answer = { method: request.method, path: request.url, status: reply.statusCode, headers: reply.getHeaders() };
    const problems = checker.problems({ ...answer, body: payload ?? '' });
    if (problems.length > 0)
      schemaMisses.push({
        route: `${request.method} ${request.url}`,
        status: reply.statusCode,
        problems: problems.join('; '),
      });
    return payload;
  });
  return {
    app,
    sandbox,
    schemaMisses,
    call: (options) => app.inject(options),
    json: (response) => JSON.parse(response.body),
    close: async () => {
      await app.close();
      await sandbox.close();
      if (schemaMisses.length > 0)
        throw new Error(
          `answers the OpenAPI document does not describe:\n${schemaMisses.map((m) => m.problems).join('\n')}`,
        );
    },
  };
}

/**
 * The app for the describe block this is called in: started before its tests, the sandbox reset before each test,
 * each test's answers held against the served document after it, closed after the block. What it returns stands for
 * the app from the block's beforeAll on.
 */
export function sharedTestApi(): TestApi {
  let api: TestApi | undefined;
  const started = (): TestApi => {
    if (api === undefined) throw new Error('the shared app starts in beforeAll: use it in a test or a hook');
    return api;
  };
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => started().close());
  beforeEach(() => started().sandbox.reset());
  afterEach(() => {
    expect(started().schemaMisses).toEqual([]);
  });
  return {
    get app() {
      return started().app;
    },
    get sandbox() {
      return started().sandbox;
    },
    get schemaMisses() {
      return started().schemaMisses;
    },
    call: (options) => started().call(options),
    json: <T>(response: LightMyRequestResponse) => started().json<T>(response),
    close: () => started().close(),
  };
}

/**
 * Calls as acme's operator (or with `headers`), answered as the status and the parsed body; `provision` creates an
 * account on eval-50k for the trader `email` with an overlay, `accountCount` counts acme's accounts.
 */
export function firmCalls(api: TestApi, email: string) {
  const call = async (
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    headers: Record<string, string> = key(KEYS.acmeOperator),
  ) => {
    const response = await api.call({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
    return { status: response.statusCode, body: api.json(response) };
  };
  const provision = (overlay: object) =>
    call('POST', '/v1/firm-control/accounts', {
      plan_reference: 'eval-50k',
      user: { email },
      ...overlay,
    });
  const accountCount = async () => (await call('GET', '/v1/firm-control/accounts')).body.items.length as number;
  return { call, provision, accountCount };
}

/** Headers of a firm or admin key. */
export function key(k: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'x-service-api-key': k, ...extra };
}

/** Every page of a kernel list, for a digest. */
function allPages<T>(read: (page: { limit: number; cursor?: string }) => { ok: boolean; body: unknown }): T[] {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const outcome = read({ limit: 500, ...(cursor === undefined ? {} : { cursor }) });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.body));
    const page = outcome.body as { items: T[]; next_cursor: string | null };
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}

/**
 * A digest of everything the kernel would answer about its state: the clock, every account's risk state, orders
 * with their status records, fills, trades, positions, balances, provisioned accounts and each firm's offerings.
 * Equal digests before and after a refused request mean it changed nothing a client can see.
 */
export function stateDigest(sandbox: Sandbox): string {
  const read = sandbox.kernel.read;
  const all = {};
  const orders = allPages<{ order_id: string }>((page) => read.orders(all, {}, page));
  const state = {
    clock: read.clock(),
    accounts: read.accountStates(),
    records: allPages((page) => read.accounts(all, {}, page)),
    orders,
    states: orders.map((o) => read.orderStates(all, o.order_id)),
    fills: allPages((page) => read.fills(all, {}, page)),
    trades: allPages((page) => read.trades(all, {}, page)),
    positions: allPages((page) => read.positions(all, {}, page)),
    balances: allPages((page) => read.balances(all, {}, page)),
    adjustments: read.accountStates().map((a) => allPages((page) => read.adjustments(all, a.account_id, page))),
    offerings: sandbox.seed.firms.map((f) => read.offerings(read.firm(f.slug)!.firm_id)),
    faults: sandbox.faults,
    revoked: [...sandbox.revokedTokens],
  };
  return createHash('sha256').update(JSON.stringify(state)).digest('hex');
}

/** The body of a one-contract ESM6 buy limit, below the tests' market so that it rests. */
export function buyLimitBody(
  accountId: string,
  limitPrice = '4900.00',
  timeInForce: 'day' | 'gtc' = 'day',
): Record<string, unknown> {
  return {
    account_id: accountId,
    instrument_id: 'ESM6',
    side: 'buy',
    type: 'limit',
    limit_price: limitPrice,
    quantity: 1,
    time_in_force: timeInForce,
  };
}

/** One ESM6 contract at market, a DAY order. */
export function marketOrderBody(accountId: string, side: 'buy' | 'sell' = 'buy'): Record<string, unknown> {
  return { account_id: accountId, instrument_id: 'ESM6', side, type: 'market', quantity: 1, time_in_force: 'day' };
}

/** The bundled seed's demo trader of acme-prop: a session token and the account it owns. */
export async function acmeDemoTrader(api: TestApi): Promise<{ accountId: string; userId: string; token: string }> {
  const login = api.json(
    await api.call({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'trader@acme.example', password: PASSWORD },
    }),
  );
  const accounts = api.json(
    await api.call({
      method: 'GET',
      url: `/v1/firm-control/accounts?user_id=${login.user.user_id}`,
      headers: key(KEYS.acmeOperator),
    }),
  );
  return { accountId: accounts.items[0].account_id, userId: login.user.user_id, token: login.access_token };
}
