// The store's writer thread (docs/api.md#persistence): it holds the SQLite file and commits each batch the main
// thread sends in one transaction, then says so. The fsync of a commit waits here, not on the thread that answers
// requests, which goes on gathering the next batch meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import { openDbFile } from './db-file.js';

export interface Batch {
  lines: readonly string[];
  meta: Readonly<Record<string, string>>;
  /** A reset: the journal is emptied before these lines. */
  startOver: boolean;
}

export type WriterMessage = { kind: 'batch'; batch: Batch } | { kind: 'close' };
export type WriterAnswer = { kind: 'committed' } | { kind: 'failed'; message: string } | { kind: 'closed' };

const port = parentPort!;
const db = openDbFile((workerData as { file: string }).file);
const insertLine = db.prepare('INSERT INTO journal (line) VALUES (?)');
const setMeta = db.prepare(
  'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
);
const clear = db.prepare('DELETE FROM journal');
const commit = db.transaction((batch: Batch) => {
  if (batch.startOver) clear.run();
  for (const line of batch.lines) insertLine.run(line);
  for (const [key, value] of Object.entries(batch.meta)) setMeta.run(key, value);
});

port.on('message', (message: WriterMessage) => {
  if (message.kind === 'close') {
    db.close();
    port.postMessage({ kind: 'closed' } satisfies WriterAnswer);
    return;
  }
  try {
    commit(message.batch);
    port.postMessage({ kind: 'committed' } satisfies WriterAnswer);
  } catch (error) {
    port.postMessage({ kind: 'failed', message: (error as Error).message } satisfies WriterAnswer);
  }
});
