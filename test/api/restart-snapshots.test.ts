// docs/api.md#persistence: snapshots. One lets the journal go of the lines it covers (daily records and the session
// export read on the same, before and after a restart); one SQLite cannot read refuses the start; the store takes one
// every snapshotEveryLines journal lines.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxDb } from '../../src/store/sandbox-db.js';
import { buyLimitBody, marketOrderBody, startTestApi } from './api-harness.js';
import {
  acmeAccount,
  admin,
  closeRunning,
  copyOnDisk,
  dbFile,
  everything,
  open,
  operator,
  stop,
} from './restart-harness.js';

afterEach(closeRunning);

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
