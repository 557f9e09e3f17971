// docs/api.md#start-up: /openapi.json is a valid OpenAPI 3.1 document, generated from the schemas that validate the
// requests, and it lists every route the sandbox simulates with the answers each declares.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './api-harness.js';

describe('docs/api.md#start-up: the OpenAPI document', () => {
  let api: TestApi;
  let doc: {
    openapi: string;
    paths: Record<
      string,
      Record<string, { operationId?: string; responses: Record<string, unknown>; security?: unknown[] }>
    >;
    components?: { securitySchemes?: Record<string, unknown> };
  };

  beforeAll(async () => {
    api = await startTestApi();
    const response = await api.call({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    doc = JSON.parse(response.body);
  });
  afterAll(() => api.close());

  it('validates as OpenAPI 3.1 with a schema validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('refuses a broken document, so the check above can fail', async () => {
    const broken = structuredClone(doc) as unknown as Record<string, unknown>;
    (broken.paths as Record<string, unknown>)['/v1/orders'] = { post: { responses: 'none' } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('lists every route of the interface the sandbox simulates', () => {
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        'GET /health',
        'POST /v1/auth/login',
        'POST /v1/auth/refresh',
        'POST /v1/auth/logout',
        'POST /v1/firm-ws/tickets',
        'POST /v1/orders',
        'GET /v1/orders',
        'GET /v1/orders/{order_id}',
        'PATCH /v1/orders/{order_id}',
        'DELETE /v1/orders/{order_id}',
        'GET /v1/orders/{order_id}/states',
        'POST /v1/orders/groups/oco/link',
        'POST /v1/orders/groups/oco/companion',
        'GET /v1/fills',
        'GET /v1/trades',
        'GET /v1/trades/{trade_id}/lots',
        'GET /v1/positions',
        'GET /v1/accounts/{account_id}/positions',
        'GET /v1/accounts/{account_id}/positions/daily',
        'GET /v1/stats',
        'GET /v1/balances',
        'GET /v1/balances/{account_id}',
        'GET /v1/balances/{account_id}/adjustments',
        'POST /v1/balances/{account_id}/daily-loss/trigger',
        'POST /v1/balances/{account_id}/daily-loss/reanchor',
        'POST /v1/balances/{account_id}/adjust',
        'POST /v1/firm-control/accounts',
        'GET /v1/firm-control/accounts',
        'GET /v1/firm-control/accounts/{account_id}/risk-state',
        'PATCH /v1/firm-control/accounts/{account_id}/max-loss-limit',
        'POST /v1/firm-control/accounts/{account_id}/replace',
        'GET /v1/firm-control/offerings',
        'PUT /v1/firm-control/offerings',
        'POST /v1/firm-control/staff/roles/assign',
        'POST /v1/firm-control/staff/roles/remove',
        'POST /v1/accounts/{account_id}/lockout',
        'DELETE /v1/accounts/{account_id}/lockout',
        'POST /v1/accounts/{account_id}/flatten',
        'POST /v1/accounts/{account_id}/orders/cancel',
        'GET /v1/admin/query/accounts',
        'GET /v1/admin/query/orders',
        'GET /v1/admin/query/fills',
        'GET /v1/admin/query/balances',
        'GET /v1/sandbox/clock',
        'POST /v1/sandbox/clock/advance',
        'POST /v1/sandbox/market/prints',
        'POST /v1/sandbox/faults',
        'DELETE /v1/sandbox/faults',
        'POST /v1/sandbox/reset',
        'GET /v1/sandbox/session.yaml',
      ].sort(),
    );
  });

  it('declares the error answers of the gateway on every authenticated route', () => {
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        if (path === '/health' || path === '/v1/auth/login') continue;
        expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '403', '429']));
      }
  });

  it('names the kinds of credentials (key header, bearer, session cookie) as security schemes', () => {
    expect(Object.keys(doc.components?.securitySchemes ?? {}).sort()).toEqual(['bearer', 'firmKey', 'session']);
  });

  it('gives every operation a unique camelCase operationId, the production names where the interface has them', () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(
      ids.filter((id) => !/^[a-z][A-Za-z0-9]*$/.test(String(id))),
      'missing or not camelCase',
    ).toEqual([]);
    expect(new Set(ids).size, 'each operationId once').toBe(ids.length);
    const idOf = (method: string, path: string) => doc.paths[path]![method]!.operationId;
    expect(idOf('post', '/v1/balances/{account_id}/daily-loss/trigger')).toBe('setDailyLossTrigger');
    expect(idOf('post', '/v1/balances/{account_id}/daily-loss/reanchor')).toBe('reanchorDailyLoss');
    expect(idOf('get', '/v1/firm-control/accounts/{account_id}/risk-state')).toBe('getFirmAccountRiskState');
    expect(idOf('post', '/v1/firm-control/staff/roles/assign')).toBe('assignStaffRole');
    expect(idOf('post', '/v1/firm-control/staff/roles/remove')).toBe('removeStaffRole');
  });
});
