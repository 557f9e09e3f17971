// docs/api.md#the-auth-matrix as one table: every route of the app × every kind of caller → the status (and code)
// the matrix promises. The table is auth-matrix-rows.ts, its parts run in the auth-matrix-*.test.ts files; a route
// added to the app without a row there fails the "every route has a row" test here.
import { describe, expect, it } from 'vitest';
import { ROWS } from './auth-matrix-rows.js';
import { matrixApp } from './auth-matrix-world.js';

describe('docs/api.md#the-auth-matrix: every route × every kind of caller', () => {
  const matrix = matrixApp();

  it('every route the app serves has a row, and every row is a route', async () => {
    const doc = JSON.parse((await matrix.api().call({ method: 'GET', url: '/openapi.json' })).body);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const rows = new Set(ROWS.map((r) => `${r.method} ${r.route}`));
    expect(documented.filter((route) => !rows.has(route))).toEqual([]);
    // Not in the OpenAPI document: the unsimulated routes, the document itself, its page, and the WebSocket streams.
    const undocumented = new Set(['/openapi.json', '/docs/', '/v1/ws', '/v1/firm-ws']);
    expect(documented.length).toBe(ROWS.filter((r) => r.group !== 'unsimulated' && !undocumented.has(r.route)).length);
  });
});
