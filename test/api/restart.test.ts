// docs/api.md#persistence, restart equality: a sandbox kept in a db file and started again on it is the same
// sandbox: the state digest, the journal hash (the session export's events_sha256), the streams' numbered events,
// and what the gateway kept (idempotency answers, revoked and live tokens, fault windows, logins for the
// shared-device events), through a reset too. The market files pick up where they were.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { serialize } from 'node:v8';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/api/streams/stream-events.js';
import { SandboxDb } from '../../src/store/sandbox-db.js';
import {
  buyLimitBody,
  KEYS,
  marketOrderBody,
  PASSWORD,
  startTestApi,
  stateDigest,
  type TestApi,
} from './api-harness.js';

const operator = { 'x-service-api-key': KEYS.acmeOperator };
const admin = { 'x-service-api-key': KEYS.admin };
const running: TestApi[] = [];

afterEach(async () => {
  for (const api of running.splice(0)) await api.close();
});

function dbFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'propsim-restart-')), 'sandbox.sqlite');
}

async function open(file: string, overrides: Parameters<typeof startTestApi>[0] = {}): Promise<TestApi> {
  const api = await startTestApi(overrides, SandboxDb.open(file));
  running.push(api);
  return api;
}

async function stop(api: TestApi): Promise<void> {
  running.splice(running.indexOf(api), 1);
  await api.close();
}

/** The file as a kill would leave it now: the db and its write-ahead log, copied once everything is on disk. */
async function copyOnDisk(api: TestApi, file: string): Promise<string> {
  await api.sandbox.durable();
  const copy = join(mkdtempSync(join(tmpdir(), 'propsim-restart-copy-')), 'sandbox.sqlite');
  copyFileSync(file, copy);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
  return copy;
}

function dropSnapshot(file: string): void {
  const raw = new Database(file);
  raw.exec('DELETE FROM snapshot');
  raw.close();
}

/** Why the snapshot damageSnapshot leaves cannot be read. */
const DAMAGE = 'the snapshot is not in the format this propsim writes';

/** A snapshot row whose bytes are a V8 value, but not the columns a snapshot is written as (an older format, say). */
function damageSnapshot(file: string): void {
  const raw = new Database(file);
  raw.prepare('UPDATE snapshot SET state = ?').run(serialize({ kernel: { fields: {} } }));
  raw.close();
}

/** Every account's daily position records over the sandbox's year. */
function dailyRecords(api: TestApi): unknown[] {
  const read = api.sandbox.kernel.read;
  const range = { from_date: '2026-01-01', to_date: '2026-12-31' };
  return read.accountStates().map((account) => read.dailyPositions({}, account.account_id, range));
}

/** What a restart must keep: the kernel's state, daily records, the journal's hash, the numbered stream events. */
async function everything(api: TestApi) {
  const exported = await api.call({ method: 'GET', url: '/v1/sandbox/session.yaml', headers: admin });
  return {
    digest: stateDigest(api.sandbox),
    byId: await lookupsById(api),
    daily: JSON.stringify(dailyRecords(api)),
    eventsSha256: exported.headers['x-events-sha256'],
    sequence: api.sandbox.streams.sequence,
    events: JSON.stringify(api.sandbox.streams.after(0)),
  };
}

/** Every order and trade looked up by its id: a restore indexes them again (docs/architecture.md#indexes-by-id). */
async function lookupsById(api: TestApi): Promise<string[]> {
  const get = async (url: string) => {
    const answer = await api.call({ method: 'GET', url, headers: operator });
    expect(answer.statusCode, url).toBe(200);
    return answer.body;
  };
  const listed = async (url: string) =>
    api.json<{ items: Record<string, string>[] }>(await api.call({ method: 'GET', url, headers: operator })).items;
  const answers: string[] = [];
  for (const order of await listed('/v1/orders')) answers.push(await get(`/v1/orders/${order.order_id}`));
  for (const trade of await listed('/v1/trades')) answers.push(await get(`/v1/trades/${trade.trade_id}/lots`));
  return answers;
}

async function login(api: TestApi, email: string): Promise<string> {
  const answer = await api.call({ method: 'POST', url: '/v1/auth/login', payload: { email, password: PASSWORD } });
  expect(answer.statusCode).toBe(200);
  return api.json<{ access_token: string }>(answer).access_token;
}

async function acmeAccount(api: TestApi): Promise<string> {
  const list = await api.call({ method: 'GET', url: '/v1/firm-control/accounts', headers: operator });
  return api.json<{ items: Array<{ account_id: string }> }>(list).items[0]!.account_id;
}

describe('docs/api.md#persistence: restart equality', () => {
  /**
   * The three ways a restart finds a file: a snapshot of the end (a clean stop), no snapshot (every line applied
   * again), and a snapshot from the middle of the session with the lines after it (a kill: the file as it was on disk
   * at that moment, copied while the server ran).
   */
  const ways = [
    'from the snapshot of a clean stop',
    'by applying every line',
    'from a mid-session snapshot and the lines after it',
    'past a snapshot it cannot read (damaged, or another version), by applying every line with a warning',
  ] as const;

  it.each(ways)(
    'a session of orders, prints, fills, clock moves, a lockout and streams restarts to the same state and journal hash: %s',
    async (way) => {
      const file = dbFile();
      const firstNotes: string[] = [];
      const api = await open(file, { note: (message) => firstNotes.push(message) });
      api.sandbox.streams.activate(); // a client subscribed: the events are numbered from here
      const account = await acmeAccount(api);
      const post = (url: string, payload: object, headers: Record<string, string> = operator) =>
        api.call({ method: 'POST', url, headers, payload });
      await post('/v1/sandbox/market/prints', { prints: [{ instrument_id: 'ESM6', price: '5000.00' }] }, admin);
      await post('/v1/orders', marketOrderBody(account));
      await post('/v1/orders', buyLimitBody(account, '4990.00', 'gtc'));
      if (way === ways[2]) {
        api.sandbox.saveSnapshot(); // as the store does every --snapshot-every lines
        expect(firstNotes, 'each snapshot says where it stands and how long it held the server').toEqual([
          expect.stringMatching(/^snapshot of the state at journal line \d{2,}: held the server \d+\.\d s$/),
        ]);
      }
      await post('/v1/sandbox/clock/advance', { by: '90s' }, admin);
      await post('/v1/sandbox/market/prints', { prints: [{ instrument_id: 'ESM6', price: '4989.75' }] }, admin);
      await post('/v1/sandbox/clock/advance', { by: '26h' }, admin);
      const locked = await post(`/v1/accounts/${account}/lockout`, {});
      expect(locked.statusCode).toBe(200);
      const before = await everything(api);
      expect(before.sequence).toBeGreaterThan(5);
      expect(before.byId.length, 'two orders and a trade to look up by id').toBe(3);
      expect(api.sandbox.kernel.read.clock().now_ms).toBeGreaterThan(api.sandbox.config.startMs + 26 * 3600_000);
      const restartFrom = way === ways[2] ? await copyOnDisk(api, file) : file;
      await stop(api);
      if (way === ways[1]) dropSnapshot(file);
      if (way === ways[3]) damageSnapshot(file);

      const store = SandboxDb.open(restartFrom);
      const snapshot = store.snapshot();
      if (way === ways[1]) expect(snapshot).toBeUndefined();
      else expect(snapshot!.atLine).toBeGreaterThan(5);
      if (way === ways[0] || way === ways[3]) expect(snapshot!.atLine).toBe(store.lineCount);
      if (way === ways[2]) expect(snapshot!.atLine).toBeLessThan(store.lineCount);
      const warnings: string[] = [];
      const notes: string[] = [];
      const lines = store.lineCount;
      const again = await startTestApi(
        { warn: (message) => warnings.push(message), note: (message) => notes.push(message) },
        store,
      );
      running.push(again);
      expect(await everything(again)).toEqual(before);
      expect(notes, 'a restart says what it restores, then how long it took').toEqual([
        way === ways[1]
          ? `restoring ${restartFrom}: ${lines.toLocaleString('en-US')} journal lines, no snapshot`
          : `restoring ${restartFrom}: a snapshot of its first ${snapshot!.atLine.toLocaleString('en-US')} journal lines, then ${(lines - snapshot!.atLine).toLocaleString('en-US')} more`,
        expect.stringMatching(/^restored in \d+\.\d s$/),
      ]);
      expect(warnings).toEqual(
        way === ways[3]
          ? [`${restartFrom}: its snapshot cannot be read (${DAMAGE}); applying the whole journal instead`]
          : [],
      );
      // And it goes on from there: the next event is numbered after the last one.
      const unlocked = await again.call({
        method: 'DELETE',
        url: `/v1/accounts/${account}/lockout`,
        headers: operator,
      });
      expect(unlocked.statusCode).toBe(200);
      expect(again.sandbox.streams.sequence).toBeGreaterThan(before.sequence);
    },
  );

  it('idempotency answers, live and revoked tokens, fault windows and logins survive a restart', async () => {
    const file = dbFile();
    const api = await open(file);
    const account = await acmeAccount(api);
    const placed = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...operator, 'idempotency-key': 'order-1' },
      payload: buyLimitBody(account),
    });
    expect(placed.statusCode).toBe(202);
    const refused = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...operator, 'idempotency-key': 'order-2' },
      payload: { ...buyLimitBody(account), type: 'market' }, // the kernel's 400: a market order has no limit price
    });
    expect(refused.statusCode).toBe(400);
    const live = await login(api, 'trader@acme.example');
    const revoked = await login(api, 'trader@acme.example');
    await api.call({ method: 'POST', url: '/v1/auth/logout', headers: { authorization: `Bearer ${revoked}` } });
    await login(api, 'ops@acme.example'); // a second user of the firm from the same IP: flagged, both users kept
    await api.call({
      method: 'POST',
      url: '/v1/sandbox/faults',
      headers: admin,
      payload: { target: 'balances', status: 503, duration_ms: 3_600_000 },
    });
    const digest = stateDigest(api.sandbox);
    await stop(api);

    const again = await open(file);
    expect(stateDigest(again.sandbox)).toBe(digest);
    const replayed = await again.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...operator, 'idempotency-key': 'order-1' },
      payload: buyLimitBody(account),
    });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(placed.body);
    const refusedAgain = await again.call({
      method: 'POST',
      url: '/v1/orders',
      headers: { ...operator, 'idempotency-key': 'order-2' },
      payload: { ...buyLimitBody(account), type: 'market' },
    });
    expect(refusedAgain.statusCode).toBe(refused.statusCode);
    expect(again.json(refusedAgain).code).toBe(api.json(refused).code);
    expect(refusedAgain.headers['idempotent-replayed']).toBe('true');

    const me = (token: string) =>
      again.call({ method: 'GET', url: '/v1/orders', headers: { authorization: `Bearer ${token}` } });
    expect((await me(live)).statusCode).toBe(200); // signed with the store's secret: still valid
    expect((await me(revoked)).statusCode).toBe(401);
    const balances = await again.call({ method: 'GET', url: '/v1/balances', headers: operator });
    expect(balances.statusCode).toBe(503);

    // The logins before the restart still count: a third user's login from the same IP names all of them.
    again.sandbox.streams.activate();
    const flagged: StreamEvent[] = [];
    again.sandbox.streams.events$.subscribe((event) => flagged.push(event));
    await again.call({ method: 'POST', url: '/v1/sandbox/faults', headers: admin }); // no body: refused, no change
    await again.call({ method: 'DELETE', url: '/v1/sandbox/faults', headers: admin });
    const summit = await again.call({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'ops@acme.example', password: PASSWORD },
      headers: { 'x-device-fingerprint': 'laptop-1' },
    });
    expect(summit.statusCode).toBe(200);
    await login(again, 'trader@acme.example');
    const ipFlag = flagged.filter((e) => e.type === 'ip_logs.flagged').at(-1);
    expect(ipFlag?.data.user_ids).toHaveLength(2);
    const cleared = await again.call({ method: 'GET', url: '/v1/balances', headers: operator });
    expect(cleared.statusCode).toBe(200);
  });

  it('a reset is kept: the restart is the reset sandbox, and stream numbers are not used again', async () => {
    const file = dbFile();
    const api = await open(file);
    api.sandbox.streams.activate();
    const account = await acmeAccount(api);
    await api.call({ method: 'POST', url: '/v1/orders', headers: operator, payload: buyLimitBody(account) });
    const numberedBeforeReset = api.sandbox.streams.sequence;
    expect(numberedBeforeReset).toBeGreaterThan(0);
    await api.call({ method: 'POST', url: '/v1/sandbox/reset', headers: admin });
    await api.call({ method: 'POST', url: '/v1/orders', headers: operator, payload: buyLimitBody(account, '4800.00') });
    const before = await everything(api);
    expect(before.sequence).toBeGreaterThan(numberedBeforeReset);
    await stop(api);

    const again = await open(file);
    expect(await everything(again)).toEqual(before);
    const orders = again.json<{ items: Array<{ limit_price: string }> }>(
      await again.call({ method: 'GET', url: '/v1/orders', headers: operator }),
    ).items;
    expect(orders.map((o) => o.limit_price)).toEqual(['4800.00']);
  });

  it("a reset's new token secret is kept: a session from before it stays ended after a restart, a later one lives on", async () => {
    const file = dbFile();
    const api = await open(file);
    const before = await login(api, 'trader@acme.example');
    await api.call({ method: 'POST', url: '/v1/sandbox/reset', headers: admin });
    const after = await login(api, 'trader@acme.example');
    await stop(api);

    const again = await open(file);
    const orders = (token: string) =>
      again.call({ method: 'GET', url: '/v1/orders', headers: { authorization: `Bearer ${token}` } });
    expect((await orders(before)).statusCode).toBe(401);
    expect((await orders(after)).statusCode).toBe(200);
  });

  it('--market files pick up where they were: a restart half way gives what one run gives', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'propsim-restart-market-'));
    const ticks = join(folder, 'ticks.csv');
    const at = (minute: number) => new Date(Date.UTC(2026, 2, 2, 14, minute)).toISOString();
    const prices = ['5000.00', '5001.25', '4999.50', '5002.00', '5003.75', '4998.25', '5000.50', '5004.00'];
    writeFileSync(ticks, `ts,instrument,price,size\n${prices.map((p, i) => `${at(i + 1)},ESM6,${p},5`).join('\n')}\n`);
    const market = [{ path: ticks, format: 'ticks' as const }];
    const session = async (api: TestApi, part: 1 | 2) => {
      const account = await acmeAccount(api);
      if (part === 1) {
        await api.call({
          method: 'POST',
          url: '/v1/orders',
          headers: operator,
          payload: buyLimitBody(account, '5000.00', 'gtc'),
        });
        await api.call({ method: 'POST', url: '/v1/sandbox/clock/advance', headers: admin, payload: { by: '4m' } });
      } else {
        await api.call({
          method: 'POST',
          url: '/v1/orders',
          headers: operator,
          payload: marketOrderBody(account, 'sell'),
        });
        await api.call({ method: 'POST', url: '/v1/sandbox/clock/advance', headers: admin, payload: { by: '10m' } });
      }
    };

    const oneRun = await startTestApi({ market });
    running.push(oneRun);
    await session(oneRun, 1);
    await session(oneRun, 2);

    const file = dbFile();
    const first = await open(file, { market });
    await session(first, 1);
    await stop(first);
    const second = await open(file, { market });
    await session(second, 2);
    expect(stateDigest(second.sandbox)).toBe(stateDigest(oneRun.sandbox));
    expect((await everything(second)).eventsSha256).toBe((await everything(oneRun)).eventsSha256);
  });
});

describe('docs/api.md#persistence: snapshots', () => {
  it('a snapshot lets the journal go of the lines it covers; daily records and the session export read on the same', async () => {
    const file = dbFile();
    const api = await open(file);
    const account = await acmeAccount(api);
    const post = (url: string, payload: object, headers: Record<string, string> = operator) =>
      api.call({ method: 'POST', url, headers, payload });
    const fillAt = async (price: string) => {
      await post('/v1/orders', marketOrderBody(account));
      await post('/v1/sandbox/clock/advance', { by: '90s' }, admin);
      await post('/v1/sandbox/market/prints', { prints: [{ instrument_id: 'ESM6', price }] }, admin);
    };
    await post('/v1/sandbox/market/prints', { prints: [{ instrument_id: 'ESM6', price: '5000.00' }] }, admin);
    await fillAt('5000.25');
    const exportedBefore = await api.call({ method: 'GET', url: '/v1/sandbox/session.yaml', headers: admin });
    const journal = api.sandbox.kernel.journal;
    const held = journal.length;
    api.sandbox.saveSnapshot(); // before any daily read: the history catches up with the lines before letting go
    expect(journal.length, 'the count goes on').toBe(held);
    expect(() => journal.text(), "the lines are the store's now").toThrow(/the store keeps them/);
    const unread = await everything(api);
    expect(unread.daily, 'the daily record of the fill, from lines let go of').toContain('"trade_date"');
    expect(unread.eventsSha256, 'the export, read from the store').toBe(exportedBefore.headers['x-events-sha256']);
    // And what follows the snapshot joins them: a fill on the next day, read from memory and the store together.
    await post('/v1/sandbox/clock/advance', { by: '26h' }, admin);
    await fillAt('5001.00');
    const after = await everything(api);
    expect(JSON.parse(after.daily), 'a record per trade date').not.toEqual(JSON.parse(unread.daily));
    await stop(api);
    const again = await open(file);
    expect(await everything(again), 'and the same after a restart from the clean stop').toEqual(after);
  });

  it('a snapshot SQLite cannot read (its pages damaged) is the file in trouble: the start is refused, not replayed', async () => {
    const file = dbFile();
    const api = await open(file);
    const account = await acmeAccount(api);
    // Enough orders that the snapshot's part spans several of SQLite's overflow pages.
    for (let i = 0; i < 40; i++)
      await api.call({ method: 'POST', url: '/v1/orders', headers: operator, payload: marketOrderBody(account) });
    await stop(api);
    const bytes = readFileSync(file);
    // An overflow page of the snapshot's part (the only value longer than a page): its first 4 bytes name the next
    // page of the chain, the one after it in the file. Pointed past the end of the file, the part cannot be read.
    const pages = bytes.length / 4096;
    const overflow = Array.from({ length: pages }, (_, i) => i).find((i) => bytes.readUInt32BE(i * 4096) === i + 2);
    expect(overflow).toBeDefined();
    bytes.writeUInt32BE(0x7fff_fff0, overflow! * 4096);
    writeFileSync(file, bytes);
    const warnings: string[] = [];
    const store = SandboxDb.open(file);
    await expect(startTestApi({ warn: (message) => warnings.push(message) }, store)).rejects.toMatchObject({
      code: expect.stringMatching(/^SQLITE_CORRUPT/),
    });
    expect(warnings).toEqual([]);
    await store.close();
  });

  it('the store takes a snapshot every snapshotEveryLines journal lines, with the lines before it', async () => {
    const file = dbFile();
    const api = await open(file, { snapshotEveryLines: 4 });
    const account = await acmeAccount(api);
    for (const price of ['4990.00', '4980.00', '4970.00'])
      await api.call({ method: 'POST', url: '/v1/orders', headers: operator, payload: buyLimitBody(account, price) });
    const copy = await copyOnDisk(api, file);
    const store = SandboxDb.open(copy);
    const snapshot = store.snapshot();
    expect(snapshot!.atLine).toBeGreaterThanOrEqual(4);
    expect(snapshot!.atLine).toBeLessThanOrEqual(store.lineCount);
    await store.close();
  });
});
