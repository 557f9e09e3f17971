// A finished run's events.jsonl, read for its daily position records (`propsim report daily-positions`). A long run's
// journal can be more than one string can hold, and most of its lines are
// the orders' and accounts' events these records do not use: it is read a block of lines at a time, and only the
// lines of POSITION_HISTORY_TYPES and the inputs are parsed and kept. The inputs are what moves the run's clock (an
// event happens at the time an input set), which the records need at each input: prints stamped before it were not
// applied.
import { lineHead, type JournalEntry } from '../core/kernel/persistence/journal.js';
import { POSITION_HISTORY_TYPES } from '../core/kernel/read/daily-positions.js';
import { LineTooLongError, lineTooLongInFile, openByteStream, readLineBlocks } from '../market/line-blocks.js';
import { CliInputError } from './input-error.js';

export interface RunJournal {
  /** The lines the daily records use and the inputs, in order. */
  entries: JournalEntry[];
  /** The time of the journal's latest line: where the run's clock stopped, whichever line it was. */
  lastTimeMs: number;
}

/**
 * A journal line is propsim's own JSON (an input can list every market file of a run), so its limit is far above the
 * market files' 1 MiB; it still stops a file that is no journal (no newlines) from filling memory.
 */
const MAX_JOURNAL_LINE_BYTES = 64 << 20;

export async function readRunJournal(file: string): Promise<RunJournal> {
  const entries: JournalEntry[] = [];
  let lastTimeMs = Number.NEGATIVE_INFINITY;
  let lineNumber = 0;
  let journalLines = 0;
  try {
    for await (const block of readLineBlocks(openByteStream(file), MAX_JOURNAL_LINE_BYTES)) {
      const lines = block.toString('utf8').split('\n');
      if (lines.at(-1) === '') lines.pop(); // the block's last newline
      for (const line of lines) {
        lineNumber++;
        if (line.trim() === '') continue;
        journalLines++;
        const head = lineHead(line);
        if (head && !kept(head.type)) {
          lastTimeMs = Math.max(lastTimeMs, head.timeMs);
          continue;
        }
        const entry = journalEntry(line, file, lineNumber);
        lastTimeMs = Math.max(lastTimeMs, entry.time_ms);
        if (kept(entry.type)) entries.push(entry);
      }
    }
  } catch (error) {
    if (error instanceof LineTooLongError) throw lineTooLongInFile(file, lineNumber + 1, error);
    throw error;
  }
  if (journalLines === 0) throw new CliInputError(`${file}: the journal is empty`);
  return { entries, lastTimeMs };
}

function kept(type: string): boolean {
  return type.startsWith('input.') || POSITION_HISTORY_TYPES.has(type);
}

function journalEntry(line: string, file: string, lineNumber: number): JournalEntry {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    throw new CliInputError(`${file}: line ${lineNumber} is not JSON; is this a journal written by propsim replay?`);
  }
  const e = entry as Partial<JournalEntry> | null;
  if (
    typeof e !== 'object' ||
    e === null ||
    typeof e.type !== 'string' ||
    typeof e.seq !== 'number' ||
    typeof e.time_ms !== 'number'
  )
    throw new CliInputError(`${file}: line ${lineNumber} is not a journal line {"seq","time_ms","type","data"}`);
  return e as JournalEntry;
}
