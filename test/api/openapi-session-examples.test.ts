// docs/api.md#the-openapi-document: the document's examples are what a real session sends and receives now
// (src/api/openapi/session-examples.json, written by `npm run openapi:examples`), and each operation's example shows
// its own outcome: a limit order resting, a modify answered before it lands, a cancel CANCELLED, a lockout locked.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SESSION_EXAMPLES } from '../../src/api/openapi/examples.js';
import { sessionExamplesSource } from '../../scripts/openapi/session-examples-source.js';
import { startTestApi } from './api-harness.js';

type Json = Record<string, unknown>;
const answer = (operationId: string, status: string) =>
  SESSION_EXAMPLES.operations[operationId]!.answers[status] as Json;
const request = (operationId: string) => SESSION_EXAMPLES.operations[operationId]!.request as Json;

describe('docs/api.md#the-openapi-document: examples from a real session', () => {
  it('are what the session answers now (else run npm run openapi:examples, then npm run client:types)', async () => {
    const committed = readFileSync(new URL('../../src/api/openapi/session-examples.json', import.meta.url), 'utf8');
    const fresh = await sessionExamplesSource();
    expect(committed === fresh, 'src/api/openapi/session-examples.json is stale: run npm run openapi:examples').toBe(
      true,
    );
  }, 30_000);

  it('show each order operation its own outcome', () => {
    const placed = answer('placeOrder', '202');
    expect(placed).toMatchObject({ type: 'limit', status: 'SUBMITTED', filled_quantity: 0, limit_price: '4990.00' });
    expect(request('placeOrder')).toMatchObject({ type: 'limit', limit_price: '4990.00' });
    expect(answer('getOrder', '200')).toMatchObject({ order_id: placed.order_id, type: 'limit', status: 'SUBMITTED' });
    // The modify's answer is the order before the change lands: the old limit_price, not the one asked for.
    expect(request('modifyOrder')).toEqual({ limit_price: '4995.00' });
    expect(answer('modifyOrder', '202')).toMatchObject({ limit_price: '4990.00', status: 'SUBMITTED' });
    expect(answer('cancelOrder', '202')).toMatchObject({ status: 'SUBMITTED' }); // the cancel on its way
    expect(answer('cancelOrder', '200')).toMatchObject({ status: 'CANCELLED', limit_price: '4995.00' });
    const states = (answer('getOrderStates', '200').items as Json[]).map((record) => record.status);
    expect(states).toEqual(['SUBMITTED', 'SUBMITTED', 'CANCELLED']);
  });

  it('show a lockout locked and an unlock unlocked', () => {
    expect(answer('lockAccount', '200')).toMatchObject({ is_locked: true, lockout_reason: 'firm_lockout' });
    expect(answer('unlockAccount', '200')).toMatchObject({ is_locked: false });
    expect(answer('unlockAccount', '200').lockout_reason).toBeUndefined();
  });

  it('show an error envelope of each error status the session can make, with its code', () => {
    const codes = Object.fromEntries(
      Object.entries(SESSION_EXAMPLES.errors).map(([status, envelope]) => [status, (envelope as Json).code]),
    );
    expect(codes).toEqual({
      '400': 'invalid_request',
      '401': 'missing_credentials',
      '403': 'missing_scope',
      '404': 'account_not_found',
      '409': 'order_final',
      '413': 'body_too_large',
      '415': 'unsupported_media_type',
      '421': 'wrong_shard',
      '429': 'rate_limited',
      '502': 'bad_gateway',
      '503': 'risk_loading',
    });
  });

  it('are the examples the served document shows', async () => {
    const api = await startTestApi();
    try {
      const paths = api.json(await api.call({ method: 'GET', url: '/openapi.json' })).paths;
      const shown = (path: string, method: string, status: string) =>
        paths[path][method].responses[status].content['application/json'].example;
      expect(shown('/v1/orders', 'post', '202')).toEqual(answer('placeOrder', '202'));
      expect(shown('/v1/orders/{order_id}', 'patch', '202')).toMatchObject({ limit_price: '4990.00' });
      expect(shown('/v1/orders/{order_id}', 'delete', '200')).toMatchObject({ status: 'CANCELLED' });
      expect(shown('/v1/accounts/{account_id}/lockout', 'post', '200')).toMatchObject({ is_locked: true });
      expect(paths['/v1/orders/{order_id}'].patch.requestBody.content['application/json'].example).toEqual({
        limit_price: '4995.00',
      });
    } finally {
      await api.close();
    }
  });
});
