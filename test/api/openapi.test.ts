// docs/api.md#the-openapi-document: /openapi.json is a valid OpenAPI 3.1 document, generated from the schemas that
// validate the requests; it lists every route the sandbox simulates with the answers each declares, and says what a
// client generator needs: operationIds, named schemas, servers, the headers of each answer, X-Firm-ID, the session
// export as YAML and 500 everywhere.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonical } from '../../src/api/openapi/lift-components.js';
import { startTestApi, type TestApi } from './api-harness.js';
import { startListeningSandbox } from './listening-sandbox.js';

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, Json>;
  security?: unknown[];
}

describe('docs/api.md#the-openapi-document: the OpenAPI document', () => {
  let api: TestApi;
  let doc: {
    openapi: string;
    servers: { url: string }[];
    paths: Record<string, Record<string, Operation>>;
    components: Record<string, Record<string, Json>>;
  };
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
    );
  /** A `$ref` to the document's components, followed. */
  const deref = (value: Json): Json => {
    const ref = value.$ref as string | undefined;
    if (!ref) return value;
    const [, , kind, name] = ref.split('/');
    return deref(doc.components[kind!]![name!]!);
  };
  const headersOf = (response: Json) => Object.keys((deref(response).headers ?? {}) as Json);

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
        'GET /v1/firm-control/account-histories',
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
    expect(Object.keys(doc.components.securitySchemes ?? {}).sort()).toEqual(['bearer', 'firmKey', 'session']);
  });

  it('lists on each operation the credentials its route accepts, one of which a request sends', () => {
    const securityOf = (method: string, path: string) => doc.paths[path]![method]!.security;
    expect((doc as Json).security, 'no document-wide security: each operation says its own').toBeUndefined();
    expect(securityOf('get', '/health')).toEqual([]);
    expect(securityOf('post', '/v1/auth/login')).toEqual([]);
    expect(securityOf('post', '/v1/orders')).toEqual([{ firmKey: [] }, { bearer: [] }, { session: [] }]);
    expect(securityOf('post', '/v1/auth/refresh')).toEqual([{ bearer: [] }, { session: [] }]);
    expect(securityOf('post', '/v1/firm-control/accounts')).toEqual([{ firmKey: [] }, { bearer: [] }]);
    expect(securityOf('post', '/v1/sandbox/reset')).toEqual([{ firmKey: [] }, { bearer: [] }]);
    for (const { route, operation } of operations()) expect(operation.security, route).toBeDefined();
  });

  it('gives every operation a unique camelCase operationId, the production names where the interface has them', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
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

  it('defines the public shapes once under components/schemas, and refers to them everywhere else', () => {
    const named = doc.components.schemas!;
    for (const name of [
      'ErrorEnvelope',
      'Order',
      'OrderPage',
      'Fill',
      'Trade',
      'Position',
      'Balance',
      'RiskState',
      'Account',
    ])
      expect(named[name], name).toBeDefined();
    expect(named.Clock, 'the sandbox clock').toMatchObject({ required: expect.arrayContaining(['now_ms', 'mode']) });
    // No schema under paths is written out like a named one: each is a $ref.
    const shapes = new Map(Object.entries(named).map(([name, schema]) => [canonical(schema), name]));
    const written: string[] = [];
    const search = (value: unknown, at: string): void => {
      if (typeof value !== 'object' || value === null) return;
      const name = Array.isArray(value) ? undefined : shapes.get(canonical(value));
      if (name) written.push(`${at} is ${name}`);
      else for (const [key, inner] of Object.entries(value)) search(inner, `${at}/${key}`);
    };
    search(doc.paths, '#/paths');
    expect(written).toEqual([]);
    expect(JSON.stringify(doc).match(/"request_id":\{/g), 'the envelope is written once').toHaveLength(1);
  });

  it('names the server: relative before the app listens, the listening address once it does', async () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const listening = await startListeningSandbox();
    try {
      const served = (await listening.http('GET', '/openapi.json', {})).body as { servers: unknown };
      expect(served.servers).toEqual([{ url: `http://${listening.address}`, description: expect.any(String) }]);
    } finally {
      await listening.app.close();
      await listening.sandbox.close();
    }
  });

  it('declares X-Request-Id on every answer, Retry-After on 429 and 503, and 500 internal on every operation', () => {
    for (const { route, operation } of operations()) {
      expect(operation.responses['500'], route).toEqual({ $ref: '#/components/responses/InternalError' });
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers = headersOf(response);
        expect(headers, `${route} ${status}`).toContain('X-Request-Id');
        if (status === '429' || status === '503') expect(headers, `${route} ${status}`).toContain('Retry-After');
      }
    }
    expect(doc.components.headers!['X-Request-Id']).toMatchObject({ required: true });
  });

  it("declares each route's own headers on the answers that carry them", () => {
    const responses = (method: string, path: string) => doc.paths[path]![method]!.responses;
    const placed = responses('post', '/v1/orders');
    for (const status of ['202', '400', '404', '409'])
      expect(headersOf(placed[status]!)).toContain('Idempotent-Replayed');
    for (const path of ['/v1/auth/login', '/v1/auth/refresh', '/v1/auth/logout'])
      expect(headersOf(responses('post', path)['200']!), path).toContain('Set-Cookie');
    const exported = responses('get', '/v1/sandbox/session.yaml')['200']!;
    expect(headersOf(exported)).toEqual(['X-Request-Id', 'Content-Disposition', 'X-Events-Sha256']);
    expect(Object.keys(exported.content as Json), 'the export is YAML, not JSON').toEqual(['application/yaml']);
  });

  it('declares X-Firm-ID on the routes an admin key names a firm on, and Idempotency-Key on POST /v1/orders', () => {
    const headerParameters = (operation: Operation) =>
      (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    const withFirm = operations()
      .filter(({ operation }) => headerParameters(operation).includes('x-firm-id'))
      .map(({ route }) => route);
    expect(withFirm).toEqual(
      expect.arrayContaining([
        'GET /v1/orders',
        'POST /v1/orders',
        'GET /v1/balances',
        'POST /v1/firm-control/accounts',
        'GET /v1/firm-control/accounts/{account_id}/risk-state',
        'POST /v1/accounts/{account_id}/lockout',
        'GET /v1/admin/query/orders',
        'POST /v1/firm-ws/tickets',
      ]),
    );
    const without = operations().filter(({ route }) => /\/(health|auth|sandbox)\b/.test(route));
    for (const { route, operation } of without) expect(headerParameters(operation), route).not.toContain('x-firm-id');
    expect(withFirm.length + without.length, 'every operation is one or the other').toBe(operations().length);
    const placement = doc.paths['/v1/orders']!.post!.parameters!;
    expect(placement.find((p) => p.name === 'idempotency-key')).toMatchObject({ in: 'header', required: false });
    expect(placement.find((p) => p.name === 'x-firm-id')).toMatchObject({ in: 'header', required: false });
  });
});
