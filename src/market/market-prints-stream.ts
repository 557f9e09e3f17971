// The market files as an RxJS stream of print batches, for the consumers that compose streams (a replay): read on
// the run's thread, or on a reader thread when the files are large (reader-thread.ts).
import { defer, type Observable } from 'rxjs';
import type { CsvReadOptions } from './csv-print-reader.js';
import type { MarketFileSpec } from './market-file-spec.js';
import { marketPrintBatchesOnThread, worthAReaderThread } from './reader-thread.js';
import { marketPrintBatches } from './sources.js';
import { SymbolTable } from './symbol-table.js';
import type { TickBatch } from './tick-batch.js';

export interface MarketReadOptions extends CsvReadOptions {
  /** Read on a thread of its own (reader-thread.ts); by default, when the files are large and there is a core. */
  readerThread?: boolean;
}

/**
 * The merged prints as an Observable. Each subscription opens the files afresh and reads them as it takes
 * batches (on this thread nothing is read ahead; a reader thread reads a few megabytes ahead); unsubscribing closes
 * them. Every batch carries the shared SymbolTable.
 */
export function marketPrints$(
  specs: readonly MarketFileSpec[],
  symbols = new SymbolTable(),
  options: MarketReadOptions = {},
): Observable<TickBatch> {
  return defer(() => openMarketPrints(specs, symbols, options));
}

/**
 * The merged prints' batches, the reading started now when it is on a thread (so the thread loads while the caller
 * gets ready). Give it to a consumer that reads it to its end or calls return(), as for-await and RxJS's from() do.
 */
export function openMarketPrints(
  specs: readonly MarketFileSpec[],
  symbols = new SymbolTable(),
  options: MarketReadOptions = {},
): AsyncIterableIterator<TickBatch> {
  const { readerThread = worthAReaderThread(specs), ...reading } = options;
  return readerThread
    ? marketPrintBatchesOnThread(specs, symbols, reading)
    : marketPrintBatches(specs, symbols, reading);
}
