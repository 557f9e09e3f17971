// The thread that reads a long replay's market files (reader-thread.ts): it parses and merges them as
// marketPrintBatches does on any thread, and posts each batch, at most READ_AHEAD_BATCHES ahead of the batches the run
// has taken, so a fast reader does not fill the memory with a file the run is slow to use. A batch's columns are
// transferred, not copied: a batch owns its arrays (tick-batch.ts), and a copy into fresh memory was a sixth of the
// thread's time.
import { parentPort, workerData } from 'node:worker_threads';
import type { CsvReadOptions } from './csv-print-reader.js';
import type { MarketFileSpec } from './market-file-spec.js';
import { READ_AHEAD_BATCHES, threadErrorOf, type ReaderMessage } from './reader-messages.js';
import type { TickBatch } from './tick-batch.js';
import { marketPrintBatches } from './sources.js';
import { SymbolTable } from './symbol-table.js';

const { specs, options } = workerData as { specs: MarketFileSpec[]; options: CsvReadOptions };
const port = parentPort!;
let credit = READ_AHEAD_BATCHES;
let wake: (() => void) | undefined;
port.on('message', () => {
  credit++;
  wake?.();
});

const post = (message: ReaderMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

try {
  const symbols = new SymbolTable();
  let symbolsSent = 0;
  for await (const batch of marketPrintBatches(specs, symbols, options)) {
    while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
    credit--;
    const newSymbols: string[] = [];
    for (; symbolsSent < symbols.size; symbolsSent++) newSymbols.push(symbols.symbol(symbolsSent));
    const { symbols: _, ...columns } = batch;
    post({ kind: 'batch', batch: columns, newSymbols }, buffersOf(batch));
  }
  post({ kind: 'end' });
} catch (error) {
  post({ kind: 'error', error: threadErrorOf(error) });
}
port.close();

/** The buffers under a batch's columns, each once; a column already handed over is a producer that broke the rule. */
function buffersOf(batch: TickBatch): ArrayBuffer[] {
  const columns = [batch.timeMs, batch.priceTicks, batch.size, batch.instrumentIndex, batch.line, batch.fileIndex];
  if (batch.length > 0 && columns.some((column) => column.length !== batch.length))
    throw new Error('a batch shares its columns with a batch already posted: a batch must own its arrays');
  return [...new Set(columns.map((column) => column.buffer as ArrayBuffer))];
}
