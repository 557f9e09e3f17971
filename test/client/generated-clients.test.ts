// docs/api.md#client-generators: the set-up the docs give for @hey-api/openapi-ts, orval 7 and
// openapi-typescript-codegen holds. A sandbox listens on loopback; its served /openapi.json goes through each generator
// (their own programmatic entry points, as devDependencies), the sessions in test/client/generators/ are type-checked
// against the generated clients with tsc (strict), then each runs the same short session through its client: provision
// a trader, place a limit order, modify it, cancel it, a 404, the trader's own orders by its token, the YAML export.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient as heyApi } from '@hey-api/openapi-ts';
import { generate as openapiTypescriptCodegen } from 'openapi-typescript-codegen';
import { generate as orval } from 'orval';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, PASSWORD } from '../api/api-harness.js';
import { startListeningSandbox, type ListeningSandbox } from '../api/listening-sandbox.js';
import type { SessionSetup, SessionSummary } from './generators/session-summary.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SESSIONS = join(ROOT, 'test', 'client', 'generators');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

let listening: ListeningSandbox;
let out: string;
const timings: Record<string, number> = {};

async function timed(name: string, step: () => unknown): Promise<void> {
  const started = performance.now();
  await step();
  timings[name] = Math.round(performance.now() - started);
}

/** Each generator as docs/api.md#client-generators configures it, into its folder of `out`. */
async function generateClients(document: string): Promise<void> {
  await timed('hey-api', () => heyApi({ input: document, output: join(out, 'hey-api'), logs: { level: 'silent' } }));
  await timed('orval', () =>
    orval(
      {
        input: { target: document },
        output: {
          target: join(out, 'orval', 'propsim.ts'),
          client: 'fetch',
          override: { mutator: { path: join(out, 'propsim-fetch.ts'), name: 'propsimFetch' } },
        },
      },
      out,
    ),
  );
  await timed('openapi-typescript-codegen', () =>
    openapiTypescriptCodegen({
      input: document,
      output: join(out, 'codegen'),
      httpClient: 'fetch',
      useOptions: true,
      useUnionTypes: true,
    }),
  );
}

/** tsc, strict, over the sessions and the clients they import. */
function typeCheck(): { status: number | null; output: string } {
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      include: ['*.ts'],
    }),
  );
  const run = spawnSync(process.execPath, [TSC, '-p', out], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

beforeAll(async () => {
  listening = await startListeningSandbox();
  out = mkdtempSync(join(tmpdir(), 'propsim-generated-'));
  const document = join(out, 'openapi.json');
  writeFileSync(document, JSON.stringify((await listening.http('GET', '/openapi.json', {})).body));
  for (const file of readdirSync(SESSIONS)) copyFileSync(join(SESSIONS, file), join(out, file));
  await generateClients(document);
}, 120_000);

afterAll(async () => {
  await listening.app.close();
  await listening.sandbox.close();
  rmSync(out, { recursive: true, force: true });
  console.log(`generated clients in ms: ${JSON.stringify(timings)}`);
});

const setup = (email: string): SessionSetup => ({
  baseUrl: `http://${listening.address}`,
  operatorKey: KEYS.acmeOperator,
  adminKey: KEYS.admin,
  email,
  password: PASSWORD,
});

/** What every session sees: the sandbox's answers, whichever client asked. */
const EXPECTED: SessionSummary = {
  placed: { status: 'SUBMITTED', type: 'limit', limit_price: '4990.00' },
  modifyAnswer: '4990.00',
  modifiedPrice: '4995.00',
  cancelAnswer: 'SUBMITTED',
  cancelled: 'CANCELLED',
  notFound: 'order_not_found',
  traderOrders: 1,
  exportFirstLine:
    '# Exported by propsim serve: every input of the sandbox session, in order, at its time (docs/scenarios.md#input-steps).',
};

async function session(file: string): Promise<{ run(setup: SessionSetup): Promise<SessionSummary> }> {
  return (await import(pathToFileURL(join(out, file)).href)) as { run(setup: SessionSetup): Promise<SessionSummary> };
}

describe('docs/api.md#client-generators: clients generated from the served document', () => {
  it('type-check with the sessions that use them, and refuse what the API refuses (strict tsc)', async () => {
    const { status, output } = await (async () => {
      const started = performance.now();
      const result = typeCheck();
      timings.tsc = Math.round(performance.now() - started);
      return result;
    })();
    expect(output).toBe('');
    expect(status).toBe(0);
  }, 60_000);

  it('@hey-api/openapi-ts: the auth callback answers for one scheme; a short session', async () => {
    expect(await (await session('hey-api.ts')).run(setup('hey-api@example.com'))).toEqual(EXPECTED);
  });

  it('@hey-api/openapi-ts with auth: key fills every scheme: 401 multiple_credentials, as the interface requires', async () => {
    const { everySchemeFilled } = (await import(pathToFileURL(join(out, 'hey-api.ts')).href)) as {
      everySchemeFilled(setup: SessionSetup): Promise<unknown>;
    };
    expect(await everySchemeFilled(setup('unused@example.com'))).toEqual({
      status: 401,
      code: 'multiple_credentials',
    });
  });

  it('orval 7 (fetch) with the propsim-fetch mutator: a short session', async () => {
    expect(await (await session('orval.ts')).run(setup('orval@example.com'))).toEqual(EXPECTED);
  });

  it('openapi-typescript-codegen (fetch, options, union types) with OpenAPI.TOKEN: a short session', async () => {
    expect(await (await session('openapi-typescript-codegen.ts')).run(setup('codegen@example.com'))).toEqual(EXPECTED);
  });
});
