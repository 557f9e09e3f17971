// Sandboxes kept in db files, for the restart tests (restart*.test.ts): open one, stop it, copy its file as a kill
// would leave it, and read everything a restart must keep: the state digest, daily records, lookups by id, the journal
// hash and the numbered stream events. A file's afterEach(closeRunning) closes what a test left running.
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { SandboxDb } from '../../src/store/sandbox-db.js';
import { KEYS, startTestApi, stateDigest, type TestApi } from './api-harness.js';

export const operator = { 'x-service-api-key': KEYS.acmeOperator };
export const admin = { 'x-service-api-key': KEYS.admin };
/** The apps a test started; closeRunning closes them. */
export const running: TestApi[] = [];

export async function closeRunning(): Promise<void> {
  for (const api of running.splice(0)) await api.close();
}

export function dbFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'propsim-restart-')), 'sandbox.sqlite');
}

export async function open(file: string, overrides: Parameters<typeof startTestApi>[0] = {}): Promise<TestApi> {
  const api = await startTestApi(overrides, SandboxDb.open(file));
  running.push(api);
  return api;
}

export async function stop(api: TestApi): Promise<void> {
  running.splice(running.indexOf(api), 1);
  await api.close();
}

/** The file as a kill would leave it now: the db and its write-ahead log, copied once everything is on disk. */
export async function copyOnDisk(api: TestApi, file: string): Promise<string> {
  await api.sandbox.durable();
  const copy = join(mkdtempSync(join(tmpdir(), 'propsim-restart-copy-')), 'sandbox.sqlite');
  copyFileSync(file, copy);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
  return copy;
}

/** Every account's daily position records over the sandbox's year. */
function dailyRecords(api: TestApi): unknown[] {
  const read = api.sandbox.kernel.read;
  const range = { from_date: '2026-01-01', to_date: '2026-12-31' };
  return read.accountStates().map((account) => read.dailyPositions({}, account.account_id, range));
}

/** What a restart must keep: the kernel's state, daily records, the journal's hash, the numbered stream events. */
export async function everything(api: TestApi) {
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

export async function acmeAccount(api: TestApi): Promise<string> {
  const list = await api.call({ method: 'GET', url: '/v1/firm-control/accounts', headers: operator });
  return api.json<{ items: Array<{ account_id: string }> }>(list).items[0]!.account_id;
}
