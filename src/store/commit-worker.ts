// The store's writer thread (docs/api.md#persistence): it holds the SQLite file and commits the batches the main
// thread sends, then says how many are on disk. The fsync of a commit waits here, not on the thread that answers
// requests, which goes on sending a batch per turn of its event loop meanwhile; every batch that waits when a commit
// starts goes in it (group commit: one transaction, one fsync).
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { openDbFile, readJournalText } from './db-file.js';

export interface Batch {
  lines: readonly string[];
  meta: Readonly<Record<string, string>>;
  /** A reset: the journal is emptied before these lines (and its snapshot dropped). */
  startOver: boolean;
  /** The sandbox's state after these lines (its parts: snapshot-format.ts), and how many journal lines it covers. */
  snapshot?: { atLine: number; parts: readonly Uint8Array[] };
}

export type WriterMessage = { kind: 'batch'; batch: Batch } | { kind: 'read'; prefix: string } | { kind: 'close' };
export type WriterAnswer =
  /** Every batch sent so far up to the `batches`-th (counted from the thread's start) is on disk. */
  | { kind: 'committed'; batches: number }
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
const commit = db.transaction((batches: readonly Batch[]) => {
  for (const batch of batches) {
    if (batch.startOver) clear.run();
    if (batch.startOver || batch.snapshot) dropSnapshot.run();
    for (const line of batch.lines) insertLine.run(line);
    for (const [key, value] of Object.entries(batch.meta)) setMeta.run(key, value);
    if (batch.snapshot) {
      const { atLine, parts } = batch.snapshot;
      parts.forEach((state, part) => putSnapshotPart.run(part, atLine, state));
    }
  }
});
let committed = 0;
/** After a failed commit nothing more is written: a later batch would leave a gap in the journal on disk. */
let failed = false;

port.on('message', (first: WriterMessage) => {
  // The batches that came while the last commit was written, taken together; a read or close after them waits for it.
  const batches: Batch[] = [];
  let message: WriterMessage | undefined = first;
  while (message?.kind === 'batch') {
    batches.push(message.batch);
    message = receiveMessageOnPort(port)?.message as WriterMessage | undefined;
  }
  if (batches.length > 0 && !failed) commitAll(batches);
  if (message) handle(message);
});

function commitAll(batches: readonly Batch[]): void {
  try {
    commit(batches);
    committed += batches.length;
    port.postMessage({ kind: 'committed', batches: committed } satisfies WriterAnswer);
  } catch (error) {
    failed = true;
    port.postMessage({ kind: 'failed', message: (error as Error).message } satisfies WriterAnswer);
  }
}

function handle(message: Exclude<WriterMessage, { kind: 'batch' }>): void {
  if (message.kind === 'close') {
    db.close();
    port.postMessage({ kind: 'closed' } satisfies WriterAnswer);
    return;
  }
  try {
    port.postMessage({ kind: 'read', text: readJournalText(db, message.prefix) } satisfies WriterAnswer);
  } catch (error) {
    port.postMessage({ kind: 'read-failed', message: (error as Error).message } satisfies WriterAnswer);
  }
}
