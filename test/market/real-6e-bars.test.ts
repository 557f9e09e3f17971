// The real CME data in fixtures/market (see its README): 6EH4 1-minute bars stamped at their end.
import { describe, expect, it } from 'vitest';
import { readBarCsv } from '../../src/market/bar-csv-reader.js';
import { SymbolTable } from '../../src/market/symbol-table.js';

const PATH = 'fixtures/market/6EH4-2024-01.csv.gz';

describe('6EH4 January 2024 1-minute bars', () => {
  it('replays 29,996 bars as 119,984 prints, the first one a minute before the first bar end', async () => {
    let prints = 0;
    let firstMs: number | undefined;
    let previousMs = -Infinity;
    let inOrder = true;
    const symbols = new SymbolTable();
    for await (const batch of readBarCsv({ path: PATH, format: 'bars', instrument: '6EH4' }, 0, symbols)) {
      firstMs ??= batch.timeMs[0];
      for (let i = 0; i < batch.length; i++) {
        inOrder &&= batch.timeMs[i]! >= previousMs;
        previousMs = batch.timeMs[i]!;
      }
      prints += batch.length;
    }
    expect(prints, 'four prints per bar').toBe(29_996 * 4);
    expect(firstMs, 'the first bar is stamped 2024-01-01 23:01:00 UTC, its end').toBe(
      Date.UTC(2024, 0, 1, 23, 1) - 60_000,
    );
    expect(inOrder, 'prints come out in time order').toBe(true);
    expect(symbols.symbol(0)).toBe('6EH4');
  });
});
