// What the rogue client sends (docs/api.md#the-simulation): garbage bodies on write routes, and requests with
// missing, unknown or doubled credentials on guarded routes. Every one must be refused with a 4xx envelope and
// change nothing (docs/api.md#gateway). Some garbage is hostile (docs/api.md#what-an-error-echoes): bodies nested
// thousands deep, a string or key of 900 KB, bytes that are not UTF-8, a gzip body. A plan names those by a
// `@name` that the request expands, so a failure file stays small.
import { gzipSync } from 'node:zlib';

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
  '@deep-arrays',
  '@deep-objects',
  '@deep-field',
  '@long-string',
  '@long-key',
  '@unknown-fields',
  '@not-utf8',
  '@binary',
  '@gzip',
];

/** A garbage body as it goes on the wire, with the headers it needs: a `@name` expanded, any other text as it is. */
export function garbagePayload(body: string): { payload: string | Buffer; headers: Record<string, string> } {
  const nested = (open: string, inner: string, close: string, depth: number) =>
    open.repeat(depth) + inner + close.repeat(depth);
  switch (body) {
    case '@deep-arrays':
      return { payload: nested('[', '', ']', 5000), headers: {} };
    case '@deep-objects':
      return { payload: nested('{"a":', '1', '}', 5000), headers: {} };
    case '@deep-field':
      return { payload: `{"account_id":${nested('[', '1', ']', 100_000)}}`, headers: {} };
    case '@long-string':
      return { payload: JSON.stringify({ account_id: 'x'.repeat(900_000), amount: 'y'.repeat(50_000) }), headers: {} };
    case '@long-key':
      return { payload: JSON.stringify({ ['k'.repeat(900_000)]: 1 }), headers: {} };
    case '@unknown-fields':
      return {
        payload: JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]))),
        headers: {},
      };
    case '@not-utf8':
      return {
        payload: Buffer.concat([
          Buffer.from('{"account_id":"'),
          Buffer.from([0xff, 0xfe, 0x80, 0x07]),
          Buffer.from('"}'),
        ]),
        headers: {},
      };
    case '@binary':
      return { payload: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00, 0x1b, 0x5b, 0x7b]), headers: {} };
    case '@gzip':
      return { payload: gzipSync('{"quantity":1}'), headers: { 'content-encoding': 'gzip' } };
    default:
      return { payload: body, headers: {} };
  }
}

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
