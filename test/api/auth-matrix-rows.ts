// The auth matrix's rows (docs/api.md#the-auth-matrix): every route of the app with its group, what an admitted caller
// gets, and the URL and body of a call on the world of auth-matrix-world.ts. ROWS is all of them: auth-matrix.test.ts
// checks it against the routes the app serves; each auth-matrix-*.test.ts file runs one part against every caller.
import { buyLimitBody, PASSWORD } from './api-harness.js';
import type { Row } from './auth-matrix-world.js';

/** The routes every caller meets first: the public pages, login, the session and the streams. */
export const DOOR_ROWS: Row[] = [
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
];

/** Orders, fills, trades, positions and stats: a trader's own accounts, or a firm's. */
export const TRADING_ROWS: Row[] = [
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
];

/** Balances and the firm's controls: provisioning, accounts, offerings, staff roles, locks and the admin queries. */
export const FIRM_ROWS: Row[] = [
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
];

/** The sandbox's own routes (the platform admin's), and the routes of the service the sandbox does not simulate. */
export const SANDBOX_ROWS: Row[] = [
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

/** Every row: the table the "every route has a row" test holds against the app. */
export const ROWS: Row[] = [...DOOR_ROWS, ...TRADING_ROWS, ...FIRM_ROWS, ...SANDBOX_ROWS];
