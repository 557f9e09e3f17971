// What the rogue client sends (docs/api.md#the-simulation): garbage bodies on write routes, and requests with
// missing, unknown or doubled credentials on guarded routes. Every one must be refused with a 4xx envelope and
// change nothing (docs/api.md#gateway).

/** A route as a method and a path whose {account} and {order} the run fills with ids (of another firm, for a rogue). */
export interface RouteTemplate {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
}

export const GARBAGE_ROUTES: readonly RouteTemplate[] = [
  { method: 'POST', path: '/v1/orders' },
  { method: 'PATCH', path: '/v1/orders/{order}' },
  { method: 'POST', path: '/v1/orders/groups/oco/link' },
  { method: 'POST', path: '/v1/orders/groups/oco/companion' },
  { method: 'POST', path: '/v1/firm-control/accounts' },
  { method: 'PATCH', path: '/v1/firm-control/accounts/{account}/max-loss-limit' },
  { method: 'PUT', path: '/v1/firm-control/offerings' },
  { method: 'POST', path: '/v1/firm-control/staff/roles/assign' },
  { method: 'POST', path: '/v1/balances/{account}/daily-loss/trigger' },
  { method: 'POST', path: '/v1/balances/{account}/adjust' },
  { method: 'POST', path: '/v1/accounts/{account}/lockout' },
  { method: 'POST', path: '/v1/auth/login' },
  { method: 'POST', path: '/v1/sandbox/clock/advance' },
  { method: 'POST', path: '/v1/sandbox/market/prints' },
  { method: 'POST', path: '/v1/sandbox/faults' },
];

export const GARBAGE_BODIES: readonly string[] = [
  '',
  '{',
  'null',
  '[]',
  '"x"',
  '1e999',
  '{"quantity":1}{',
  '{"__proto__":{"admin":true}}',
  '{"account_id":"not-a-uuid","instrument_id":"ESM6","side":"buy","type":"market","quantity":1}',
  '{"account_id":"00000000-0000-4000-8000-000000000000","instrument_id":"ESM6","side":"buy","type":"market","quantity":"1"}',
  '{"amount":"12.345"}',
  '{"amount":1}',
  '{"prints":[]}',
  '{"prints":[{"instrument_id":"ESM6","price":"5000.13"}]}',
  '{"by":"-1s"}',
  '{"to":"yesterday"}',
  '{"target":"gateway","status":500,"duration_ms":1000}',
  '{"user":{"email":"x"},"plan_reference":""}',
  '{"email":"trader@acme.example","password":""}',
  '{"max_drawdown_limit":"abc"}',
  '{"product_family":"crypto","enabled":true}',
  '{"order_ids":["00000000-0000-4000-8000-000000000000"]}',
  '{"reason_code":"' + 'x'.repeat(40) + '"}',
];

/** Routes that need credentials, for requests that come with missing, unknown or doubled ones. */
export const GUARDED_ROUTES: readonly RouteTemplate[] = [
  { method: 'GET', path: '/v1/orders' },
  { method: 'GET', path: '/v1/orders/{order}' },
  { method: 'GET', path: '/v1/balances/{account}' },
  { method: 'GET', path: '/v1/firm-control/accounts/{account}/risk-state' },
  { method: 'POST', path: '/v1/accounts/{account}/flatten' },
  { method: 'DELETE', path: '/v1/orders/{order}' },
  { method: 'GET', path: '/v1/sandbox/clock' },
  { method: 'POST', path: '/v1/auth/refresh' },
];
