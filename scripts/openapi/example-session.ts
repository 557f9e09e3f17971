// The session whose answers are the OpenAPI document's examples (docs/api.md#the-openapi-document), on a fresh
// sandbox of the bundled seed (its ids are seeded, its clock manual): the worked session of
// docs/api.md#a-worked-session around a limit order that rests, is modified and cancelled, an OCO group, the firm's
// controls (a lockout that locks), the balances, logins and sandbox control, and one refusal of each error status.
// Each operation's example is its own real outcome.
import { withBundledApp } from '../bundled-sandbox.js';
import { ExampleRecorder, type Call, type RecordedExamples } from './example-recorder.js';

const FIRM = { 'x-service-api-key': 'svc_live_acme_operator_demo' };
const VIEWER = { 'x-service-api-key': 'svc_live_acme_readonly_demo' };
const ADMIN = { 'x-service-api-key': 'svc_live_platform_admin_demo' };
const PASSWORD = 'propsim-sandbox';
const UNKNOWN_ID = '9b2f4c1e-7d3a-4e5b-8c6f-0a1d2e3f4b5c';
/** Steps of the session export the example keeps, after its header; a longer line is left out. */
const EXPORT_STEPS = 6;
const EXPORT_LINE = 240;

type Method = Call['method'];
const firm = (method: Method, url: string, body?: unknown): Call => ({ method, url, headers: FIRM, body });
const admin = (method: Method, url: string, body?: unknown): Call => ({ method, url, headers: ADMIN, body });
const print = (price: string) =>
  admin('POST', '/v1/sandbox/market/prints', { prints: [{ instrument_id: 'ESM6', price }] });
const market = (accountId: string, side: 'buy' | 'sell') => ({
  account_id: accountId,
  instrument_id: 'ESM6',
  side,
  type: 'market',
  quantity: 1,
  time_in_force: 'day',
});

/** A GTC sell limit above the market: it rests. */
const restingSell = (accountId: string, price: string) => ({
  ...market(accountId, 'sell'),
  type: 'limit',
  limit_price: price,
  time_in_force: 'gtc',
});

export async function recordExampleSession(): Promise<RecordedExamples> {
  const unlimited = { perSecond: 1e6, burst: 1e6 };
  return withBundledApp(
    async (app) => {
      const session = new ExampleRecorder(app);
      await run(session);
      return session.recorded;
    },
    (seed) => ({ ...seed, rateLimit: unlimited }),
  );
}

async function run(s: ExampleRecorder): Promise<void> {
  await s.example('getHealth', { method: 'GET', url: '/health' }, 200);
  const made = await s.example(
    'provisionAccounts',
    firm('POST', '/v1/firm-control/accounts', {
      user: { email: 'newcomer@example.com', first_name: 'Nia' },
      plan_reference: 'eval-50k',
    }),
    201,
  );
  const accountId: string = made.body.account_ids[0];
  const account = `/v1/accounts/${accountId}`;
  const balance = `/v1/balances/${accountId}`;
  const riskState = `/v1/firm-control/accounts/${accountId}/risk-state`;
  await s.error(firm('GET', riskState), 503, 'risk_loading');
  // The dashboard's histories start with their first read: this one, so the last read tells the whole story.
  await s.expect(firm('GET', `/v1/firm-control/account-histories?account_id=${accountId}`), 200);
  await s.example('advanceSandboxClock', admin('POST', '/v1/sandbox/clock/advance', { by: '1s' }), 200);
  await s.example('getSandboxClock', admin('GET', '/v1/sandbox/clock'), 200);

  // A limit order rests (SUBMITTED, nothing filled); a modify answers before it lands, so its answer shows the old
  // price and a read after it the new one; a cancel answers 202 while it travels, and 200 once the order is CANCELLED.
  const limit = { ...firm('POST', '/v1/orders'), headers: { ...FIRM, 'idempotency-key': 'nia-limit-1' } };
  const placed = await s.example(
    'placeOrder',
    {
      ...limit,
      body: {
        account_id: accountId,
        instrument_id: 'ESM6',
        side: 'buy',
        type: 'limit',
        quantity: 1,
        limit_price: '4990.00',
        time_in_force: 'gtc',
      },
    },
    202,
  );
  const orderId: string = placed.body.order_id;
  const order = `/v1/orders/${orderId}`;
  await s.example('getOrder', firm('GET', order), 200);
  await s.example('modifyOrder', firm('PATCH', order, { limit_price: '4995.00' }), 202);
  const target = await s.expect(firm('POST', '/v1/orders', restingSell(accountId, '5050.00')), 202);
  const linked = await s.example(
    'linkOcoOrders',
    firm('POST', '/v1/orders/groups/oco/link', { order_ids: [orderId, target.body.order_id] }),
    201,
  );
  const third = await s.expect(firm('POST', '/v1/orders', restingSell(accountId, '5060.00')), 202);
  await s.example(
    'addOcoCompanion',
    firm('POST', '/v1/orders/groups/oco/companion', {
      oco_group_id: linked.body.oco_group_id,
      order_id: third.body.order_id,
    }),
    200,
  );
  await s.example('cancelOrder', firm('DELETE', order), 202);
  await s.example('cancelOrder', firm('DELETE', order), 200);
  await s.example('getOrderStates', firm('GET', `${order}/states`), 200);
  await s.example('cancelAccountOrders', firm('POST', `${account}/orders/cancel`), 200);

  // The worked session: buy one ES at 5000.00, sell it at 5030.00.
  const bought = await s.expect(firm('POST', '/v1/orders', market(accountId, 'buy')), 202);
  await s.example('postMarketPrints', print('5000.00'), 200);
  await s.expect(print('5030.00'), 200);
  await s.expect(firm('POST', '/v1/orders', market(accountId, 'sell')), 202);
  await s.expect(print('5030.00'), 200);
  await s.error(firm('DELETE', `/v1/orders/${bought.body.order_id}`), 409, 'order_final');

  await s.example('listOrders', firm('GET', `/v1/orders?account_id=${accountId}&limit=2`), 200);
  const fills = await s.example('listFills', firm('GET', `/v1/fills?account_id=${accountId}&limit=1`), 200);
  await s.example('listTrades', firm('GET', `/v1/trades?account_id=${accountId}`), 200);
  await s.example('getTradeLots', firm('GET', `/v1/trades/${fills.body.items[0].trade_id}/lots`), 200);
  await s.example('listPositions', firm('GET', `/v1/positions?account_id=${accountId}`), 200);
  await s.example('listAccountPositions', firm('GET', `${account}/positions`), 200);
  await s.example(
    'listDailyPositions',
    firm('GET', `${account}/positions/daily?from_date=2026-03-02&to_date=2026-03-02`),
    200,
  );
  await s.example('getStats', firm('GET', `/v1/stats?account_id=${accountId}`), 200);
  await s.example('listBalances', firm('GET', `/v1/balances?account_id=${accountId}`), 200);
  await s.example('getBalance', firm('GET', balance), 200);
  await s.example('getFirmAccountRiskState', firm('GET', riskState), 200);

  // The firm's controls.
  await s.example('adjustBalance', firm('POST', `${balance}/adjust`, { amount: '250.00', reason_code: 'promo' }), 200);
  await s.example('listBalanceAdjustments', firm('GET', `${balance}/adjustments`), 200);
  await s.example(
    'setDailyLossTrigger',
    firm('POST', `${balance}/daily-loss/trigger`, { reason_code: 'desk', daily_loss_limit_trigger: '48500.00' }),
    200,
  );
  await s.example('reanchorDailyLoss', firm('POST', `${balance}/daily-loss/reanchor`, { reason_code: 'desk' }), 200);
  await s.example(
    'setMaxLossLimit',
    firm('PATCH', `/v1/firm-control/accounts/${accountId}/max-loss-limit`, { max_drawdown_limit: '500.00' }),
    200,
  );
  await s.example('lockAccount', firm('POST', `${account}/lockout`, { reason_code: 'review' }), 200);
  await s.example('unlockAccount', firm('DELETE', `${account}/lockout`), 200);
  await s.expect(admin('POST', '/v1/sandbox/clock/advance', { by: '1s' }), 200);
  await s.expect(firm('POST', '/v1/orders', market(accountId, 'buy')), 202);
  await s.expect(print('5031.00'), 200);
  await s.example('flattenAccount', firm('POST', `${account}/flatten`), 200);
  await s.expect(print('5031.00'), 200);
  await s.example('getOfferings', firm('GET', '/v1/firm-control/offerings'), 200);
  await s.example(
    'setOffering',
    firm('PUT', '/v1/firm-control/offerings', { product_family: 'energy', enabled: false }),
    200,
  );

  // Staff roles, for the seed's staff member; logins.
  const staff = await s.expect(
    { method: 'POST', url: '/v1/auth/login', body: { email: 'ops@acme.example', password: PASSWORD } },
    200,
  );
  const staffId: string = staff.body.user.user_id;
  const role = await s.example(
    'assignStaffRole',
    firm('POST', '/v1/firm-control/staff/roles/assign', { user_id: staffId, role_name: 'risk_manager' }),
    200,
  );
  await s.example(
    'removeStaffRole',
    firm('POST', '/v1/firm-control/staff/roles/remove', { user_id: staffId, role_id: role.body.role_id }),
    200,
  );
  const login = await s.example(
    'login',
    { method: 'POST', url: '/v1/auth/login', body: { email: 'newcomer@example.com', password: PASSWORD } },
    200,
  );
  const refreshed = await s.example(
    'refreshSession',
    { method: 'POST', url: '/v1/auth/refresh', headers: { authorization: `Bearer ${login.body.access_token}` } },
    200,
  );
  await s.example(
    'logout',
    { method: 'POST', url: '/v1/auth/logout', headers: { authorization: `Bearer ${refreshed.body.access_token}` } },
    200,
  );
  await s.example('createFirmStreamTicket', firm('POST', '/v1/firm-ws/tickets'), 201);

  // The firm's reads.
  await s.example('listFirmAccounts', firm('GET', `/v1/firm-control/accounts?user_id=${made.body.user_id}`), 200);
  await s.example('adminQueryAccounts', firm('GET', '/v1/admin/query/accounts?limit=1'), 200);
  await s.example('adminQueryOrders', firm('GET', `/v1/admin/query/orders?account_id=${accountId}&limit=1`), 200);
  await s.example('adminQueryFills', firm('GET', `/v1/admin/query/fills?account_id=${accountId}&limit=1`), 200);
  await s.example('adminQueryBalances', firm('GET', `/v1/admin/query/balances?account_id=${accountId}`), 200);

  // The session roll moves the end-of-day floor; the histories show the account's story to here.
  await s.expect(admin('POST', '/v1/sandbox/clock/advance', { to_next: 'session_roll' }), 200);
  await s.example(
    'listAccountHistories',
    firm('GET', `/v1/firm-control/account-histories?account_id=${accountId}`),
    200,
  );

  // A purchase provisioned again with its idempotency_key answers 200 with the first answer, and makes nothing.
  const purchase = firm('POST', '/v1/firm-control/accounts', {
    user: { email: 'buyer@example.com' },
    plan_reference: 'eval-50k',
    idempotency_key: 'purchase-1042',
  });
  await s.expect(purchase, 201);
  await s.example('provisionAccounts', purchase, 200);

  // One refusal of each error status.
  await s.error(firm('POST', '/v1/orders', { ...market(accountId, 'buy'), quantity: '1' }), 400, 'invalid_request');
  await s.error({ method: 'GET', url: '/v1/orders' }, 401, 'missing_credentials');
  await s.error({ ...firm('POST', '/v1/orders', market(accountId, 'buy')), headers: VIEWER }, 403, 'missing_scope');
  await s.error(firm('GET', `/v1/balances/${UNKNOWN_ID}`), 404, 'account_not_found');
  const tooLarge = { ...FIRM, 'content-type': 'application/json' };
  await s.error(
    { method: 'POST', url: '/v1/orders', headers: tooLarge, payload: `"${'x'.repeat(1_100_000)}"` },
    413,
    'body_too_large',
  );
  const text = { ...FIRM, 'content-type': 'text/plain' };
  await s.error(
    { method: 'POST', url: '/v1/orders', headers: text, payload: 'buy 1 ESM6' },
    415,
    'unsupported_media_type',
  );
  for (const [status, code] of [
    [421, 'wrong_shard'],
    [429, 'rate_limited'],
    [502, 'bad_gateway'],
  ] as const) {
    const window = { target: 'trading', status, duration_ms: 1000, path_prefix: '/v1/orders' };
    await s.example('openFaultWindow', admin('POST', '/v1/sandbox/faults', window), 201);
    await s.error(firm('GET', '/v1/orders'), status, code);
    await s.example('clearFaultWindows', admin('DELETE', '/v1/sandbox/faults'), 200);
  }

  await s.example('replaceAccount', firm('POST', `/v1/firm-control/accounts/${accountId}/replace`), 201);
  await s.example('exportSession', admin('GET', '/v1/sandbox/session.yaml'), 200, (yaml) =>
    exportExample(String(yaml)),
  );
  await s.example('resetSandbox', admin('POST', '/v1/sandbox/reset'), 200);
}

/** The export's header and first steps, a step line too long to read (a firm with its plans) said in a comment. */
function exportExample(yaml: string): string {
  const lines = yaml.split('\n');
  const steps = lines.indexOf('steps:') + 1;
  const kept = lines.slice(0, steps);
  for (const line of lines.slice(steps, steps + EXPORT_STEPS))
    kept.push(
      line.length <= EXPORT_LINE
        ? line
        : `  # ${JSON.parse(line.slice('  - input: '.length)).type}: a line of ${line.length} characters`,
    );
  kept.push('  # … one step for each input of the session, in order', '');
  return kept.join('\n');
}
