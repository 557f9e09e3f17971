// The sandbox's SQLite store (docs/api.md#persistence): group commit on the writer thread (a batch per turn, the
// batches waiting when a commit starts in one transaction, `durable()` settling after theirs), a reset committed with the lines that follow it, and the refusals that leave a
// file that is not ours exactly as it was.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { WriterAnswer, WriterMessage } from '../../src/store/commit-worker.js';
import { SCHEMA_VERSION } from '../../src/store/db-file.js';
import { SandboxDb, startWriterThread } from '../../src/store/sandbox-db.js';
import { StoreFileError } from '../../src/store/store-file-error.js';

const opened: SandboxDb[] = [];
afterEach(async () => {
  await closeAll();
});

function sleep(ms: number): Promise<void> {
  return new Promise((settle) => setTimeout(settle, ms));
}

function freshFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'propsim-db-')), 'nested', 'sandbox.sqlite');
}

function open(file: string): SandboxDb {
  const db = SandboxDb.open(file);
  opened.push(db);
  return db;
}

async function closeAll(): Promise<void> {
  for (const db of opened.splice(0)) await db.close();
}

/** What a file holds, read by a new connection once every store on it is closed. */
async function stored(file: string): Promise<{ lines: string[]; meta: (key: string) => string | undefined }> {
  await closeAll();
  const db = open(file);
  return { lines: Array.from(db.lines()), meta: (key) => db.meta(key) };
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The store's writer thread on a fresh file, spoken to directly: what it answers, in order. */
function startWriter() {
  const file = freshFile();
  mkdirSync(dirname(file));
  const writer = startWriterThread(file);
  const answers: WriterAnswer[] = [];
  const listeners: ((answer: WriterAnswer) => void)[] = [];
  writer.on('message', (answer: WriterAnswer) => {
    answers.push(answer);
    for (const listener of listeners) listener(answer);
  });
  const answer = (kind: WriterAnswer['kind']) =>
    new Promise<void>((settle) => listeners.push((a) => a.kind === kind && settle()));
  return {
    send: (message: WriterMessage) => writer.postMessage(message),
    answer,
    /** Closes the file and ends the thread; every answer it gave. */
    close: async () => {
      const closed = answer('closed');
      writer.postMessage({ kind: 'close' } satisfies WriterMessage);
      await closed;
      await writer.terminate();
      return answers;
    },
  };
}

function batchOf(line: string): WriterMessage {
  return { kind: 'batch', batch: { lines: [line], meta: {}, startOver: false } };
}

describe('group commit on the writer thread', () => {
  it('commits the lines of one turn together; durable() settles once they are on disk', async () => {
    const file = freshFile();
    const db = open(file);
    expect(db.durable()).toBeUndefined();
    db.append('{"a":1}');
    db.append('{"a":2}');
    const durable = db.durable();
    expect(durable).toBeDefined();
    expect(db.lineCount).toBe(0); // not yet: the batch leaves at the end of the turn
    await durable;
    expect(db.durable()).toBeUndefined();
    expect((await stored(file)).lines).toEqual(['{"a":1}', '{"a":2}']);
  });

  it('what comes while a batch is being written leaves at the end of its own turn, and settles after the one before', async () => {
    const file = freshFile();
    const db = open(file);
    const settled: number[] = [];
    const waits: Promise<void>[] = [];
    for (let turn = 1; turn <= 5; turn++) {
      db.append(`{"batch":${turn}}`);
      const durable = db.durable()!;
      expect(waits).not.toContain(durable); // a batch of its own, not the one before
      waits.push(durable.then(() => void settled.push(turn)));
      await new Promise((settle) => setImmediate(settle)); // this turn's batch has left, not waiting for the last
    }
    await Promise.all(waits);
    expect(settled).toEqual([1, 2, 3, 4, 5]);
    expect((await stored(file)).lines).toEqual([1, 2, 3, 4, 5].map((turn) => `{"batch":${turn}}`));
  });

  it('commits the meta values read at commit time with the lines', async () => {
    const file = freshFile();
    const db = open(file);
    let position = 5;
    db.commitWith(() => ({ market_prints: String(position) }));
    db.append('{"a":1}');
    position = 7;
    await db.durable();
    expect((await stored(file)).meta('market_prints')).toBe('7');
  });

  it('a reset replaces the journal in the same commit as the lines after it', async () => {
    const file = freshFile();
    const db = open(file);
    db.append('{"old":1}');
    db.append('{"old":2}');
    await db.durable();
    db.append('{"lost":1}'); // before the reset, in the same turn: the reset undoes it
    db.startOver({ stream_sequence: '12' });
    db.append('{"new":1}');
    await db.durable();
    const after = await stored(file);
    expect(after.lines).toEqual(['{"new":1}']);
    expect(after.meta('stream_sequence')).toBe('12');
  });

  it('reads back what a restart needs: the line count after a reset, lines from a place, the kernel lines as text', async () => {
    const file = freshFile();
    const db = open(file);
    for (let n = 1; n <= 3; n++) db.append(`{"old":${n}}`);
    await db.durable();
    db.startOver({});
    // Kernel lines ({"seq":…) with sandbox records among them, which the text leaves out.
    const lines = Array.from({ length: 7 }, (_, i) =>
      i % 3 === 2 ? `{"type":"sandbox.record","n":${i}}` : `{"seq":${i + 1},"n":${i}}`,
    );
    for (const line of lines) db.append(line);
    await closeAll();
    const reopened = open(file);
    expect(reopened.lineCount).toBe(7);
    expect(reopened.firstLine()).toBe(lines[0]);
    expect(Array.from(reopened.lines(5))).toEqual(lines.slice(5));
    const kernelText = lines.filter((line) => line.startsWith('{"seq":')).join('\n') + '\n';
    expect(await reopened.journalText('{"seq":'), 'read on this thread, before writing').toBe(kernelText);
    expect(await reopened.journalText('{"nothing":'), 'no line of the kind').toBe('');
  });

  it('reads the kernel lines through the writer thread once it holds the file, after what was appended', async () => {
    const db = open(freshFile());
    db.append('{"seq":1}');
    await db.durable(); // the writer holds the file from here on
    db.append('{"seq":2}');
    db.append('{"type":"sandbox.record"}');
    db.append('{"seq":3}');
    // Not yet committed: the read waits for them, so the text has every line appended before it was asked for.
    expect(await db.journalText('{"seq":')).toBe('{"seq":1}\n{"seq":2}\n{"seq":3}\n');
    db.append('{"seq":4}');
    expect(await db.journalText('{"seq":')).toBe('{"seq":1}\n{"seq":2}\n{"seq":3}\n{"seq":4}\n');
  });

  it('a read that fails on the writer thread rejects that read only: the store goes on committing', async () => {
    const db = open(freshFile());
    db.append('{"seq":1}');
    await db.durable(); // the writer holds the file from here on
    // A fault injected where SQLite refuses the query (a real one: a journal text longer than SQLite's 1 GB limit).
    const unbindable = {} as unknown as string;
    await expect(db.journalText(unbindable)).rejects.toThrow(/reading the journal of .* failed: .*bind/);
    db.append('{"seq":2}');
    await db.durable();
    expect(await db.journalText('{"seq":')).toBe('{"seq":1}\n{"seq":2}\n');
  });

  it('batches that wait while a commit is written go in one transaction, and the answer says how many are on disk', async () => {
    const writer = startWriter();
    for (let n = 1; n <= 50; n++) writer.send(batchOf(`{"n":${n}}`)); // all queued while the thread starts
    writer.send({ kind: 'read', prefix: '{"n":' });
    const answers = await writer.close();
    const commits = answers.filter((answer) => answer.kind === 'committed');
    expect(commits.length).toBeLessThan(50);
    expect(commits.at(-1)).toEqual({ kind: 'committed', batches: 50 });
    const read = answers.find((answer) => answer.kind === 'read');
    expect(read, 'a read after the batches sees them all').toEqual({
      kind: 'read',
      text: Array.from({ length: 50 }, (_, i) => `{"n":${i + 1}}\n`).join(''),
    });
  });

  it('after a failed commit the writer commits nothing more, even a batch sent before the failure was known: no gap on disk', async () => {
    const writer = startWriter();
    writer.send(batchOf('{"n":1}'));
    await writer.answer('committed');
    writer.send(batchOf({} as unknown as string)); // a line SQLite cannot bind: this commit fails
    await writer.answer('failed');
    writer.send(batchOf('{"n":3}'));
    writer.send({ kind: 'read', prefix: '{"n":' });
    const answers = await writer.close();
    expect(answers.map((answer) => answer.kind)).toEqual(['committed', 'failed', 'read', 'closed']);
    expect(answers[2]).toEqual({ kind: 'read', text: '{"n":1}\n' });
  });

  it('a writer thread that exits without an error fails the waiting answers and reads instead of leaving them hanging', async () => {
    const db = open(freshFile());
    db.append('{"a":1}');
    await db.durable(); // the writer holds the file from here on
    db.append('{"a":2}');
    const waiting = db.durable()!;
    const reading = db.journalText('{');
    await (db as unknown as { writer: { terminate(): Promise<number> } }).writer.terminate();
    const settled = (promise: Promise<unknown>) =>
      Promise.race([
        promise.then(
          () => 'committed',
          (error: Error) => error.message,
        ),
        sleep(2000).then(() => 'hanging'),
      ]);
    expect(await settled(waiting)).toMatch(/writer thread stopped/);
    expect(await settled(reading)).toMatch(/writer thread stopped/);
    db.append('{"a":3}');
    expect(await settled(db.durable()!)).toMatch(/writer thread stopped/);
  });

  it('a batch appended after a failed commit is not acknowledged', async () => {
    const file = freshFile();
    const db = open(file);
    db.append('{"a":1}');
    await db.durable(); // the writer holds the file from here on
    db.append({} as unknown as string); // a line SQLite cannot bind: this batch's commit fails
    const failing = db.durable()!;
    await new Promise((settle) => setImmediate(settle)); // it has left
    db.append('{"a":3}');
    const later = db.durable()!;
    await expect(failing).rejects.toThrow(/failed to commit/);
    await expect(later).rejects.toThrow(/failed to commit/);
    expect((await stored(file)).lines).toEqual(['{"a":1}']);
  });

  it('closing commits what waits', async () => {
    const file = freshFile();
    const db = open(file);
    db.append('{"a":1}');
    expect((await stored(file)).lines).toEqual(['{"a":1}']);
  });

  it('the file is read before writing starts, not after', async () => {
    const db = open(freshFile());
    db.append('{"a":1}');
    await db.durable();
    expect(() => db.lineCount).toThrow(/is being written/);
  });

  it('a writer that cannot take the file fails every waiting answer, and closing does not hang', async () => {
    const file = freshFile();
    const db = open(file);
    db.startWriting(); // the reader lets go; the writer thread is starting
    const thief = new Database(file);
    thief.pragma('locking_mode = EXCLUSIVE');
    thief.prepare('SELECT count(*) FROM journal').get(); // takes the file before the writer does
    db.append('{"a":1}');
    await expect(db.durable()).rejects.toThrow(/failed to commit/);
    await expect(db.durable()).rejects.toThrow(/failed to commit/); // and stays failed
    await new Promise((settle) => setTimeout(settle, 200)); // the writer thread has ended
    await db.close();
    thief.close();
  });
});

describe('files that are not a sandbox db are refused and left as they were', () => {
  const refused = (file: string, problem: RegExp) => {
    const before = sha256(file);
    let error: unknown;
    try {
      open(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as Error).message).toContain(`--db ${file}`);
    expect((error as Error).message).toMatch(problem);
    expect(sha256(file)).toBe(before);
  };

  it('a text file: not an SQLite database', () => {
    const file = freshFile().replace('nested/', '');
    writeFileSync(file, 'account_id,balance\n'.repeat(200));
    refused(file, /is not an SQLite database/);
  });

  it("another program's SQLite database: named by its tables", () => {
    const file = freshFile().replace('nested/', '');
    const other = new Database(file);
    other.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)');
    other.close();
    refused(file, /another program's SQLite database \(tables customers\)/);
  });

  it('a db of a newer propsim schema', async () => {
    const file = freshFile();
    open(file);
    await closeAll();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    refused(file, new RegExp(`newer propsim \\(schema ${SCHEMA_VERSION + 1}`));
  });

  it('a damaged db: its pages overwritten', async () => {
    const file = freshFile();
    const db = open(file);
    for (let i = 0; i < 2000; i++) db.append(`{"line":${i},"pad":"${'x'.repeat(100)}"}`);
    await db.durable();
    await closeAll();
    const bytes = readFileSync(file);
    bytes.fill(0x5a, 4096, bytes.length - 4096); // every page but the first and the last
    writeFileSync(file, bytes);
    const before = sha256(file);
    let error: unknown;
    try {
      Array.from(open(file).lines());
    } catch (e) {
      error = e;
    }
    // Refused when opened (reading its snapshot row), or else when its lines are read.
    if (error instanceof StoreFileError) expect(error.message).toMatch(/is damaged/);
    else expect((error as { code?: string }).code).toMatch(/SQLITE_CORRUPT|SQLITE_NOTADB/);
    await closeAll();
    expect(sha256(file)).toBe(before);
  });

  it('a db held by another server is refused, not shared: while it is read, and while it is written', async () => {
    const file = freshFile();
    const db = open(file);
    expect(() => SandboxDb.open(file)).toThrow(/is in use by another process/);
    db.append('{"a":1}');
    await db.durable();
    expect(() => SandboxDb.open(file)).toThrow(/is in use by another process/);
  });
});
