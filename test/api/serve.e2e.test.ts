// `propsim serve` as a user runs it (docs/api.md#start-up): a real process on loopback, port 0, the bundled seed;
// the banner's listening line, the worked session of docs/api.md over real HTTP, SIGTERM and SIGINT exit 0, and an
// invalid seed or flag exits 2 with a message naming it and nothing listening.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED_FILE } from '../../src/api/sandbox/seed-file.js';
import { runCliAsync } from '../cli/run-cli.js';
import { KEYS, marketOrderBody, PASSWORD } from './api-harness.js';
import { checkedFetch } from './openapi-responses.js';
import { startServe, type Server } from './serve-process.js';

/** A JSON call to a server at `url`: its status, headers and parsed body, checked against its OpenAPI document. */
function httpOf(url: string) {
  return async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
    const response = await checkedFetch(url + path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely, field by field
    const answer = (await response.json()) as any;
    return { status: response.status, headers: response.headers, body: answer };
  };
}

describe('docs/api.md#start-up: a real `propsim serve` process', () => {
  let server: Server;

  beforeAll(async () => {
    server = await startServe();
  }, 30_000);
  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });

  const http = (method: string, path: string, headers?: Record<string, string>, body?: unknown) =>
    httpOf(server.url)(method, path, headers, body);
  const operator = { 'X-Service-Api-Key': KEYS.acmeOperator };
  const admin = { 'X-Service-Api-Key': KEYS.admin };

  it('prints the listening line, the docs and dashboard URLs, every demo key and a login on stderr', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.banner).toContain(`docs: ${server.url}/docs`);
    expect(server.banner).toContain(`dashboard: ${server.url}/dashboard`);
    expect((await checkedFetch(`${server.url}/dashboard`)).status).toBe(200);
    for (const k of Object.values(KEYS)) expect(server.banner).toContain(k);
    expect(server.banner).toContain(`"password":"${PASSWORD}"`);
    expect(server.banner).toContain('state: in memory');
  });

  it('answers /health with the simulated clock and an X-Request-Id', async () => {
    const health = await http('GET', '/health');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok', now_ms: Date.parse('2026-03-02T14:00:00Z') } });
    expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('runs the worked session: provision, order, print, fill, advance to the roll, floor moved', async () => {
    const provisioned = await http('POST', '/v1/firm-control/accounts', operator, {
      user: { email: 'newcomer@example.com', first_name: 'Nia' },
      plan_reference: 'eval-50k',
    });
    expect(provisioned.status).toBe(201);
    const accountId: string = provisioned.body.account_ids[0];
    // eval-50k-eod: 50,000 start, 2,000 end-of-day trailing allowance → floor 48,000.
    expect(provisioned.body.accounts[0]).toMatchObject({ max_loss_limit_trigger: '48000.00', balance: '50000.00' });

    const loading = await http('GET', `/v1/firm-control/accounts/${accountId}/risk-state`, operator);
    expect(loading).toMatchObject({ status: 503, body: { code: 'risk_loading' } });
    expect(loading.headers.get('retry-after')).toBe('1');
    expect((await http('POST', '/v1/sandbox/clock/advance', admin, { by: '1s' })).status).toBe(200);

    const order = await http(
      'POST',
      '/v1/orders',
      { ...operator, 'Idempotency-Key': 'worked-session-1' },
      marketOrderBody(accountId),
    );
    expect(order).toMatchObject({ status: 202, body: { status: 'SUBMITTED' } });
    const printed = await http('POST', '/v1/sandbox/market/prints', admin, {
      prints: [{ instrument_id: 'ESM6', price: '5000.00' }],
    });
    expect(printed.status).toBe(200);
    const filled = await http('GET', `/v1/orders/${order.body.order_id}`, operator);
    expect(filled.body).toMatchObject({ status: 'FILLED', filled_quantity: 1, average_fill_price: '5000.00' });

    // +30 points on one ES contract = +1,500.00 unrealized; sell to realize it.
    await http('POST', '/v1/sandbox/market/prints', admin, { prints: [{ instrument_id: 'ESM6', price: '5030.00' }] });
    const exit = await http('POST', '/v1/orders', operator, marketOrderBody(accountId, 'sell'));
    expect(exit.status).toBe(202);
    await http('POST', '/v1/sandbox/market/prints', admin, { prints: [{ instrument_id: 'ESM6', price: '5030.00' }] });

    const before = (await http('GET', `/v1/firm-control/accounts/${accountId}/risk-state`, operator)).body.item;
    const roll = await http('POST', '/v1/sandbox/clock/advance', admin, { to_next: 'session_roll' });
    expect(roll.body.trade_date).toBe('2026-03-03');
    const after = (await http('GET', `/v1/firm-control/accounts/${accountId}/risk-state`, operator)).body.item;
    // 50,000 + 30 points × $50 − 2 × $2.10 commission = 51,495.80. The end-of-day floor moves only at the roll:
    // 51,495.80 − 2,000 allowance = 49,495.80 (docs/risk-rules.md#drawdown-modes).
    expect(before).toMatchObject({ balance: '51495.80', max_loss_limit_trigger: '48000.00' });
    expect(after).toMatchObject({ balance: '51495.80', max_loss_limit_trigger: '49495.80' });
  });

  it('closes cleanly on SIGTERM with exit 0', async () => {
    server.child.kill('SIGTERM');
    const { code, stderr } = await server.exited;
    expect(code).toBe(0);
    expect(stderr).toContain('SIGTERM, closing');
  });
});

describe('docs/api.md#start-up: serve refuses bad input with exit 2 and starts nothing', () => {
  it('realtime: the clock follows the wall; SIGINT closes cleanly with exit 0', async () => {
    const server = await startServe(['--memory', '--clock', 'realtime', '--speed', '60']);
    expect(server.banner).toContain('clock: realtime x60');
    // The clock follows the wall x60: a request half a second later sees about 30 simulated seconds more.
    const nowMs = async () =>
      ((await (await checkedFetch(`${server.url}/health`)).json()) as { now_ms: number }).now_ms;
    const first = await nowMs();
    await new Promise((settle) => setTimeout(settle, 500));
    expect((await nowMs()) - first).toBeGreaterThanOrEqual(30_000);
    server.child.kill('SIGINT');
    expect((await server.exited).code).toBe(0);
  }, 30_000);

  it('a flag of one value given twice keeps the last one (list flags keep all)', async () => {
    const server = await startServe(['--seed', 'no-such-seed.yaml', '--seed', DEFAULT_SEED_FILE]);
    expect(server.banner).toContain(`from ${DEFAULT_SEED_FILE}`);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  }, 30_000);

  it('an invalid seed names the file, the line and the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'propsim-seed-'));
    const seed = join(dir, 'seed.yaml');
    writeFileSync(seed, 'platform_admin_keys: [svc_live_platform_admin_x]\nfirms:\n  - slug: Bad Slug\n    name: X\n');
    const result = await runCliAsync(['serve', '--port', '0', '--memory', '--seed', seed]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(seed);
    expect(result.stderr).toMatch(/firms\[0\]\.slug/);
    expect(result.stderr).not.toContain('listening on');
  }, 30_000);

  it.each([
    [['--port', '70000'], '--port'],
    [['--speed', '10'], '--speed: only with --clock realtime'],
    [['--clock', 'realtime', '--speed', 'fast'], '--speed'],
    [['--start', 'yesterday'], '--start'],
    [['--memory', '--snapshot-every', '0'], '--snapshot-every: expected a whole number of at least 1'],
    [['--db', 'x.sqlite', '--memory'], 'mutually exclusive'],
    [['--memory', '--market', 'no-such-file.csv'], 'no-such-file.csv'],
  ])(
    'serve %j → exit 2 naming %s',
    async (args, named) => {
      const result = await runCliAsync(['serve', '--port', '0', ...args]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(named);
      expect(result.stderr).not.toContain('listening on');
    },
    30_000,
  );

  it('--help explains every flag', async () => {
    const result = await runCliAsync(['serve', '--help']);
    expect(result.status).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--seed',
      '--db',
      '--memory',
      '--clock',
      '--speed',
      '--market',
      '--start',
      '--log-level',
    ])
      expect(result.stdout).toContain(flag);
  });
});

describe('docs/api.md#start-up: `propsim serve --market` with the bundled 6E bars', () => {
  let server: Server;
  beforeAll(async () => {
    // 08:59:30 CT: the bar stamped 15:00:00Z (it ends then) has two prints still to come, 14:59:40 and 14:59:59.999.
    server = await startServe([
      '--market',
      'fixtures/market/6EH4-2024-01.yaml',
      '--start',
      '2024-01-02T08:59:30-06:00',
    ]);
  }, 30_000);
  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });

  it('the bars drive fills and marks as the clock passes them', async () => {
    const admin = { 'X-Service-Api-Key': KEYS.admin, 'X-Firm-ID': 'acme-prop' };
    const call = async (method: string, path: string, body?: unknown) =>
      (await httpOf(server.url)(method, path, admin, body)).body;
    const accountId: string = (await call('GET', '/v1/firm-control/accounts')).items[0].account_id;
    await call('POST', '/v1/sandbox/clock/advance', { by: '1s' }); // past the risk engine's loading window
    const order = await call('POST', '/v1/orders', {
      account_id: accountId,
      instrument_id: '6EH4',
      side: 'buy',
      type: 'market',
      quantity: 1,
    });
    // The 15:00:00Z bar (O 1.0996, H 1.09965, L 1.0995, C 1.09965) closes up: O, L, H, C, its high at 14:59:40.
    await call('POST', '/v1/sandbox/clock/advance', { by: '10s' });
    expect(await call('GET', `/v1/orders/${order.order_id}`)).toMatchObject({
      status: 'FILLED',
      average_fill_price: '1.09965',
    });
    // At 09:01:00 CT the mark is the open of the bar stamped 15:02:00Z, 1.09995, printed at 15:01:00.000 (a clock
    // move to T takes every print stamped at or before T): (1.09995 − 1.09965) × 125,000 = 37.50 unrealized.
    await call('POST', '/v1/sandbox/clock/advance', { to: '2024-01-02T09:01:00-06:00' });
    expect((await call('GET', `/v1/positions?account_id=${accountId}`)).items[0]).toMatchObject({
      net_quantity: 1,
      unrealized_pnl: '37.50',
    });
  });
});
