// The examples of the OpenAPI document (docs/api.md#the-openapi-document), by the name of the schema they are an
// instance of: the answers of the worked session of docs/api.md#a-worked-session on a fresh sandbox (its ids are
// seeded), and, for what that session does not do (OCO, staff roles, replace, the daily-loss controls), answers made
// in its image. A test checks each against its schema.

const ACCOUNT_ID = '02323389-94d9-4e9e-8a97-7084db21d674';
const USER_ID = '4d73a41c-0357-4cf7-ad11-cdd3c5a7c2db';
const ORDER_ID = '52efa6bd-b75e-4174-97c4-bbb7eb8a8978';
const LIMIT_ORDER_ID = '67721563-20e9-48e8-aed5-5195f00e4804';
const OCO_GROUP_ID = 'b6c0e0b5-4a8e-4f3a-9d55-0c3f6f1a2e77';
const OPEN_EXECUTION_ID = 'effef85c-035b-4ce9-a760-df44a71747b4';
const CLOSE_EXECUTION_ID = '45922556-bded-4bcc-990d-a5f9e442db77';
const TRADE_ID = '5802e657-0167-430e-a2bf-2156a4782d45';
const ROLE_ID = '0d6f3c52-8a1e-4c0b-9f7d-2b5e8c4a9d13';
const AT_MS = 1772460001000;

const order = {
  order_id: ORDER_ID,
  account_id: ACCOUNT_ID,
  instrument_id: 'ESM6',
  side: 'buy',
  type: 'market',
  quantity: 1,
  filled_quantity: 1,
  time_in_force: 'day',
  status: 'FILLED',
  average_fill_price: '5000.00',
  origin: 'client',
  created_at: AT_MS,
  updated_at: AT_MS,
};

const fill = {
  execution_id: OPEN_EXECUTION_ID,
  order_id: ORDER_ID,
  account_id: ACCOUNT_ID,
  instrument_id: 'ESM6',
  side: 'buy',
  quantity: 1,
  price: '5000.00',
  commission: '2.10',
  realized_pnl: '0.00',
  trade_id: TRADE_ID,
  occurred_at: AT_MS,
  trade_date: '2026-03-02',
};

const trade = {
  trade_id: TRADE_ID,
  account_id: ACCOUNT_ID,
  instrument_id: 'ESM6',
  direction: 'long',
  quantity: 1,
  opened_at: AT_MS,
  closed_at: AT_MS,
  realized_pnl: '1500.00',
  status: 'closed',
};

const position = {
  account_id: ACCOUNT_ID,
  instrument_id: 'ESM6',
  net_quantity: 0,
  realized_pnl: '1500.00',
  unrealized_pnl: '0.00',
  updated_at: AT_MS,
};

const balanceObject = {
  account_id: ACCOUNT_ID,
  balance: '51495.80',
  start_of_day_balance: '50000.00',
  realized_day_pnl: '1495.80',
  daily_loss_limit_trigger: '49000.00',
  realized_week_pnl: '1495.80',
};

const balance = {
  account_id: ACCOUNT_ID,
  balance: '51495.80',
  equity: '51495.80',
  currency: 'USD',
  start_of_day_balance: '50000.00',
  realized_day_pnl: '1495.80',
  daily_loss_limit_trigger: '49000.00',
  realized_week_pnl: '1495.80',
};

const adjustment = {
  adjustment_id: '9d8c32af-a487-4f69-a46d-2726e5e23ca0',
  account_id: ACCOUNT_ID,
  amount: '250.00',
  reason_code: 'promo',
  shift_floors: true,
  balance: '51745.80',
  occurred_at: AT_MS,
};

const riskState = {
  account_id: ACCOUNT_ID,
  max_drawdown_mode: 'eod_balance',
  max_drawdown_value: '2000.00',
  max_drawdown_limit: '0.00',
  max_drawdown_lock_ceiling: '50000.00',
  starting_balance: '50000.00',
  balance: '51495.80',
  equity: '51495.80',
  highest_realized_balance: '50000.00',
  max_loss_limit_trigger: '48000.00',
  daily_loss_limit_trigger: '49000.00',
  is_locked: false,
  user_risk_halt: false,
  updated_at: '2026-03-02T14:00:01.000Z',
  start_of_day_balance: '50000.00',
  realized_day_pnl: '1495.80',
  realized_week_pnl: '1495.80',
  account_status: 'active',
};

const account = {
  account_id: ACCOUNT_ID,
  user_id: USER_ID,
  plan_reference: 'eval-50k',
  status: 'active',
  price_paid: '0.00',
  created_at: 1772460000000,
};

const session = {
  access_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiLigKYifQ.c2lnbmF0dXJl',
  token_type: 'Bearer',
  expires_in: 3600,
  user: { user_id: 'fbc81f87-9b0c-4198-8f29-21fc94bd38b0', email: 'trader@acme.example', firm_slug: 'acme-prop' },
};

const page = (item: unknown) => ({ items: [item], next_cursor: 'ZmlsbHM6MQ' });
const ok = { status: 'ok' };

/** An example of each named schema (components.ts) that an answer or a request body is. */
export const COMPONENT_EXAMPLES: Readonly<Record<string, unknown>> = {
  Order: order,
  OrderPage: page(order),
  OrderStates: {
    items: [
      { status: 'SUBMITTED', reason: 'accepted', occurred_at: AT_MS },
      { status: 'FILLED', reason: 'filled 1', occurred_at: AT_MS },
    ],
  },
  OcoGroup: { oco_group_id: OCO_GROUP_ID, order_ids: [LIMIT_ORDER_ID, ORDER_ID] },
  FillPage: page(fill),
  TradePage: page(trade),
  TradeLots: {
    trade_id: TRADE_ID,
    lots: [
      {
        quantity: 1,
        open_execution_id: OPEN_EXECUTION_ID,
        open_price: '5000.00',
        opened_at: AT_MS,
        close_execution_id: CLOSE_EXECUTION_ID,
        close_price: '5030.00',
        closed_at: AT_MS,
        realized_pnl: '1500.00',
      },
    ],
  },
  PositionPage: { items: [position], next_cursor: null },
  DailyPositions: {
    items: [
      {
        trade_date: '2026-03-02',
        instrument_id: 'ESM6',
        net_quantity: 0,
        realized_pnl: '1500.00',
        unrealized_pnl: '0.00',
      },
    ],
  },
  Stats: {
    account_id: ACCOUNT_ID,
    trades: 1,
    wins: 1,
    losses: 0,
    win_rate: '1.0000',
    net_pnl: '1495.80',
    commissions: '4.20',
    best_day: '1495.80',
    worst_day: '1495.80',
    trading_days: 1,
    max_drawdown: '2.10',
  },
  Balance: balance,
  BalancePage: page(balance),
  Adjustment: adjustment,
  AdjustmentPage: { items: [adjustment], next_cursor: null },
  DailyLossTriggerResult: {
    account_id: ACCOUNT_ID,
    reason_code: 'desk',
    previous_daily_loss_limit_trigger: '49000.00',
    daily_loss_limit_trigger: '48500.00',
    start_of_day_balance: '50000.00',
    realized_day_pnl: '1495.80',
    balance: { ...balanceObject, daily_loss_limit_trigger: '48500.00' },
  },
  ReanchorResult: {
    account_id: ACCOUNT_ID,
    reason_code: 'desk',
    daily_loss_value: '1000.00',
    previous_start_of_day_balance: '50000.00',
    previous_daily_loss_limit_trigger: '49000.00',
    start_of_day_balance: '51495.80',
    daily_loss_limit_trigger: '50495.80',
    balance: {
      ...balanceObject,
      start_of_day_balance: '51495.80',
      realized_day_pnl: '0.00',
      daily_loss_limit_trigger: '50495.80',
    },
  },
  RiskState: riskState,
  RiskStateRead: { item: riskState },
  AccountPage: page(account),
  ProvisionResult: {
    user_id: USER_ID,
    account_ids: [ACCOUNT_ID],
    accounts: [
      {
        ...riskState,
        balance: '50000.00',
        equity: '50000.00',
        updated_at: '2026-03-02T14:00:00.000Z',
        realized_day_pnl: '0.00',
        realized_week_pnl: '0.00',
      },
    ],
  },
  ReplaceResult: { original_account_id: ACCOUNT_ID, account_id: 'a3a0f5c4-1f7e-4b59-8c3d-6e2f9b8d7c10' },
  FlattenResult: { account_id: ACCOUNT_ID, cancelled_orders: 1, closed_positions: 1 },
  CancelAllResult: { account_id: ACCOUNT_ID, cancelled_orders: 2 },
  Offerings: {
    offerings: [
      { product_family: 'equity_index', enabled: true },
      { product_family: 'interest_rates', enabled: true },
      { product_family: 'fx', enabled: true },
      { product_family: 'energy', enabled: false },
      { product_family: 'metals', enabled: true },
    ],
  },
  StaffRoleAssigned: { status: 'ok', role_id: ROLE_ID },
  StaffRoleRemoved: ok,
  Clock: {
    now_ms: AT_MS,
    now: '2026-03-02T08:00:01.000-06:00',
    trade_date: '2026-03-02',
    is_open: true,
    mode: 'manual',
  },

  PlaceOrderRequest: {
    account_id: ACCOUNT_ID,
    instrument_id: 'ESM6',
    side: 'buy',
    type: 'limit',
    quantity: 1,
    limit_price: '4990.00',
    time_in_force: 'gtc',
  },
  ModifyOrderRequest: { quantity: 2, limit_price: '4995.00' },
  LinkOcoRequest: { order_ids: [LIMIT_ORDER_ID, ORDER_ID] },
  OcoCompanionRequest: { oco_group_id: OCO_GROUP_ID, order_id: LIMIT_ORDER_ID },
  DailyLossTriggerRequest: { reason_code: 'desk', daily_loss_limit_trigger: '48500.00' },
  ReanchorRequest: { reason_code: 'desk' },
  AdjustRequest: { amount: '250.00', reason_code: 'promo' },
  LockoutRequest: { reason_code: 'review', flatten: true },
  MaxLossLimitRequest: { max_drawdown_limit: '49500.00' },
  OfferingRequest: { product_family: 'energy', enabled: false },
  AssignStaffRoleRequest: { user_id: USER_ID, role_name: 'risk_manager' },
  RemoveStaffRoleRequest: { user_id: USER_ID, role_id: ROLE_ID },
  ProvisionAccountsRequest: {
    user: { email: 'newcomer@example.com', first_name: 'Nia' },
    plan_reference: 'eval-50k',
  },
  ClockAdvanceRequest: { to_next: 'session_roll' },
  MarketPrintsRequest: { prints: [{ instrument_id: 'ESM6', price: '5000.00' }] },
  FaultWindowRequest: { target: 'trading', status: 503, duration_ms: 1000, path_prefix: '/v1/orders' },
};

/** Examples of the operations whose body or answer is not a named schema, by operationId and status. */
export const OPERATION_EXAMPLES: Readonly<Record<string, { request?: unknown; answers?: Record<string, unknown> }>> = {
  getHealth: { answers: { '200': { status: 'ok', now_ms: AT_MS } } },
  login: {
    request: { email: 'trader@acme.example', password: 'propsim-sandbox' },
    answers: { '200': session },
  },
  refreshSession: { answers: { '200': session } },
  logout: { answers: { '200': ok } },
  createFirmStreamTicket: { answers: { '201': { ticket: 'wst_5c3f0e9a2d7b4e18a6c1f0b9', expires_in: 60 } } },
  postMarketPrints: { answers: { '200': { accepted: 1 } } },
  listAccountHistories: {
    answers: {
      '200': {
        sequence: 9,
        now_ms: 1772492400000,
        items: [
          {
            account_id: ACCOUNT_ID,
            user_id: USER_ID,
            trader_email: 'newcomer@example.com',
            trader_first_name: 'Nia',
            plan_reference: 'eval-50k',
            account_status: 'active',
            is_locked: false,
            points: [
              {
                at: 1772460000000,
                equity: '50000.00',
                max_loss_limit_trigger: '48000.00',
                daily_loss_limit_trigger: '49000.00',
              },
              {
                at: AT_MS,
                equity: '51495.80',
                max_loss_limit_trigger: '48000.00',
                daily_loss_limit_trigger: '49000.00',
              },
              {
                at: 1772492400000,
                equity: '51495.80',
                max_loss_limit_trigger: '49495.80',
                daily_loss_limit_trigger: '50495.80',
              },
            ],
            fill_count: 2,
            fills: [AT_MS, AT_MS],
            locks: [],
          },
        ],
        next_cursor: null,
      },
    },
  },
  openFaultWindow: { answers: { '201': { fault_id: '4ec15b2e-5dfa-465a-807d-d66ba9557a29' } } },
  clearFaultWindows: { answers: { '200': ok } },
  exportSession: {
    answers: {
      '200':
        '# Exported by propsim serve: every input of the sandbox session, in order, at its time.\n' +
        'name: sandbox session\n' +
        'start: 2026-03-02T08:00:00.000-06:00\n' +
        'seed: 1\n' +
        'expect_events_sha256: b23249a1493d5bce1c4b5f0a3ff4e878c6e46a802bd79f2911f03741377b759c\n' +
        'steps:\n' +
        '  - input: {"time_ms":1772460000000,"type":"register_firm","data":{"slug":"acme-prop", …}}\n',
    },
  },
};

/** The error envelope of each status, as docs/api.md#errors lists its codes. */
export const ERROR_EXAMPLES: Readonly<Record<string, { error: string; code: string; details?: unknown[] }>> = {
  '400': {
    error: 'quantity: expected an integer from 1 to 1000000, got "1"',
    code: 'invalid_request',
    details: [{ field: 'quantity', message: 'expected an integer from 1 to 1000000, got "1"' }],
  },
  '401': { error: 'send a key in X-Service-Api-Key, or a session token', code: 'missing_credentials' },
  '403': { error: 'this route needs the scope trading:write, which the key does not have', code: 'missing_scope' },
  '404': { error: `account ${ACCOUNT_ID} not found`, code: 'account_not_found' },
  '409': { error: `order ${ORDER_ID} is FILLED and cannot be cancelled`, code: 'order_final' },
  '413': { error: 'the body is larger than 1 MiB', code: 'body_too_large' },
  '415': { error: 'send the body as application/json', code: 'unsupported_media_type' },
  '421': { error: 'the request reached the wrong shard (sandbox fault window)', code: 'wrong_shard' },
  '429': { error: 'too many requests; retry after 1 s', code: 'rate_limited' },
  '500': { error: 'internal error: the sandbox logged it with this request id', code: 'internal' },
  '502': { error: 'the upstream service did not answer (sandbox fault window)', code: 'bad_gateway' },
  '503': {
    error: `the risk engine is still loading account ${ACCOUNT_ID}; retry shortly`,
    code: 'risk_loading',
  },
};

export const EXAMPLE_REQUEST_ID = 'adc42724-9a3b-4f1e-8c55-2f0d6b7e1a90';
