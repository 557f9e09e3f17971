// Reading a durable sandbox's stored journal back (docs/api.md#persistence): its first line, its snapshot if it can be
// read, and its lines after the snapshot, each a kernel input or a sandbox record; the kernel's events are skipped,
// since applying the inputs again writes them again.
import type { JournalEntry } from '../../core/kernel/persistence/journal.js';
import type { SandboxDb } from '../../store/sandbox-db.js';
import { decodeSnapshot } from '../../store/snapshot-reader.js';
import { isSqliteError, StoreFileError } from '../../store/store-file-error.js';
import type { SandboxRecord } from './sandbox-records.js';

/** How a kernel journal line starts, as opposed to a sandbox record. */
export const JOURNAL_LINE = '{"seq":';

/** A kernel journal line that is an event, not an input. */
const EVENT_LINE = /^\{"seq":\d+,"time_ms":-?\d+,"type":"(?!input\.)/;

/** The stored journal's first line, which must be the kernel's start; else the file is damaged (exit 2, untouched). */
export function firstEntry(db: SandboxDb): JournalEntry {
  const entry = JSON.parse(db.firstLine()!) as Partial<JournalEntry> | null;
  if (entry?.type !== 'input.kernel_started')
    throw new StoreFileError(
      db.file,
      `its journal starts with ${JSON.stringify(entry?.type ?? entry)}, not input.kernel_started: it is damaged; it was left as it is. Move it aside to start afresh`,
    );
  return entry as JournalEntry;
}

/**
 * The store's snapshot, decoded, if it can be read. The journal has every line since the reset, so a snapshot that
 * cannot be (damaged, or written by another version) is passed over with a warning and every line applied instead;
 * the next snapshot replaces it.
 */
export function readableSnapshot(
  db: SandboxDb,
  warn: ((message: string) => void) | undefined,
): { atLine: number; state: unknown } | undefined {
  const snapshot = db.snapshot();
  if (!snapshot) return undefined;
  try {
    return { atLine: snapshot.atLine, state: decodeSnapshot(snapshot.parts) };
  } catch (error) {
    if (isSqliteError(error)) throw error; // the file is in trouble, not just its snapshot: refused as a whole
    (warn ?? ((message: string) => void process.stderr.write(`${message}\n`)))(
      `${db.file}: its snapshot cannot be read (${error instanceof Error ? error.message : String(error)}); applying the whole journal instead`,
    );
    return undefined;
  }
}

/** Each stored line from `fromLine` on, in order, as a kernel input or a sandbox record; the kernel's events skipped. */
export function* storedEntries(db: SandboxDb, fromLine: number): Generator<JournalEntry | SandboxRecord> {
  for (const line of db.lines(fromLine)) {
    if (EVENT_LINE.test(line)) continue; // the kernel writes its events again
    yield JSON.parse(line) as JournalEntry | SandboxRecord;
  }
}
