// The sandbox's durable store (docs/api.md#persistence): one SQLite file in WAL mode holding the sandbox's journal
// since its last reset (each kernel journal line and each `sandbox.*` record, in the order they happened), its last
// snapshot, and a few meta values. The file is read on this thread (checks, meta values, the journal and snapshot
// for a restart); once the sandbox starts writing, a writer thread holds it, and reads it too (the session export).
// Lines are gathered here and sent to the writer as one batch per turn of the event loop, without waiting for the
// batches before it: the writer commits every batch that waits when it starts a commit in one transaction (group
// commit: one fsync for all the requests that came while the last one was written), so a request waits for its own
// commit only, not also for the one before. An answer waits for `durable()`, so a write is acknowledged only once it
// is on disk. A reset is committed with the lines that follow it, in one transaction.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { packageRoot } from '../market/holiday-file.js';
import type { Batch, WriterAnswer, WriterMessage } from './commit-worker.js';
import { openDbFile, readJournalText } from './db-file.js';
import { storeFileError } from './store-file-error.js';

/** The meta values the sandbox keeps beside its journal. */
export type MetaValues = Readonly<Record<string, string>>;

interface Waiting<T = void> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export class SandboxDb {
  /** The reading connection, until the writer thread takes the file. */
  private reader: Database.Database | undefined;
  private writer: Worker | undefined;
  private writerExited = false;
  /** The writer was asked to close: its exit is expected. */
  private closing = false;
  private pending: Batch = { lines: [], meta: {}, startOver: false };
  /** The journal lines in the file once what is pending is committed: where a snapshot taken now stands. */
  private linesAfterCommit: number;
  /** The journal lines the last snapshot covers. */
  private snapshotAt: number;
  /** Who waits for the pending lines, and for each batch with the writer (oldest first). */
  private next: Waiting | undefined;
  private readonly inFlight: Waiting[] = [];
  /** Batches the writer has said are committed (it counts them from its start). */
  private committedBatches = 0;
  /** Reads sent to the writer, answered in the order sent. */
  private readonly reads: Waiting<string>[] = [];
  private scheduled = false;
  private failure: Error | undefined;
  private closed: Promise<void> | undefined;
  /** Meta values read at each commit (the market feed's position), committed with its lines. */
  private metaAtCommit: () => MetaValues = () => ({});
  /** Called before each batch is made up (the sandbox may add a snapshot to it). */
  private beforeCommit: () => void = () => undefined;

  private constructor(
    db: Database.Database,
    readonly file: string,
  ) {
    this.reader = db;
    this.linesAfterCommit = this.lineCount;
    this.snapshotAt = (db.prepare('SELECT at_line FROM snapshot LIMIT 1').pluck().get() as number | undefined) ?? 0;
  }

  /**
   * Opens (or creates, with its folder) a sandbox db. A file that is not one, or is damaged, or is held by another
   * server, is a StoreFileError and is left as it was.
   */
  static open(file: string): SandboxDb {
    mkdirSync(dirname(file), { recursive: true });
    const db = openDbFile(file);
    try {
      return new SandboxDb(db, file);
    } catch (error) {
      db.close();
      throw storeFileError(file, error);
    }
  }

  meta(key: string): string | undefined {
    return this.reading().prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
  }

  /** Writes meta values at once. */
  setMeta(values: MetaValues): void {
    const db = this.reading();
    const set = db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    db.transaction(() => {
      for (const [key, value] of Object.entries(values)) set.run(key, value);
    })();
  }

  /** How many journal lines are stored (lines are appended, or all deleted at a reset: their seqs have no gaps). */
  get lineCount(): number {
    // Two subqueries: SQLite answers a lone max() or min() from the index, not an expression of both.
    return this.reading()
      .prepare('SELECT coalesce((SELECT max(seq) FROM journal) - (SELECT min(seq) FROM journal) + 1, 0)')
      .pluck()
      .get() as number;
  }

  /**
   * The last snapshot of the sandbox's state: how many journal lines (the first ones) it covers, and its parts, read
   * from the file one at a time as they are iterated (a restore never holds the whole snapshot).
   */
  snapshot(): { atLine: number; parts: Iterable<Uint8Array> } | undefined {
    const db = this.reading();
    const atLine = db.prepare('SELECT at_line FROM snapshot ORDER BY part LIMIT 1').pluck().get() as number | undefined;
    if (atLine === undefined) return undefined;
    const parts = db.prepare('SELECT state FROM snapshot ORDER BY part').pluck();
    return { atLine, parts: { [Symbol.iterator]: () => parts.iterate() as Iterator<Buffer> } };
  }

  /** The lines appended since the last snapshot (or since the file was opened, or reset). */
  get linesSinceSnapshot(): number {
    return this.linesAfterCommit - this.snapshotAt;
  }

  /** The journal lines the last snapshot covers (0 without one). */
  get linesInSnapshot(): number {
    return this.snapshotAt;
  }

  /** The first line of the stored journal (a kernel's `input.kernel_started`), if any. */
  firstLine(): string | undefined {
    return this.reading().prepare('SELECT line FROM journal ORDER BY seq LIMIT 1').pluck().get() as string | undefined;
  }

  /**
   * The stored journal, oldest first, from its `skip`-th line (0-based) on. Seqs have no gaps, so the line is found
   * by its seq (an OFFSET would step over every line before it: a quarter of a second for a million).
   */
  lines(skip = 0): IterableIterator<string> {
    return this.reading()
      .prepare('SELECT line FROM journal WHERE seq >= (SELECT min(seq) FROM journal) + ? ORDER BY seq')
      .pluck()
      .iterate(skip) as IterableIterator<string>;
  }

  /**
   * The stored lines that start with `prefix`, oldest first, each ending in a newline, once everything appended so
   * far is committed. Read on this thread before the sandbox writes, and by the writer thread after, which holds the
   * file; a batch committed while the read waits may be in it too (the text is a longer beginning of the journal).
   */
  async journalText(prefix: string): Promise<string> {
    await this.drained();
    if (this.failure) throw this.failure;
    if (this.reader) return readJournalText(this.reader, prefix);
    const read = waiting<string>();
    this.reads.push(read);
    this.writer!.postMessage({ kind: 'read', prefix } satisfies WriterMessage);
    return read.promise;
  }

  /** Hands the file to the writer thread: from here on the db is written, not read. */
  startWriting(): void {
    if (this.writer) return;
    this.reading().close();
    this.reader = undefined;
    this.writer = startWriterThread(this.file);
    this.writer.on('message', (answer: WriterAnswer) => this.answered(answer));
    this.writer.on('error', (error) => this.fail(error));
    this.writer.on('exit', (code) => {
      this.writerExited = true;
      // Stopped without being asked (terminated, or exited without an 'error'): nothing more will be committed.
      if (!this.closing) this.fail(new Error(`the writer thread stopped (exit code ${code})`));
    });
  }

  /** Meta values to read and commit with each batch of lines, and what to do before a batch is made up. */
  commitWith(meta: () => MetaValues, before: () => void = () => undefined): void {
    this.metaAtCommit = meta;
    this.beforeCommit = before;
  }

  /** Appends a line, committed with the next batch. */
  append(line: string): void {
    (this.pending.lines as string[]).push(line);
    this.linesAfterCommit++;
    this.schedule();
  }

  /** The state after every line appended so far, committed with them: a restart starts from it. */
  saveSnapshot(parts: readonly Uint8Array[]): void {
    this.pending.snapshot = { atLine: this.linesAfterCommit, parts };
    this.snapshotAt = this.linesAfterCommit;
    this.schedule();
  }

  /** Replaces the journal (a reset): the next batch empties it before writing its lines and these meta values. */
  startOver(meta: MetaValues): void {
    this.pending = { lines: [], meta: { ...this.pending.meta, ...meta }, startOver: true };
    this.linesAfterCommit = this.snapshotAt = 0;
    this.schedule();
  }

  /** Settles when everything appended so far is on disk; undefined when nothing is waiting. */
  durable(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    return (this.next ?? this.inFlight.at(-1))?.promise;
  }

  /** Lets the file go without committing what waits (a start that failed: nothing of it is kept). */
  async abandon(): Promise<void> {
    this.pending = { lines: [], meta: {}, startOver: false };
    this.linesAfterCommit = this.snapshotAt = 0;
    this.next?.reject(new Error(`the start on ${this.file} failed: nothing of it was kept`));
    this.next = undefined;
    return this.close();
  }

  /** Commits what waits, then lets the file go. */
  close(): Promise<void> {
    this.closed ??= this.closeNow();
    return this.closed;
  }

  private async closeNow(): Promise<void> {
    await this.drained();
    if (!this.writer) {
      this.reader?.close();
      return;
    }
    const writer = this.writer;
    if (this.writerExited) return; // it failed, and said so
    this.closing = true;
    await new Promise<void>((done) => {
      writer.once('exit', () => done());
      writer.postMessage({ kind: 'close' } satisfies WriterMessage);
    });
  }

  /** Sends what waits without waiting for the end of this turn; settles once all of it is committed, or failed. */
  private async drained(): Promise<void> {
    this.send();
    while (!this.failure && (this.next || this.inFlight.length > 0))
      await (this.next ?? this.inFlight.at(-1))!.promise.catch(() => undefined);
  }

  private reading(): Database.Database {
    if (!this.reader) throw new Error(`the store ${this.file} is being written: it is read before the sandbox starts`);
    return this.reader;
  }

  private schedule(): void {
    this.next ??= waiting();
    if (this.scheduled || this.failure) return;
    // The end of this turn of the event loop: every request read in it goes in the batch.
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.send();
    });
  }

  private send(): void {
    if (!this.next || this.failure) return;
    this.beforeCommit();
    this.startWriting();
    const batch: Batch = { ...this.pending, meta: { ...this.pending.meta, ...this.metaAtCommit() } };
    this.pending = { lines: [], meta: {}, startOver: false };
    this.inFlight.push(this.next);
    this.next = undefined;
    // A snapshot's parts are handed over rather than copied when each fills its own buffer.
    const handOver = (batch.snapshot?.parts ?? []).filter(
      (p) => p.byteOffset === 0 && p.byteLength === p.buffer.byteLength,
    );
    this.writer!.postMessage(
      { kind: 'batch', batch } satisfies WriterMessage,
      handOver.map((part) => part.buffer as ArrayBuffer),
    );
  }

  private answered(answer: WriterAnswer): void {
    if (answer.kind === 'closed') {
      void this.writer?.terminate();
      return;
    }
    if (answer.kind === 'failed') return this.fail(new Error(answer.message));
    if (answer.kind === 'read') return this.reads.shift()?.resolve(answer.text);
    if (answer.kind === 'read-failed')
      return this.reads.shift()?.reject(new Error(`reading the journal of ${this.file} failed: ${answer.message}`));
    for (; this.committedBatches < answer.batches; this.committedBatches++) this.inFlight.shift()!.resolve();
  }

  /** The memory is now ahead of the disk: nothing more is acknowledged (docs/api.md#persistence). */
  private fail(error: Error): void {
    this.failure ??= new Error(`the store ${this.file} failed to commit: ${error.message}`);
    for (const waiter of [...this.inFlight, this.next, ...this.reads]) waiter?.reject(this.failure);
    this.next = undefined;
    this.inFlight.length = this.reads.length = 0;
  }
}

/** The writer thread (commit-worker.ts, as built) holding `file`. */
export function startWriterThread(file: string): Worker {
  return new Worker(join(packageRoot(), 'dist', 'src', 'store', 'commit-worker.js'), { workerData: { file } });
}

function waiting<T = void>(): Waiting<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // a failed commit is answered by each waiter, not as an unhandled rejection
  return { promise, resolve, reject };
}
