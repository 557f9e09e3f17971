// The store's writer thread (docs/api.md#persistence): it holds the SQLite file and commits each batch the main
// thread sends in one transaction, then says so. The fsync of a commit waits here, not on the thread that answers
// requests, which goes on gathering the next batch meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import { openDbFile, readJournalText } from './db-file.js';

export interface Batch {
  lines: readonly string[];
  meta: Readonly<Record<string, string>>;
  /** A reset: the journal is emptied before these lines (and its snapshot dropped). */
  startOver: boolean;
  /** The sandbox's state after these lines (its parts: snapshot-codec.ts), and how many journal lines it covers. */
  snapshot?: { atLine: number; parts: readonly Uint8Array[] };
}

export type WriterMessage = { kind: 'batch'; batch: Batch } | { kind: 'read'; prefix: string } | { kind: 'close' };
export type WriterAnswer =
  | { kind: 'committed' }
  | { kind: 'read'; text: string }
  /** A read failed (its text too long for SQLite, say): only that read; the journal is as it was. */
  | { kind: 'read-failed'; message: string }
  /** A commit failed: the memory is ahead of the disk. */
  | { kind: 'failed'; message: string }
  | { kind: 'closed' };

const port = parentPort!;
const db = openDbFile((workerData as { file: string }).file);
const insertLine = db.prepare('INSERT INTO journal (line) VALUES (?)');
const setMeta = db.prepare(
  'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
);
const clear = db.prepare('DELETE FROM journal');
const dropSnapshot = db.prepare('DELETE FROM snapshot');
const putSnapshotPart = db.prepare('INSERT INTO snapshot (part, at_line, state) VALUES (?, ?, ?)');
const commit = db.transaction((batch: Batch) => {
  if (batch.startOver) clear.run();
  if (batch.startOver || batch.snapshot) dropSnapshot.run();
  for (const line of batch.lines) insertLine.run(line);
  for (const [key, value] of Object.entries(batch.meta)) setMeta.run(key, value);
  if (batch.snapshot) {
    const { atLine, parts } = batch.snapshot;
    parts.forEach((state, part) => putSnapshotPart.run(part, atLine, state));
  }
});

port.on('message', (message: WriterMessage) => {
  if (message.kind === 'close') {
    db.close();
    port.postMessage({ kind: 'closed' } satisfies WriterAnswer);
    return;
  }
  if (message.kind === 'read') {
    try {
      port.postMessage({ kind: 'read', text: readJournalText(db, message.prefix) } satisfies WriterAnswer);
    } catch (error) {
      port.postMessage({ kind: 'read-failed', message: (error as Error).message } satisfies WriterAnswer);
    }
    return;
  }
  try {
    commit(message.batch);
    port.postMessage({ kind: 'committed' } satisfies WriterAnswer);
  } catch (error) {
    port.postMessage({ kind: 'failed', message: (error as Error).message } satisfies WriterAnswer);
  }
});
