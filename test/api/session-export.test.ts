// docs/api.md#session-export: GET /v1/sandbox/session.yaml turns what the sandbox went through into a scenario that
// the compiled `propsim replay` runs to the same journal (events_sha256, named in the file and the X-Events-Sha256
// header) and the same final accounts. Sessions are random (fast-check): orders of both kinds, prints, cancels,
// clock moves, lockouts, unlocks and provisioning, through the API, refused requests included.
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../cli/run-cli.js';
import { KEYS, startTestApi, type TestApi } from './api-harness.js';

let api: TestApi;
const folder = mkdtempSync(join(tmpdir(), 'propsim-session-'));
const operator = { 'x-service-api-key': KEYS.acmeOperator };
const admin = { 'x-service-api-key': KEYS.admin };

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

type Command =
  | { kind: 'order'; account: number; side: 'buy' | 'sell'; quantity: number; limitTicks: number | null }
  | { kind: 'print'; ticks: number }
  | { kind: 'advance'; seconds: number }
  | { kind: 'cancel'; order: number }
  | { kind: 'lockout' | 'unlock'; account: number }
  | { kind: 'provision' };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('order' as const),
    account: fc.nat(3),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    quantity: fc.integer({ min: 1, max: 3 }),
    limitTicks: fc.option(fc.integer({ min: -8, max: 8 }), { nil: null }),
  }),
  fc.record({ kind: fc.constant('print' as const), ticks: fc.integer({ min: -20, max: 20 }) }),
  fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 4 * 3600 }) }),
  fc.record({ kind: fc.constant('cancel' as const), order: fc.nat(20) }),
  fc.record({ kind: fc.constantFrom('lockout' as const, 'unlock' as const), account: fc.nat(3) }),
  fc.record({ kind: fc.constant('provision' as const) }),
);

const price = (ticks: number) => (5000 + ticks * 0.25).toFixed(2);

async function run(commands: readonly Command[]): Promise<void> {
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
    api.call({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  const orders: string[] = [];
  let provisioned = 0;
  for (const command of commands) {
    const list = api.json<{ items: Array<{ account_id: string }> }>(
      await call('GET', '/v1/firm-control/accounts?limit=100', operator),
    ).items;
    const accountOf = (n: number) => list[n % list.length]!.account_id;
    switch (command.kind) {
      case 'order': {
        const body = {
          account_id: accountOf(command.account),
          instrument_id: 'ESM6',
          side: command.side,
          quantity: command.quantity,
          time_in_force: 'day',
          ...(command.limitTicks === null
            ? { type: 'market' }
            : { type: 'limit', limit_price: price(command.limitTicks) }),
        };
        const placed = await call('POST', '/v1/orders', operator, body);
        if (placed.statusCode === 202) orders.push(api.json<{ order_id: string }>(placed).order_id);
        break;
      }
      case 'print':
        await call('POST', '/v1/sandbox/market/prints', admin, {
          prints: [{ instrument_id: 'ESM6', price: price(command.ticks) }],
        });
        break;
      case 'advance':
        await call('POST', '/v1/sandbox/clock/advance', admin, { by: `${command.seconds}s` });
        break;
      case 'cancel':
        if (orders.length > 0) await call('DELETE', `/v1/orders/${orders[command.order % orders.length]}`, operator);
        break;
      case 'lockout':
        await call('POST', `/v1/accounts/${accountOf(command.account)}/lockout`, operator, { reason_code: 'review' });
        break;
      case 'unlock':
        await call('DELETE', `/v1/accounts/${accountOf(command.account)}/lockout`, operator);
        break;
      case 'provision':
        await call('POST', '/v1/firm-control/accounts', operator, {
          user: { email: `extra${++provisioned}@acme.example` },
          plan_reference: 'eval-50k',
        });
        break;
    }
  }
}

/** The steps of an exported scenario: its input lines. */
function commandsIn(yaml: string): number {
  return yaml.split('\n').filter((line) => line.startsWith('  - input: ')).length;
}

describe('docs/api.md#session-export: the session replays to the same journal and state', () => {
  it('random sessions through the API: propsim replay of the export gives its events_sha256 and final accounts', async () => {
    let runNumber = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: 10, maxLength: 40 }), async (commands) => {
        await api.call({ method: 'POST', url: '/v1/sandbox/reset', headers: admin });
        await run(commands);
        // Past the risk engine's loading window of the last accounts provisioned, so every risk state reads.
        await api.call({ method: 'POST', url: '/v1/sandbox/clock/advance', headers: admin, payload: { by: '1s' } });
        const exported = await api.call({ method: 'GET', url: '/v1/sandbox/session.yaml', headers: admin });
        expect(exported.statusCode).toBe(200);
        expect(exported.headers['content-type']).toContain('application/yaml');
        const sha = String(exported.headers['x-events-sha256']);
        expect(exported.body).toContain(`\nexpect_events_sha256: ${sha}\n`);
        const file = join(folder, `session-${++runNumber}.yaml`);
        writeFileSync(file, exported.body);
        const replay = await runCliAsync(['replay', file, '--out', join(folder, `out-${runNumber}`), '--json']);
        expect(replay.stderr).toBe('');
        expect(replay.status).toBe(0);
        const result = JSON.parse(replay.stdout) as {
          events_sha256: string;
          expectations: Array<Record<string, unknown>>;
          final: { accounts: Array<Record<string, unknown>> };
        };
        expect(result.events_sha256).toBe(sha);
        // The file checks it itself: its one expectation, after the last step.
        expect(result.expectations).toEqual([
          {
            step: commandsIn(exported.body),
            passed: true,
            subject: 'journal',
            field: 'events_sha256',
            expected: sha,
            actual: sha,
          },
        ]);
        const kernel = api.sandbox.kernel;
        const live = kernel.read.accountIds().map((id) => {
          const outcome = kernel.read.riskState({}, id);
          if (!outcome.ok) throw new Error(`no risk state for ${id}`);
          return outcome.body.item;
        });
        const fields = (a: Record<string, unknown>) => ({
          account_id: a.account_id,
          balance: a.balance,
          equity: a.equity,
          max_loss_limit_trigger: a.max_loss_limit_trigger,
          account_status: a.account_status,
          is_locked: a.is_locked,
        });
        expect(result.final.accounts.map(fields)).toEqual(
          live.map((a) => fields(a as unknown as Record<string, unknown>)),
        );
      }),
      { numRuns: 6 },
    );
  }, 120_000);

  it("a replay that writes other events fails on the file's own check (here: another --seed)", async () => {
    await api.call({ method: 'POST', url: '/v1/sandbox/reset', headers: admin });
    const exported = await api.call({ method: 'GET', url: '/v1/sandbox/session.yaml', headers: admin });
    const sha = String(exported.headers['x-events-sha256']);
    const file = join(folder, 'session-seeded.yaml');
    writeFileSync(file, exported.body);
    const replay = await runCliAsync(['replay', file, '--out', join(folder, 'out-seeded'), '--seed', '2']);
    expect(replay.status).toBe(1);
    expect(replay.stdout).toContain('FAIL  sandbox session');
    expect(replay.stdout).toMatch(
      new RegExp(
        `step \\d+: journal events_sha256: expected "${sha}", got "[0-9a-f]{64}" \\(the run wrote other events: another --seed, or a propsim that behaves differently\\)`,
      ),
    );
  });

  it('is for platform admins only (403 admin_required for a firm key)', async () => {
    const refused = await api.call({ method: 'GET', url: '/v1/sandbox/session.yaml', headers: operator });
    expect(refused.statusCode).toBe(403);
    expect(api.json<{ code: string }>(refused).code).toBe('admin_required');
  });
});
