// docs/api.md#persistence through the CLI: `propsim serve` keeps its state in .propsim/sandbox.sqlite by default and
// goes on from it after a restart; a --db file it cannot use (not SQLite, another program's, held by another server)
// or one made from another seed or start is refused with exit 2, a message naming it, and the file left as it was.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SEED_FILE } from '../../src/api/sandbox/seed-file.js';
import { runCliAsync } from '../cli/run-cli.js';
import { buyLimitBody, KEYS } from './api-harness.js';
import { checkedFetch } from './openapi-responses.js';
import { durableServeFiles, startServe, type Server } from './serve-process.js';

const operator = { 'x-service-api-key': KEYS.acmeOperator, 'content-type': 'application/json' };
const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
});

async function serve(args: string[], options: { cwd?: string; defaultStore?: boolean } = {}): Promise<Server> {
  const server = await startServe(args, options);
  servers.push(server);
  return server;
}

/** Stops a server as Ctrl-C would; its whole stderr. */
async function stop(server: Server): Promise<string> {
  server.child.kill('SIGTERM');
  const { code, stderr } = await server.exited;
  expect(code).toBe(0);
  return stderr;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function placeOrder(url: string): Promise<string> {
  const accounts = (await (await checkedFetch(`${url}/v1/firm-control/accounts`, { headers: operator })).json()) as {
    items: Array<{ account_id: string }>;
  };
  const placed = await checkedFetch(`${url}/v1/orders`, {
    method: 'POST',
    headers: operator,
    body: JSON.stringify(buyLimitBody(accounts.items[0]!.account_id)),
  });
  expect(placed.status).toBe(202);
  return ((await placed.json()) as { order_id: string }).order_id;
}

describe('docs/api.md#persistence: serve and its db file', () => {
  it('keeps state in .propsim/sandbox.sqlite of the working folder by default, and a restart goes on from it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'propsim-default-db-'));
    const first = await serve([], { cwd, defaultStore: true });
    const file = join(cwd, '.propsim', 'sandbox.sqlite');
    expect(first.banner).toContain(`state: ${file}`);
    const orderId = await placeOrder(first.url);
    const firstStop = await stop(first);
    expect(firstStop).toContain(`SIGTERM, closing (writing a snapshot of the state to ${file})`);
    expect(firstStop).toMatch(
      /\npropsim serve: snapshot of the state at journal line \d+: held the server \d+\.\d s\n$/,
    );
    expect(existsSync(file)).toBe(true);

    const second = await serve([], { cwd, defaultStore: true });
    expect(second.banner).toMatch(
      /^propsim serve: restoring \S+: a snapshot of its first \d+ journal lines, then 0 more\npropsim serve: restored in \d+\.\d s\n/,
    );
    const order = await checkedFetch(`${second.url}/v1/orders/${orderId}`, { headers: operator });
    expect(order.status).toBe(200);
    // A read changes nothing: closing has no snapshot to write, and says none.
    expect(await stop(second), 'no journal line since the restored snapshot').toMatch(
      /\npropsim serve: SIGTERM, closing\n$/,
    );
  }, 60_000);

  it('a start that fails (a market file missing) keeps nothing: the db file it made is removed', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'propsim-failed-start-'));
    const db = join(cwd, 'sandbox.sqlite');
    const result = await runCliAsync(['serve', '--port', '0', '--db', db, '--market', join(cwd, 'missing.csv')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('missing.csv');
    expect(existsSync(db)).toBe(false);
    expect(existsSync(`${db}-wal`)).toBe(false);
  }, 60_000);

  it('--memory writes nothing', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'propsim-memory-'));
    const server = await serve(['--memory'], { cwd });
    expect(server.banner).toContain('state: in memory');
    await placeOrder(server.url);
    await stop(server);
    expect(existsSync(join(cwd, '.propsim'))).toBe(false);
  }, 60_000);

  it('a second server on the same file exits 2: the file is in use', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'propsim-busy-')), 'sandbox.sqlite');
    await serve(['--db', db]);
    const second = await runCliAsync(['serve', '--port', '0', '--db', db]);
    expect(second.status).toBe(2);
    expect(second.stderr).toContain(`--db ${db}: is in use by another process`);
    expect(second.stderr).not.toContain('listening on');
  }, 60_000);

  it.each([
    ['a text file', (file: string) => writeFileSync(file, 'not a database\n'.repeat(100)), 'is not an SQLite database'],
    [
      "another program's SQLite database",
      (file: string) => {
        const other = new Database(file);
        other.exec('CREATE TABLE people (name TEXT)');
        other.close();
      },
      "is another program's SQLite database (tables people)",
    ],
  ])(
    '%s exits 2, named, and is left untouched',
    async (_what, make, message) => {
      const file = join(mkdtempSync(join(tmpdir(), 'propsim-foreign-')), 'data.sqlite');
      make(file);
      const before = sha256(file);
      const result = await runCliAsync(['serve', '--port', '0', '--db', file]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`--db ${file}: ${message}`);
      expect(sha256(file)).toBe(before);
    },
    60_000,
  );

  it('a damaged sandbox db exits 2, named, and is left untouched', async () => {
    const { db, seed } = durableServeFiles('propsim-damaged-');
    const server = await serve(['--db', db, '--seed', seed]);
    for (let i = 0; i < 300; i++) await placeOrder(server.url);
    await stop(server);
    const bytes = readFileSync(db);
    expect(bytes.length).toBeGreaterThan(3 * 4096);
    bytes.fill(0x5a, 4096, bytes.length - 4096); // every page but the first (the header) and the last
    writeFileSync(db, bytes);
    const before = sha256(db);
    const result = await runCliAsync(['serve', '--port', '0', '--db', db, '--seed', seed]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`--db ${db}: (is damaged|is not an SQLite database)`));
    expect(sha256(db)).toBe(before);
  }, 60_000);

  it('a sandbox db whose journal does not start with input.kernel_started exits 2, named, and is left untouched', async () => {
    const { db, seed } = durableServeFiles('propsim-headless-');
    await stop(await serve(['--db', db, '--seed', seed]));
    const raw = new Database(db);
    raw.exec('DELETE FROM snapshot');
    raw.prepare('DELETE FROM journal WHERE seq = (SELECT min(seq) FROM journal)').run();
    raw.close();
    const before = sha256(db);
    const result = await runCliAsync(['serve', '--port', '0', '--db', db, '--seed', seed]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(`--db ${db}: its journal starts with`);
    expect(result.stderr).toContain('not input.kernel_started');
    expect(sha256(db)).toBe(before);
  }, 60_000);

  it('a file made from another seed, or with another --start, exits 2 and says which', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'propsim-mismatch-'));
    const db = join(folder, 'sandbox.sqlite');
    await stop(await serve(['--db', db]));
    const before = sha256(db);

    const otherSeed = join(folder, 'other-seed.yaml');
    writeFileSync(otherSeed, `${readFileSync(DEFAULT_SEED_FILE, 'utf8')}\nseed: 99\n`);
    const seeded = await runCliAsync(['serve', '--port', '0', '--db', db, '--seed', otherSeed]);
    expect(seeded.status).toBe(2);
    // The seed it was made from, where the one given differs from it first, and the three ways forward.
    expect(seeded.stderr).toContain(
      `holds a sandbox made from another seed file: it was made from ${DEFAULT_SEED_FILE} (sha256 ${sha256(DEFAULT_SEED_FILE).slice(0, 12)}…), not ${otherSeed}`,
    );
    // The other seed is the bundled one, a blank line and `seed: 99`: it differs first on the line after the blank.
    const seedLines = readFileSync(DEFAULT_SEED_FILE, 'utf8').split('\n').length; // its last newline ends line N-1
    expect(seeded.stderr).toContain(
      `first difference at line ${seedLines + 1}: it was (end of file), it is "seed: 99"`,
    );
    expect(seeded.stderr).toContain(`start afresh from ${otherSeed}: delete ${db}`);
    expect(seeded.stderr).toContain(
      `start with the seed it was made from (--seed ${DEFAULT_SEED_FILE}); POST /v1/sandbox/reset`,
    );
    expect(seeded.stderr).toContain('--db OTHER_FILE (or --memory)');

    const started = await runCliAsync(['serve', '--port', '0', '--db', db, '--start', '2026-03-03T08:00:00-06:00']);
    expect(started.status).toBe(2);
    expect(started.stderr).toContain('holds a sandbox started at 2026-03-02T08:00:00.000-06:00');
    expect(sha256(db)).toBe(before);

    // Without --start it goes on with the file's.
    const again = await serve(['--db', db]);
    expect(again.banner).toContain('at 2026-03-02T08:00:00.000-06:00');
  }, 60_000);
});
