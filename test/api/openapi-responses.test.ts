// docs/api.md#the-openapi-document: every answer the tests receive is checked against the served document
// (openapi-responses.ts). The check can fail: a body that drifts from its schema, a status the operation does not
// declare, a missing or undeclared header, another content type, or an error outside the envelope is named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, key, startTestApi, type TestApi } from './api-harness.js';
import { responseChecker, type Answer, type ResponseChecker } from './openapi-responses.js';

describe('docs/api.md#the-openapi-document: answers checked against the served document', () => {
  let api: TestApi;
  let checker: ResponseChecker;
  let order: Answer;

  beforeAll(async () => {
    api = await startTestApi();
    checker = responseChecker(api.json(await api.call({ method: 'GET', url: '/openapi.json' })));
    const accounts = api.json(
      await api.call({ method: 'GET', url: '/v1/firm-control/accounts', headers: key(KEYS.acmeOperator) }),
    );
    const placed = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: key(KEYS.acmeOperator),
      payload: {
        account_id: accounts.items[0].account_id,
        instrument_id: 'ESM6',
        side: 'buy',
        type: 'market',
        quantity: 1,
        time_in_force: 'day',
      },
    });
    expect(placed.statusCode).toBe(202);
    order = { method: 'POST', path: '/v1/orders', status: 202, headers: placed.headers, body: placed.body };
  });
  afterAll(() => api.close());

  const drifted = (change: (order: Record<string, unknown>) => void): Answer => {
    const body = JSON.parse(order.body) as Record<string, unknown>;
    change(body);
    return { ...order, body: JSON.stringify(body) };
  };

  it('passes an answer as the sandbox gave it, and counts it', () => {
    const before = checker.checked;
    expect(checker.problems(order)).toEqual([]);
    expect(checker.checked).toBe(before + 1);
  });

  it('names a body that drifted from its schema: a missing field, a wrong type, an unknown field', () => {
    expect(checker.problems(drifted((o) => delete o.status)).join('\n')).toContain(
      "must have required property 'status'",
    );
    expect(checker.problems(drifted((o) => (o.quantity = '1'))).join('\n')).toContain('body/quantity must be integer');
    expect(checker.problems(drifted((o) => (o.extra = true))).join('\n')).toContain(
      'must NOT have additional properties',
    );
  });

  it('names a status the operation does not declare', () => {
    expect(checker.problems({ ...order, status: 418 })).toEqual([
      'POST /v1/orders 418: the document declares no answer with this status',
    ]);
  });

  it('names a missing X-Request-Id, a header the document does not declare, and another content type', () => {
    const headers = { ...(order.headers as Record<string, string>) };
    delete headers['x-request-id'];
    expect(checker.problems({ ...order, headers })).toEqual([
      'POST /v1/orders 202: header X-Request-Id is required and missing',
    ]);
    expect(checker.problems({ ...order, headers: { ...order.headers, 'x-ratelimit-limit': '100' } })).toEqual([
      'POST /v1/orders 202: header x-ratelimit-limit is sent but not declared',
    ]);
    expect(checker.problems({ ...order, headers: { ...order.headers, 'content-type': 'text/plain' } })).toEqual([
      'POST /v1/orders 202: content type text/plain is not one of application/json',
    ]);
  });

  it('matches a concrete path to its template, and holds an error outside the document to the envelope', () => {
    const orderId = JSON.parse(order.body).order_id as string;
    const read = { ...order, method: 'GET', path: `/v1/orders/${orderId}?x=1`, status: 200 };
    expect(checker.problems(read)).toEqual([]);
    expect(checker.problems({ ...read, status: 201 })).toEqual([
      'GET /v1/orders/{order_id} 201: the document declares no answer with this status',
    ]);
    const unknown = { ...order, method: 'GET', path: '/v1/nowhere', status: 404, body: '{"error":"no route"}' };
    expect(checker.problems(unknown).join('\n')).toContain("must have required property 'code'");
  });
});
