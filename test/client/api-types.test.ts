// docs/api.md#the-client: src/client/api-types.ts is what openapi-typescript makes of the routes' /openapi.json now
// (`npm run client:types` rewrites it after a route changes).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiTypesSource } from '../../scripts/client/api-types-source.js';

describe('the typed client', () => {
  it('has the types of the routes as they are declared now (else run npm run client:types)', async () => {
    const committed = readFileSync(new URL('../../src/client/api-types.ts', import.meta.url), 'utf8');
    expect(committed === (await apiTypesSource()), 'src/client/api-types.ts is stale: run npm run client:types').toBe(
      true,
    );
  }, 30_000);
});
