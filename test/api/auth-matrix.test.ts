// docs/api.md#the-auth-matrix as one table: every route of the app × every kind of caller → the status (and code)
// the matrix promises. Each cell runs on a fresh world (reset, then the same accounts, orders and fills), so a
// write in one cell cannot change what another cell sees. A route added to the app without a row here fails the
// "every route has a row" test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyLimitBody, KEYS, PASSWORD, startTestApi, type TestApi } from './api-harness.js';

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
interface World {
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

interface Row {
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

const ROWS: Row[] = [
  { method: 'GET', route: '/health', group: 'public', ok: 200, url: () => '/health' },
  { method: 'GET', route: '/openapi.json', group: 'public', ok: 200, url: () => '/openapi.json' },
  { method: 'GET', route: '/docs/', group: 'public', ok: 200, url: () => '/docs/' },
  {
    method: 'POST',
    route: '/v1/auth/login',
    group: 'login',
    ok: 200,
    url: () => '/v1/auth/login',
    body: () => ({ email: 'trader@acme.example', password: PASSWORD }),
  },
  { method: 'POST', route: '/v1/auth/refresh', group: 'session', ok: 200, url: () => '/v1/auth/refresh' },
  { method: 'POST', route: '/v1/auth/logout', group: 'session', ok: 200, url: () => '/v1/auth/logout' },
  // The streams (docs/api.md#streams): a plain GET that the gateway admits is told to upgrade (426).
  { method: 'GET', route: '/v1/ws', group: 'session', ok: 426, url: () => '/v1/ws' },
  { method: 'GET', route: '/v1/firm-ws', group: 'firm read', ok: 426, url: () => '/v1/firm-ws' },
  { method: 'POST', route: '/v1/firm-ws/tickets', group: 'firm read', ok: 201, url: () => '/v1/firm-ws/tickets' },

  { method: 'GET', route: '/v1/orders', group: 'trading read list', ok: 200, url: () => '/v1/orders' },
  {
    method: 'GET',
    route: '/v1/orders/:order_id',
    group: 'trading read one',
    ok: 200,
    url: (w) => `/v1/orders/${w.filledOrder}`,
  },
  {
    method: 'GET',
    route: '/v1/orders/:order_id/states',
    group: 'trading read one',
    ok: 200,
    url: (w) => `/v1/orders/${w.filledOrder}/states`,
  },
  { method: 'GET', route: '/v1/fills', group: 'trading read list', ok: 200, url: () => '/v1/fills' },
  { method: 'GET', route: '/v1/trades', group: 'trading read list', ok: 200, url: () => '/v1/trades' },
  {
    method: 'GET',
    route: '/v1/trades/:trade_id/lots',
    group: 'trading read one',
    ok: 200,
    url: (w) => `/v1/trades/${w.tradeId}/lots`,
  },
  { method: 'GET', route: '/v1/positions', group: 'trading read list', ok: 200, url: () => '/v1/positions' },
  {
    method: 'GET',
    route: '/v1/accounts/:account_id/positions',
    group: 'trading read one',
    ok: 200,
    url: (w) => `/v1/accounts/${w.accountA}/positions`,
  },
  {
    method: 'GET',
    route: '/v1/accounts/:account_id/positions/daily',
    group: 'trading read one',
    ok: 200,
    url: (w) => `/v1/accounts/${w.accountA}/positions/daily?from_date=2026-03-02&to_date=2026-03-02`,
  },
  {
    method: 'GET',
    route: '/v1/stats',
    group: 'trading read one',
    ok: 200,
    url: (w) => `/v1/stats?account_id=${w.accountA}`,
  },
  {
    method: 'POST',
    route: '/v1/orders',
    group: 'trading write',
    ok: 202,
    url: () => '/v1/orders',
    body: (w) => buyLimitBody(w.accountA),
  },
  {
    method: 'PATCH',
    route: '/v1/orders/:order_id',
    group: 'trading write',
    ok: 202,
    url: (w) => `/v1/orders/${w.restingOrder}`,
    body: () => ({ limit_price: '4901.00' }),
  },
  {
    method: 'DELETE',
    route: '/v1/orders/:order_id',
    group: 'trading write',
    ok: 202,
    url: (w) => `/v1/orders/${w.restingOrder}`,
  },
  {
    method: 'POST',
    route: '/v1/orders/groups/oco/link',
    group: 'trading write',
    ok: 201,
    url: () => '/v1/orders/groups/oco/link',
    body: (w) => ({ order_ids: w.linkable }),
  },
  {
    method: 'POST',
    route: '/v1/orders/groups/oco/companion',
    group: 'trading write',
    ok: 200,
    url: () => '/v1/orders/groups/oco/companion',
    body: (w) => ({ oco_group_id: w.ocoGroup, order_id: w.companion }),
  },

  { method: 'GET', route: '/v1/balances', group: 'balance read list', ok: 200, url: () => '/v1/balances' },
  {
    method: 'GET',
    route: '/v1/balances/:account_id',
    group: 'balance read one',
    ok: 200,
    url: (w) => `/v1/balances/${w.accountA}`,
  },
  {
    method: 'GET',
    route: '/v1/balances/:account_id/adjustments',
    group: 'firm read one',
    ok: 200,
    url: (w) => `/v1/balances/${w.accountA}/adjustments`,
  },
  {
    method: 'POST',
    route: '/v1/balances/:account_id/daily-loss/trigger',
    group: 'firm write one',
    ok: 200,
    url: (w) => `/v1/balances/${w.accountA}/daily-loss/trigger`,
    body: () => ({ reason_code: 'manual', daily_loss_limit_trigger: '49500.00' }),
  },
  {
    method: 'POST',
    route: '/v1/balances/:account_id/daily-loss/reanchor',
    group: 'firm write one',
    ok: 200,
    url: (w) => `/v1/balances/${w.accountA}/daily-loss/reanchor`,
    body: () => ({ reason_code: 'manual' }),
  },
  {
    method: 'POST',
    route: '/v1/balances/:account_id/adjust',
    group: 'firm write one',
    ok: 200,
    url: (w) => `/v1/balances/${w.accountA}/adjust`,
    body: () => ({ amount: '100.00' }),
  },

  {
    method: 'POST',
    route: '/v1/firm-control/accounts',
    group: 'provisioning',
    ok: 201,
    url: () => '/v1/firm-control/accounts',
    body: () => ({ user: { email: 'new@example.com', first_name: 'New' }, plan_reference: 'eval-50k' }),
  },
  {
    method: 'GET',
    route: '/v1/firm-control/accounts',
    group: 'firm read',
    ok: 200,
    url: () => '/v1/firm-control/accounts',
  },
  {
    method: 'GET',
    route: '/v1/firm-control/account-histories',
    group: 'firm read',
    ok: 200,
    url: () => '/v1/firm-control/account-histories',
  },
  {
    method: 'GET',
    route: '/v1/firm-control/accounts/:account_id/risk-state',
    group: 'firm read one',
    ok: 200,
    url: (w) => `/v1/firm-control/accounts/${w.accountA}/risk-state`,
  },
  {
    method: 'PATCH',
    route: '/v1/firm-control/accounts/:account_id/max-loss-limit',
    group: 'firm write one',
    ok: 200,
    url: (w) => `/v1/firm-control/accounts/${w.accountA}/max-loss-limit`,
    body: () => ({ max_drawdown_limit: '47000.00' }),
  },
  {
    method: 'POST',
    route: '/v1/firm-control/accounts/:account_id/replace',
    group: 'firm write one',
    ok: 201,
    url: (w) => `/v1/firm-control/accounts/${w.accountA}/replace`,
  },
  {
    method: 'GET',
    route: '/v1/firm-control/offerings',
    group: 'firm read',
    ok: 200,
    url: () => '/v1/firm-control/offerings',
  },
  {
    method: 'PUT',
    route: '/v1/firm-control/offerings',
    group: 'firm write',
    ok: 200,
    url: () => '/v1/firm-control/offerings',
    body: () => ({ product_family: 'energy', enabled: false }),
  },
  {
    method: 'POST',
    route: '/v1/firm-control/staff/roles/assign',
    group: 'firm write',
    ok: 200,
    url: () => '/v1/firm-control/staff/roles/assign',
    body: (w) => ({ user_id: w.staffUser, role_name: 'risk_manager' }),
    foreign: '404 user_not_found',
  },
  {
    method: 'POST',
    route: '/v1/firm-control/staff/roles/remove',
    group: 'firm write',
    ok: 200,
    url: () => '/v1/firm-control/staff/roles/remove',
    body: (w) => ({ user_id: w.staffUser, role_id: w.staffRole }),
    foreign: '404 user_not_found',
  },
  {
    method: 'POST',
    route: '/v1/accounts/:account_id/lockout',
    group: 'firm write one',
    ok: 200,
    url: (w) => `/v1/accounts/${w.accountA}/lockout`,
    body: () => ({ reason_code: 'review' }),
  },
  {
    method: 'DELETE',
    route: '/v1/accounts/:account_id/lockout',
    group: 'firm write one',
    ok: 200,
    url: (w) => `/v1/accounts/${w.accountB}/lockout`,
  },
  {
    method: 'POST',
    route: '/v1/accounts/:account_id/flatten',
    group: 'firm write one',
    ok: 200,
    url: (w) => `/v1/accounts/${w.accountA}/flatten`,
  },
  {
    method: 'POST',
    route: '/v1/accounts/:account_id/orders/cancel',
    group: 'firm write one',
    ok: 200,
    url: (w) => `/v1/accounts/${w.accountA}/orders/cancel`,
  },
  ...(['accounts', 'orders', 'fills', 'balances'] as const).map((what): Row => ({
    method: 'GET',
    route: `/v1/admin/query/${what}`,
    group: 'firm read',
    ok: 200,
    url: () => `/v1/admin/query/${what}`,
  })),

  { method: 'GET', route: '/v1/sandbox/clock', group: 'sandbox', ok: 200, url: () => '/v1/sandbox/clock' },
  {
    method: 'POST',
    route: '/v1/sandbox/clock/advance',
    group: 'sandbox',
    ok: 200,
    url: () => '/v1/sandbox/clock/advance',
    body: () => ({ by: '1m' }),
  },
  {
    method: 'POST',
    route: '/v1/sandbox/market/prints',
    group: 'sandbox',
    ok: 200,
    url: () => '/v1/sandbox/market/prints',
    body: () => ({ prints: [{ instrument_id: 'ESM6', price: '5001.00' }] }),
  },
  {
    method: 'POST',
    route: '/v1/sandbox/faults',
    group: 'sandbox',
    ok: 201,
    url: () => '/v1/sandbox/faults',
    body: () => ({ target: 'trading', status: 503, duration_ms: 1000 }),
  },
  { method: 'DELETE', route: '/v1/sandbox/faults', group: 'sandbox', ok: 200, url: () => '/v1/sandbox/faults' },
  { method: 'POST', route: '/v1/sandbox/reset', group: 'sandbox', ok: 200, url: () => '/v1/sandbox/reset' },
  {
    method: 'GET',
    route: '/v1/sandbox/session.yaml',
    group: 'sandbox',
    ok: 200,
    url: () => '/v1/sandbox/session.yaml',
  },

  ...[
    '/v1/market-data/quotes',
    '/v1/instruments/ESM6',
    '/v1/journal/entries',
    '/v1/pm/positions',
    '/internal/health',
    '/v1/firm-control/me/profile',
    '/v1/firm-control/firms',
  ].map((path): Row => ({ method: 'GET', route: path, group: 'unsimulated', ok: 404, url: () => path })),
];

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

describe('docs/api.md#the-auth-matrix: every route × every kind of caller', () => {
  let api: TestApi;
  let world: World;

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

  it('every route the app serves has a row, and every row is a route', async () => {
    const doc = JSON.parse((await api.call({ method: 'GET', url: '/openapi.json' })).body);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const rows = new Set(ROWS.map((r) => `${r.method} ${r.route}`));
    expect(documented.filter((route) => !rows.has(route))).toEqual([]);
    // Not in the OpenAPI document: the unsimulated routes, the document itself, its page, and the WebSocket streams.
    const undocumented = new Set(['/openapi.json', '/docs/', '/v1/ws', '/v1/firm-ws']);
    expect(documented.length).toBe(ROWS.filter((r) => r.group !== 'unsimulated' && !undocumented.has(r.route)).length);
  });

  for (const row of ROWS)
    describe(`${row.method} ${row.route}`, () => {
      it.each(CALLERS.map((caller) => [caller, String(expected(row, caller))]))('%s → %s', async (caller, want) => {
        world = await freshWorld();
        const payload = row.body?.(world);
        const answer = await call(row.method, row.url(world), headersOf(caller as CallerName, world), payload);
        const [status, code] = want.split(' ');
        expect({ status: answer.status, code: answer.status >= 400 ? answer.body?.code : undefined }).toEqual({
          status: Number(status),
          code: code ?? (answer.status >= 400 ? answer.body?.code : undefined),
        });
        if (answer.status >= 400) expect(Object.keys(answer.body)[0]).toBe('error');
      });
    });
});
