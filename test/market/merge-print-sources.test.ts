import { firstValueFrom, from, take, toArray } from 'rxjs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { mergePrintSources } from '../../src/market/merge-print-sources.js';
import { marketPrintBatches, marketPrints$ } from '../../src/market/sources.js';
import { SymbolTable } from '../../src/market/symbol-table.js';
import { TickBatchBuilder, type TickBatch } from '../../src/market/tick-batch.js';
import { batchRows, collectRows, tempFiles } from './market-test-files.js';

const files = tempFiles();
afterAll(() => files.remove());

/** A source of one file's prints [timeMs, line], cut into batches of `batchRows`. */
async function* source(
  symbols: SymbolTable,
  fileIndex: number,
  prints: [number, number][],
  rowsPerBatch: number,
): AsyncGenerator<TickBatch> {
  const out = new TickBatchBuilder(symbols, rowsPerBatch);
  for (const [timeMs, line] of prints) {
    out.push(timeMs, 0, Infinity, 0, line, fileIndex);
    if (out.room === 0) yield out.take();
  }
  if (out.length > 0) yield out.take();
}

describe('merging print sources', () => {
  it('orders by time, then file order, then line, whatever the batch cuts', async () => {
    const symbols = new SymbolTable();
    symbols.register('ESM6');
    const a: [number, number][] = [
      [1, 2],
      [5, 3],
      [5, 4],
      [9, 5],
    ];
    const b: [number, number][] = [
      [0, 2],
      [5, 3],
      [6, 4],
      [9, 5],
      [12, 6],
    ];
    const c: [number, number][] = [
      [5, 2],
      [5, 3],
    ];
    for (const rowsPerBatch of [1, 2, 3]) {
      const merged = await collectRows(
        mergePrintSources(
          [source(symbols, 0, a, rowsPerBatch), source(symbols, 1, b, rowsPerBatch), source(symbols, 2, c, 2)],
          symbols,
          3,
        ),
      );
      expect(
        merged.map((r) => [r.timeMs, r.fileIndex, r.line]),
        `batches of ${rowsPerBatch} must not change the order`,
      ).toEqual([
        [0, 1, 2],
        [1, 0, 2],
        [5, 0, 3],
        [5, 0, 4],
        [5, 1, 3],
        [5, 2, 2],
        [5, 2, 3],
        [6, 1, 4],
        [9, 0, 5],
        [9, 1, 5],
        [12, 1, 6],
      ]);
    }
  });

  it('keeps the order when it copies long runs of one source at once', async () => {
    const symbols = new SymbolTable();
    symbols.register('ESM6');
    const early: [number, number][] = Array.from({ length: 100 }, (_, i) => [i, i + 2]);
    const late: [number, number][] = Array.from({ length: 100 }, (_, i) => [50 + i, i + 2]);
    const merged = await collectRows(
      mergePrintSources([source(symbols, 1, early, 64), source(symbols, 0, late, 64)], symbols, 64),
    );
    const expected = [...early.map(([t, line]) => [t, 1, line]), ...late.map(([t, line]) => [t, 0, line])].sort(
      (a, b) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!,
    );
    expect(merged.map((r) => [r.timeMs, r.fileIndex, r.line])).toEqual(expected);
  });

  it('merges market files into one stream sharing one symbol table', async () => {
    const ticks = files.write('ticks.csv', 'ts,instrument,price\n60000,ESM6,5000\n60000,NQM6,18000\n');
    const bars = files.write('bars.csv', 'ts,open,high,low,close\n60000,1.1,1.1,1.1,1.1\n');
    const specs = [
      { path: bars, format: 'bars' as const, instrument: '6EH6' },
      { path: ticks, format: 'ticks' as const },
    ];
    const rows = await collectRows(marketPrintBatches(specs));
    expect(
      rows.map((r) => [r.timeMs, r.symbol, r.fileIndex]),
      'at 60000 the bars file (listed first) goes first',
    ).toEqual([
      [60000, '6EH6', 0],
      [60000, 'ESM6', 1],
      [60000, 'NQM6', 1],
      [80000, '6EH6', 0],
      [100000, '6EH6', 0],
      [119999, '6EH6', 0],
    ]);
    const batches = await firstValueFrom(marketPrints$(specs).pipe(toArray()));
    expect(batches.flatMap(batchRows), 'the Observable edge yields the same prints').toEqual(rows);
  });

  it('closes every source when the consumer stops early', async () => {
    const symbols = new SymbolTable();
    symbols.register('ESM6');
    const closed: number[] = [];
    async function* tracked(fileIndex: number): AsyncGenerator<TickBatch> {
      try {
        yield* source(
          symbols,
          fileIndex,
          [
            [1, 2],
            [2, 3],
            [3, 4],
            [4, 5],
          ],
          1,
        );
      } finally {
        closed.push(fileIndex);
      }
    }
    const batches = await firstValueFrom(
      marketPrints$FromSources([tracked(0), tracked(1)], symbols).pipe(take(1), toArray()),
    );
    expect(batches).toHaveLength(1);
    // RxJS calls the iterator's return() once take(1) has unsubscribed, which completes a few ticks later.
    await vi.waitFor(() => expect(closed.sort(), 'unsubscribing must release both files').toEqual([0, 1]));
  });
});

function marketPrints$FromSources(sources: AsyncIterable<TickBatch>[], symbols: SymbolTable) {
  return from(mergePrintSources(sources, symbols, 2));
}
