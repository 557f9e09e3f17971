// The sandbox's durable store (docs/api.md#persistence): one SQLite file in WAL mode holding the sandbox's journal
// since its last reset (each kernel input line and each `sandbox.*` record, in the order they happened) and a few
// meta values. Lines are appended in memory and committed together once per turn of the event loop (group commit:
// one fsync for every request of the turn); an answer waits for `durable()`, so a write is acknowledged only once
// it is on disk. A reset is committed with the lines that follow it, in one transaction: a kill never leaves half
// of one.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { openDbFile } from './db-file.js';

/** The meta values the sandbox keeps beside its journal. */
export type MetaValues = Readonly<Record<string, string>>;

export class SandboxDb {
  private readonly insertLine: Database.Statement<[string]>;
  private readonly setMetaRow: Database.Statement<[string, string]>;
  private readonly commitBatch: (lines: readonly string[], meta: MetaValues, startOver: boolean) => void;
  private pending: string[] = [];
  private pendingMeta: Record<string, string> = {};
  private startingOver = false;
  private commit: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;
  private failure: Error | undefined;
  /** Meta values read at each commit (the market feed's position), committed with its lines. */
  private metaAtCommit: () => MetaValues = () => ({});

  private constructor(
    private readonly db: Database.Database,
    readonly file: string,
  ) {
    this.insertLine = db.prepare('INSERT INTO journal (line) VALUES (?)');
    this.setMetaRow = db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    const clear = db.prepare('DELETE FROM journal');
    this.commitBatch = db.transaction((lines: readonly string[], meta: MetaValues, startOver: boolean) => {
      if (startOver) clear.run();
      for (const line of lines) this.insertLine.run(line);
      for (const [key, value] of Object.entries(meta)) this.setMetaRow.run(key, value);
    });
  }

  /**
   * Opens (or creates, with its folder) a sandbox db. A file that is not one, or is damaged, or is held by another
   * server, is a StoreFileError and is left as it was.
   */
  static open(file: string): SandboxDb {
    mkdirSync(dirname(file), { recursive: true });
    return new SandboxDb(openDbFile(file), file);
  }

  meta(key: string): string | undefined {
    return this.db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
  }

  /** A meta value, written at once with `make()` when the file has none. */
  ensureMeta(key: string, make: () => string): string {
    const found = this.meta(key);
    if (found !== undefined) return found;
    const value = make();
    this.setMetaRow.run(key, value);
    return value;
  }

  /** Writes meta values at once. */
  setMeta(values: MetaValues): void {
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(values)) this.setMetaRow.run(key, value);
    })();
  }

  /** Meta values to read and commit with each batch of lines. */
  commitWith(meta: () => MetaValues): void {
    this.metaAtCommit = meta;
  }

  /** How many journal lines are stored. */
  get lineCount(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM journal').pluck().get() as number) ?? 0;
  }

  /** The stored journal, oldest first. */
  lines(): IterableIterator<string> {
    return this.db.prepare('SELECT line FROM journal ORDER BY seq').pluck().iterate() as IterableIterator<string>;
  }

  /** Appends a line, committed with the rest of this turn's. */
  append(line: string): void {
    this.pending.push(line);
    this.schedule();
  }

  /** Replaces the journal (a reset): the next commit empties it before writing its lines and these meta values. */
  startOver(meta: MetaValues): void {
    this.pending = [];
    this.startingOver = true;
    Object.assign(this.pendingMeta, meta);
    this.schedule();
  }

  /** Settles when everything appended so far is on disk; undefined when nothing is waiting. */
  durable(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    return this.commit?.promise;
  }

  /** Commits what is waiting now (at shutdown) and closes the file. */
  close(): void {
    if (this.commit) this.flush();
    this.db.close();
  }

  private schedule(): void {
    if (this.commit || this.failure) return;
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined); // a failed commit is answered by each waiter, not as an unhandled rejection
    this.commit = { promise, resolve, reject };
    setImmediate(() => this.flush());
  }

  private flush(): void {
    const commit = this.commit;
    if (!commit) return;
    this.commit = undefined;
    const lines = this.pending;
    const meta = { ...this.pendingMeta, ...this.metaAtCommit() };
    const startOver = this.startingOver;
    this.pending = [];
    this.pendingMeta = {};
    this.startingOver = false;
    try {
      this.commitBatch(lines, meta, startOver);
      commit.resolve();
    } catch (error) {
      // The memory is now ahead of the disk: nothing more is acknowledged (docs/api.md#persistence).
      this.failure = new Error(`the store ${this.file} failed to commit: ${(error as Error).message}`);
      commit.reject(this.failure);
    }
  }
}
