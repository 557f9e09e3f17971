// Market files as one stream of print batches: each file read by its format's reader, the files merged by
// (time, file order, line), and an RxJS edge for the consumers that compose streams.
import { defer, type Observable } from 'rxjs';
import { readBarCsv } from './bar-csv-reader.js';
import type { CsvReadOptions } from './csv-print-reader.js';
import { readDatabentoFile } from './databento-reader.js';
import type { MarketFileSpec } from './market-file-spec.js';
import { mergePrintSources } from './merge-print-sources.js';
import { SymbolTable } from './symbol-table.js';
import type { TickBatch } from './tick-batch.js';
import { readTickCsv } from './tick-csv-reader.js';

/** One file's prints, by its format. */
export function readMarketFile(
  spec: MarketFileSpec,
  fileIndex: number,
  symbols: SymbolTable,
  options?: CsvReadOptions,
): AsyncGenerator<TickBatch> {
  if (spec.format === 'databento') return readDatabentoFile(spec, fileIndex, symbols, options);
  return spec.format === 'bars'
    ? readBarCsv(spec, fileIndex, symbols, options)
    : readTickCsv(spec, fileIndex, symbols, options);
}

/** All files' prints merged in (time, file order, line) order; `fileIndex` is the position in `specs`. */
export function marketPrintBatches(
  specs: readonly MarketFileSpec[],
  symbols = new SymbolTable(),
  options?: CsvReadOptions,
): AsyncGenerator<TickBatch> {
  if (specs.length > 0x10000) throw new RangeError('at most 65536 market files can be merged');
  const sources = specs.map((spec, fileIndex) => readMarketFile(spec, fileIndex, symbols, options));
  return mergePrintSources(sources, symbols, options?.batchRows);
}

/**
 * The merged prints as an Observable. Each subscription opens the files afresh and reads them as it takes
 * batches (nothing is read ahead); unsubscribing closes them. Every batch carries the shared SymbolTable.
 */
export function marketPrints$(
  specs: readonly MarketFileSpec[],
  symbols = new SymbolTable(),
  options?: CsvReadOptions,
): Observable<TickBatch> {
  return defer(() => marketPrintBatches(specs, symbols, options));
}
