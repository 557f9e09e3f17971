// docs/api.md#the-client: propsim/client from a user's own TypeScript project (strict, NodeNext, its own tsconfig),
// with the package linked into its node_modules as npm would install it: a correct call type-checks and runs, a
// route or field the API does not have is a compile error.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'propsim-user-project-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules', 'propsim'), 'dir');
  writeFileSync(join(project, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        outDir: 'out',
        skipLibCheck: true,
        types: [],
      },
      include: ['main.ts'],
    }),
  );
});

const compile = (source: string) => {
  writeFileSync(join(project, 'main.ts'), source);
  return spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
};

describe('propsim/client in a user project', () => {
  it('type-checks a typed call and runs it (no server: the network failure after the retries)', () => {
    const result = compile(`import { createPropsimClient, type components } from 'propsim/client';
const api = createPropsimClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_key', retry: { maxAttempts: 2, sleep: async () => {} } });
try {
  const { data } = await api.GET('/v1/orders/{order_id}', { params: { path: { order_id: 'o-1' } } });
  const status: components['schemas']['OrderStatus'] | undefined = data?.status;
  console.log(status);
} catch (error) {
  console.log('failed:', (error as Error).message);
}
`);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(execFileSync(process.execPath, [join(project, 'out', 'main.js')], { encoding: 'utf8' })).toBe(
      'failed: fetch failed\n',
    );
  });

  it('refuses a path the API does not have and a wrong field type, at compile time', () => {
    const result = compile(`import { createPropsimClient } from 'propsim/client';
const api = createPropsimClient({ baseUrl: 'http://127.0.0.1:9' });
await api.GET('/v1/no-such-route');
await api.POST('/v1/orders', { body: { account_id: 'a', instrument_id: 'ESM6', side: 'buy', type: 'market', quantity: 'one' } });
`);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toMatch(/main\.ts\(3,\d+\): error TS/); // the unknown route
    expect(result.stdout).toMatch(/main\.ts\(4,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
  });
});
