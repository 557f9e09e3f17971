// A reader given a file's sha256 checks the bytes it reads (docs/scaling.md#data-files): read whole or stopped early
// (the rest is hashed then), plain or gzipped, it passes on the expected content and fails naming both hashes on any
// other, whether or not the rows could be parsed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readMarketFile } from '../../src/market/sources.js';
import { SymbolTable } from '../../src/market/symbol-table.js';
import type { MarketFileSpec } from '../../src/market/market-file-spec.js';
import { collectRows, tempFiles } from './market-test-files.js';

const files = tempFiles();
afterAll(() => files.remove());

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const ROWS = Array.from({ length: 5000 }, (_, i) => `${1704205800000 + i * 1000},${4770 + (i % 8) * 0.25},1`);
const TEXT = `ts,price,size\n${ROWS.join('\n')}\n`;

/** The first batch only, then the reader is closed: what a cell does when its period ends before the file. */
async function firstBatchThenStop(spec: MarketFileSpec): Promise<void> {
  const reader = readMarketFile(spec, 0, new SymbolTable(), { batchRows: 100, highWaterMarkBytes: 1024 });
  await reader.next();
  await reader.return(undefined);
}

describe.each(['plain.csv', 'zipped.csv.gz'])('a checked market file (%s)', (name) => {
  const path = files.write(name, TEXT);
  const spec = (sha: string): MarketFileSpec => ({ path, format: 'ticks', instrument: 'ESH4', sha256: sha });
  const right = sha256(readFileSync(path));
  const wrong = 'f'.repeat(64);

  it('read whole with its sha256: the same rows as unchecked', async () => {
    const checked = await collectRows(readMarketFile(spec(right), 0, new SymbolTable()));
    const unchecked = await collectRows(
      readMarketFile({ path, format: 'ticks', instrument: 'ESH4' }, 0, new SymbolTable()),
    );
    expect(checked).toEqual(unchecked);
    expect(checked).toHaveLength(5000);
  });

  it('read whole with another sha256: fails naming the file and both hashes', async () => {
    await expect(collectRows(readMarketFile(spec(wrong), 0, new SymbolTable()))).rejects.toThrow(
      `${path}: expected the content the coordinator hashed, sha256 ${wrong} (docs/scaling.md#data-files), got sha256 ${right}`,
    );
  });

  it('stopped after its first batch: the rest is hashed, so the right sha256 passes and another fails', async () => {
    await firstBatchThenStop(spec(right));
    await expect(firstBatchThenStop(spec(wrong))).rejects.toThrow(`got sha256 ${right}`);
  });
});

describe('a checked file that cannot be read', () => {
  it("keeps its reader's own error: nothing to compare", async () => {
    const spec: MarketFileSpec = {
      path: '/nonexistent/x.csv',
      format: 'ticks',
      instrument: 'ESH4',
      sha256: 'a'.repeat(64),
    };
    await expect(collectRows(readMarketFile(spec, 0, new SymbolTable()))).rejects.toThrow(
      /^\/nonexistent\/x\.csv: expected a readable file .*ENOENT/,
    );
  });
});
