// The auth matrix's callers, its world and its rule (docs/api.md#the-auth-matrix), for the auth-matrix*.test.ts files.
// Each cell runs on a fresh world (reset, then the same accounts, orders and fills), so a write in one cell cannot
// change what another cell sees. The rows are in auth-matrix-rows.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, PASSWORD, startTestApi, type TestApi } from './api-harness.js';

type CallerName =
  | 'no key'
  | 'bad key'
  | 'both headers'
  | 'firm A operator'
  | 'firm A viewer'
  | 'firm B operator'
  | 'platform admin'
  | 'admin without X-Firm-ID'
  | 'trader JWT'
  | 'other trader JWT';

const CALLERS: readonly CallerName[] = [
  'no key',
  'bad key',
  'both headers',
  'firm A operator',
  'firm A viewer',
  'firm B operator',
  'platform admin',
  'admin without X-Firm-ID',
  'trader JWT',
  'other trader JWT',
];

/** The ids a world holds: trader A's account with a closed trade and resting orders, trader B's locked account. */
export interface World {
  accountA: string;
  accountB: string;
  tokenA: string;
  tokenB: string;
  filledOrder: string;
  restingOrder: string;
  linkable: [string, string];
  companion: string;
  ocoGroup: string;
  tradeId: string;
  staffUser: string;
  staffRole: string;
}

type Expected = number | `${number} ${string}`;
type Group =
  | 'public'
  | 'login'
  | 'session'
  | 'trading read list'
  | 'trading read one'
  | 'trading write'
  | 'balance read list'
  | 'balance read one'
  | 'provisioning'
  | 'firm read'
  | 'firm read one'
  | 'firm write'
  | 'firm write one'
  | 'sandbox'
  | 'unsimulated';

export interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as the app registers it (Fastify's `:param` syntax). */
  route: string;
  group: Group;
  /** What an admitted caller gets. */
  ok: number;
  url(w: World): string;
  body?(w: World): unknown;
  /** An admitted caller of another firm (or a trader who does not own the account): default by group. */
  foreign?: Expected;
}

const UNAUTHENTICATED: Record<'no key' | 'bad key' | 'both headers', Expected> = {
  'no key': '401 missing_credentials',
  'bad key': '401 invalid_credentials',
  'both headers': '401 multiple_credentials',
};

/** The matrix: what `caller` gets on a route of `row`'s group. */
function expected(row: Row, caller: CallerName): Expected {
  const { group, ok } = row;
  const foreign: Expected = row.foreign ?? 404;
  if (group === 'public') return ok;
  if (group === 'login') return caller.startsWith('firm ') ? '403 firm_key_forbidden_route' : ok;
  if (caller in UNAUTHENTICATED) return UNAUTHENTICATED[caller as keyof typeof UNAUTHENTICATED];
  const firmKey = caller.startsWith('firm ');
  const user = caller.endsWith('JWT');
  const admin = caller === 'platform admin' || caller === 'admin without X-Firm-ID';
  switch (group) {
    case 'session':
      if (firmKey) return '403 firm_key_forbidden_route';
      return admin ? '403 session_required' : ok;
    case 'sandbox':
      return admin ? ok : '403 admin_required';
    case 'unsimulated':
      return firmKey ? '403 firm_key_forbidden_route' : '404 route_not_found';
  }
  const write =
    group === 'trading write' || group === 'firm write' || group === 'firm write one' || group === 'provisioning';
  const needsFirm = !group.startsWith('trading') && !group.startsWith('balance read');
  const usersMay = group.startsWith('trading') || group.startsWith('balance read');
  const oneAccount = group.endsWith(' one') || group === 'trading write';
  if (caller === 'firm A viewer' && write) return '403 missing_scope';
  if (caller === 'admin without X-Firm-ID' && needsFirm) return '400 firm_id_required';
  if (user && !usersMay) return '403 user_forbidden_route';
  if ((caller === 'firm B operator' || caller === 'other trader JWT') && (oneAccount || row.foreign)) return foreign;
  return ok;
}

function headersOf(caller: CallerName, w: World): Record<string, string> {
  switch (caller) {
    case 'no key':
      return {};
    case 'bad key':
      return { 'x-service-api-key': 'svc_live_no_such_key_at_all' };
    case 'both headers':
      return { 'x-service-api-key': KEYS.acmeOperator, authorization: `Bearer ${KEYS.acmeOperator}` };
    case 'firm A operator':
      return { 'x-service-api-key': KEYS.acmeOperator };
    case 'firm A viewer':
      return { 'x-service-api-key': KEYS.acmeViewer };
    case 'firm B operator':
      return { authorization: `Bearer ${KEYS.summitOperator}` };
    case 'platform admin':
      return { 'x-service-api-key': KEYS.admin, 'x-firm-id': 'acme-prop' };
    case 'admin without X-Firm-ID':
      return { 'x-service-api-key': KEYS.admin };
    case 'trader JWT':
      return { authorization: `Bearer ${w.tokenA}` };
    case 'other trader JWT':
      return { authorization: `Bearer ${w.tokenB}` };
  }
}

export interface MatrixApp {
  /** The app of the describe block (there from its beforeAll on). */
  api(): TestApi;
  /** A describe block for `row`: every kind of caller, each on a fresh world, gets what the matrix promises. */
  describeRow(row: Row): void;
}

/** One app for the describe block this is called in, closed after it with no answer the served document misses. */
export function matrixApp(): MatrixApp {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    expect(api.schemaMisses).toEqual([]);
    await api.close();
  });

  const admin = { 'x-service-api-key': KEYS.admin };
  async function call(method: string, url: string, headers: Record<string, string>, payload?: unknown) {
    const response = await api.call({
      method: method as 'GET',
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    const json = String(response.headers['content-type']).startsWith('application/json');
    return { status: response.statusCode, body: json ? JSON.parse(response.body) : response.body };
  }
  async function ok(method: string, url: string, headers: Record<string, string>, payload?: unknown) {
    const answer = await call(method, url, headers, payload);
    if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  /** Reset, then build the same world: the ids are seeded, so every world has the same ids. */
  async function freshWorld(): Promise<World> {
    const op = { 'x-service-api-key': KEYS.acmeOperator };
    await ok('POST', '/v1/sandbox/reset', admin);
    const loginA = await ok('POST', '/v1/auth/login', {}, { email: 'trader@acme.example', password: PASSWORD });
    const provisioned = await ok('POST', '/v1/firm-control/accounts', op, {
      user: { email: 'other@acme.example', first_name: 'Otto' },
      plan_reference: 'eval-50k',
    });
    const loginB = await ok('POST', '/v1/auth/login', {}, { email: 'other@acme.example', password: PASSWORD });
    const staff = await ok('POST', '/v1/auth/login', {}, { email: 'ops@acme.example', password: PASSWORD });
    const accounts = await ok('GET', `/v1/firm-control/accounts?user_id=${loginA.user.user_id}`, op);
    const accountA: string = accounts.items[0].account_id;
    const accountB: string = provisioned.account_ids[0];
    await ok('POST', '/v1/sandbox/clock/advance', admin, { by: '1s' });

    const order = (body: Record<string, unknown>) =>
      ok('POST', '/v1/orders', op, {
        account_id: accountA,
        instrument_id: 'ESM6',
        quantity: 1,
        time_in_force: 'day',
        ...body,
      });
    const print = (price: string) =>
      ok('POST', '/v1/sandbox/market/prints', admin, { prints: [{ instrument_id: 'ESM6', price }] });
    const filled = await order({ side: 'buy', type: 'market' });
    await print('5000.00');
    await order({ side: 'sell', type: 'market' });
    await print('5001.00');
    const resting = await order({ side: 'buy', type: 'limit', limit_price: '4900.00' });
    const link1 = await order({ side: 'buy', type: 'limit', limit_price: '4890.00' });
    const link2 = await order({ side: 'sell', type: 'limit', limit_price: '5100.00' });
    const leg1 = await order({ side: 'buy', type: 'limit', limit_price: '4880.00' });
    const leg2 = await order({ side: 'sell', type: 'limit', limit_price: '5110.00' });
    const companion = await order({ side: 'sell', type: 'stop', stop_price: '4850.00' });
    const group = await ok('POST', '/v1/orders/groups/oco/link', op, { order_ids: [leg1.order_id, leg2.order_id] });
    const trades = await ok('GET', `/v1/trades?account_id=${accountA}`, op);
    const role = await ok('POST', '/v1/firm-control/staff/roles/assign', op, {
      user_id: staff.user.user_id,
      role_name: 'support',
    });
    await ok('POST', `/v1/accounts/${accountB}/lockout`, op, { reason_code: 'review' });
    return {
      accountA,
      accountB,
      tokenA: loginA.access_token,
      tokenB: loginB.access_token,
      filledOrder: filled.order_id,
      restingOrder: resting.order_id,
      linkable: [link1.order_id, link2.order_id],
      companion: companion.order_id,
      ocoGroup: group.oco_group_id,
      tradeId: trades.items[0].trade_id,
      staffUser: staff.user.user_id,
      staffRole: role.role_id,
    };
  }

  return {
    api: () => api,
    describeRow: (row) =>
      describe(`${row.method} ${row.route}`, () => {
        it.each(CALLERS.map((caller) => [caller, String(expected(row, caller))]))('%s → %s', async (caller, want) => {
          const world = await freshWorld();
          const payload = row.body?.(world);
          const answer = await call(row.method, row.url(world), headersOf(caller as CallerName, world), payload);
          const [status, code] = want.split(' ');
          expect({ status: answer.status, code: answer.status >= 400 ? answer.body?.code : undefined }).toEqual({
            status: Number(status),
            code: code ?? (answer.status >= 400 ? answer.body?.code : undefined),
          });
          if (answer.status >= 400) expect(Object.keys(answer.body)[0]).toBe('error');
        });
      }),
  };
}
