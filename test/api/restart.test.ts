// docs/api.md#persistence, restart equality: a sandbox kept in a db file and started again on it is the same
// sandbox, whichever way the restart finds the file: the state digest, the journal hash (the session export's
// events_sha256) and the streams' numbered events. The market files pick up where they were. What the gateway keeps:
// restart-gateway.test.ts; snapshots: restart-snapshots.test.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { serialize } from 'node:v8';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxDb } from '../../src/store/sandbox-db.js';
import { buyLimitBody, marketOrderBody, startTestApi, stateDigest, type TestApi } from './api-harness.js';
import {
  acmeAccount,
  admin,
  closeRunning,
  copyOnDisk,
  dbFile,
  everything,
  open,
  operator,
  running,
  stop,
} from './restart-harness.js';

afterEach(closeRunning);

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
