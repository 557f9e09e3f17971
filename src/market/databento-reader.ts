// `format: databento` market files (docs/market-data.md#databento): a Databento trades or ohlcv download read
// directly. Its rows follow ts_recv, so ts_event may step back: the file is read whole and its prints stably
// sorted by (time, line), as `sort: true` does, which keeps prints of one millisecond in file order. An `instrument`
// key reads only that contract (or root) of a file of several.
import { parseSymbol } from '../core/instruments.js';
import { pushBarPrints } from './bar-csv-reader.js';
import type { CsvReadOptions } from './csv-print-reader.js';
import { decodeDatabentoFile } from './databento-rows.js';
import type { MarketFileSpec } from './market-file-spec.js';
import { sortPrints } from './sort-prints.js';
import type { SymbolTable } from './symbol-table.js';
import { DEFAULT_BATCH_ROWS, TickBatchBuilder, type TickBatch } from './tick-batch.js';

const BAR_PRINTS = 4;

export async function* readDatabentoFile(
  spec: MarketFileSpec,
  fileIndex: number,
  symbols: SymbolTable,
  options: CsvReadOptions = {},
): AsyncGenerator<TickBatch> {
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  const builder = new TickBatchBuilder(symbols, Math.max(batchRows, BAR_PRINTS));
  const batches: TickBatch[] = [];
  const makeRoom = (): void => {
    if (builder.room < BAR_PRINTS) batches.push(builder.take());
  };
  const only = spec.instrument;
  // The spec's instrument picks the contract (ESH4) or the root (ES) read from a file of several.
  const keep = only === undefined ? {} : { keep: (symbol: string) => symbol === only || rootOf(symbol) === only };
  const checked = spec.sha256 === undefined ? {} : { sha256: spec.sha256 };
  await decodeDatabentoFile(
    spec.path,
    symbols,
    {
      trade: (timeMs, instrument, priceTicks, size, line) => {
        builder.push(timeMs, priceTicks, size, instrument.index, line, fileIndex);
        makeRoom();
      },
      bar: (bar, instrument, line) => {
        pushBarPrints(builder, bar, instrument.index, line, fileIndex);
        makeRoom();
      },
    },
    { ...keep, ...checked },
  );
  batches.push(builder.take());
  yield* sortPrints(batches, symbols, batchRows);
}

function rootOf(symbol: string): string | undefined {
  try {
    return parseSymbol(symbol).root;
  } catch {
    return undefined; // an unknown root: read, and refused by the reader with its line
  }
}
