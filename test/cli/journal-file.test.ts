// A run's events.jsonl read for its daily position records (src/cli/journal-file.ts): the inputs and the lines the
// records use are kept, the rest only lend their time.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunJournal } from '../../src/cli/journal-file.js';

function journal(lines: readonly string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'propsim-journal-file-')), 'events.jsonl');
  writeFileSync(file, lines.map((line) => `${line}\n`).join(''));
  return file;
}

describe('readRunJournal', () => {
  it("keeps the inputs and the records' lines; the time of every line counts for where the run stopped", async () => {
    const file = journal([
      '{"seq":1,"time_ms":1000,"type":"input.kernel_started","data":{"start_ms":1000}}',
      '{"seq":2,"time_ms":1000,"type":"accounts.created","data":{"account_id":"a"}}',
      '{"seq":3,"time_ms":2000,"type":"orders.state","data":{"order_id":"o","status":"SUBMITTED"}}',
      '{"seq":4,"time_ms":2000,"type":"fills.created","data":{"execution_id":"e"}}',
      '{"seq":5,"time_ms":9000,"type":"accounts.updated","data":{"account_id":"a"}}',
      '',
      // Another key order (a hand-edited journal) is parsed whole.
      '{"type":"input.advance","seq":6,"time_ms":9000,"data":{"to_ms":9500}}',
    ]);
    const { entries, lastTimeMs } = await readRunJournal(file);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 4, 6]);
    expect(entries[2]).toEqual({ seq: 4, time_ms: 2000, type: 'fills.created', data: { execution_id: 'e' } });
    expect(lastTimeMs).toBe(9000);
  });

  it('names the line that is not JSON, counting blank lines, and refuses a journal of blank lines', async () => {
    await expect(
      readRunJournal(journal(['{"seq":1,"time_ms":0,"type":"input.advance","data":{}}', '', 'oops'])),
    ).rejects.toThrow(/events\.jsonl: line 3 is not JSON/);
    await expect(readRunJournal(journal(['', '  ']))).rejects.toThrow(/events\.jsonl: the journal is empty/);
  });

  it('reads a line of a kept type whole, so a broken one is refused', async () => {
    await expect(
      readRunJournal(journal(['{"seq":1,"time_ms":0,"type":"fills.created","data":{"execution_id":'])),
    ).rejects.toThrow(/line 1 is not JSON/);
  });
});
