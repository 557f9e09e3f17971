// Market files read on a thread of their own (src/market/reader-thread.ts): the same prints in the same batches as
// on the run's thread, a bad file's error with its class and message, and a thread that ends when the reading does.
import { truncateSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { MarketDataError } from '../../src/market/market-data-error.js';
import { READER_THREAD_BYTES, marketPrintBatchesOnThread, worthAReaderThread } from '../../src/market/reader-thread.js';
import { marketPrintBatches } from '../../src/market/sources.js';
import { SymbolTable } from '../../src/market/symbol-table.js';
import { batchRows, tempFiles } from './market-test-files.js';

const files = tempFiles();
afterAll(() => files.remove());

/** `rows` ticks of ES, NQ and 6E in turn, a print every second from 08:30 CT on 2026-03-10. */
function ticksFile(name: string, rows: number): string {
  const start = Date.parse('2026-03-10T13:30:00Z');
  const symbols = ['ESM6', 'NQM6', '6EM6'];
  const prices = ['5000.25', '18000.50', '1.08500'];
  const lines = Array.from(
    { length: rows },
    (_, i) => `${start + i * 1000},${symbols[i % 3]},${prices[i % 3]},${1 + (i % 4)}`,
  );
  return files.write(name, `ts,instrument,price,size\n${lines.join('\n')}\n`);
}

const barsFile = files.write(
  'bars.csv',
  'ts,open,high,low,close\n2026-03-10T13:30:00Z,1.08500,1.08600,1.08450,1.08550\n2026-03-10T13:31:00Z,1.08550,1.08700,1.08500,1.08650\n',
);

describe('reading market files on a reader thread', () => {
  it('gives the prints, batches and instrument numbers of reading on this thread', async () => {
    const specs = [
      { path: barsFile, format: 'bars' as const, instrument: '6EH6' },
      { path: ticksFile('ticks.csv', 1_000), format: 'ticks' as const },
      { path: ticksFile('more.csv.gz', 300), format: 'ticks' as const },
    ];
    const here = new SymbolTable();
    const there = new SymbolTable();
    const expected = [];
    for await (const batch of marketPrintBatches(specs, here, { batchRows: 64 })) expected.push(batch);
    const got = [];
    for await (const batch of marketPrintBatchesOnThread(specs, there, { batchRows: 64 })) got.push(batch);
    expect(
      got.map((b) => b.length),
      'the same cuts into batches',
    ).toEqual(expected.map((b) => b.length));
    expect(got.flatMap(batchRows), 'the same prints, in (time, file, line) order').toEqual(expected.flatMap(batchRows));
    expect(
      got.flatMap((b) => [...b.instrumentIndex]),
      'each symbol has the number it has on this thread',
    ).toEqual(expected.flatMap((b) => [...b.instrumentIndex]));
    expect(there.size).toBe(here.size);
  });

  it("throws a bad row's MarketDataError, naming the file and line, as reading here does", async () => {
    const bad = files.write('bad.csv', 'ts,instrument,price\n1773149400000,ESM6,5000.25\n1773149401000,ESM6,5000.3\n');
    const read = async (batches: AsyncIterable<unknown>) => {
      try {
        for await (const batch of batches) void batch;
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const specs = [{ path: bad, format: 'ticks' as const }];
    const here = await read(marketPrintBatches(specs));
    const there = await read(marketPrintBatchesOnThread(specs, new SymbolTable()));
    expect(here, 'the row is off the tick grid').toBeInstanceOf(MarketDataError);
    expect(there, 'the class crosses the thread: the CLI exits 2 for it').toBeInstanceOf(MarketDataError);
    expect((there as Error).message).toBe((here as Error).message);
    expect((there as MarketDataError).line, 'the third line of the file').toBe(3);
  });

  it('stops the thread when the consumer stops early, or never starts reading', async () => {
    const specs = [{ path: ticksFile('long.csv', 5_000), format: 'ticks' as const }];
    const batches = marketPrintBatchesOnThread(specs, new SymbolTable(), { batchRows: 16 });
    const first = await batches.next();
    expect(first.done).toBe(false);
    await expect(batches.return(), 'return() ends the thread and the iteration').resolves.toEqual({
      done: true,
      value: undefined,
    });
    expect((await batches.next()).done, 'nothing comes after return()').toBe(true);
    const stopped = marketPrintBatchesOnThread(specs, new SymbolTable());
    const waiting = stopped.next();
    await stopped.return();
    await expect(waiting, 'a read waiting when the thread is stopped ends, it does not fail').resolves.toBeDefined();
    const unread = marketPrintBatchesOnThread(specs, new SymbolTable());
    await expect(unread.return()).resolves.toMatchObject({ done: true });
  });

  it('is used for files of READER_THREAD_BYTES or more in all, given a second core', () => {
    const bars = { path: barsFile, format: 'bars' as const, instrument: '6EH6' };
    expect(worthAReaderThread([bars]), 'a small file is read faster than a thread starts').toBe(false);
    const large = files.write('large.csv', '');
    truncateSync(large, READER_THREAD_BYTES - 10); // sparse: only its size is looked at
    const specs = [bars, { path: large, format: 'ticks' as const }];
    const cores = availableParallelism();
    expect(worthAReaderThread(specs), `${READER_THREAD_BYTES} bytes in two files, ${cores} cores`).toBe(cores > 1);
    const missing = { path: `${large}.missing`, format: 'ticks' as const };
    expect(worthAReaderThread([missing]), 'a missing file counts nothing (its reader reports it)').toBe(false);
  });
});
