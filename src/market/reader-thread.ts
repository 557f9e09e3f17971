// A long replay's market files read on a thread of their own (reader-worker.ts): parsing the CSV was about half of
// what a replay spent per print, and the kernel needs the run's thread for the other half; with a second core the
// two overlap. The batches are the ones marketPrintBatches gives on the run's thread, in the same order, with the
// same instrument indexes (the reader names each symbol as it first appears, and this side registers it in turn).
import { availableParallelism } from 'node:os';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CsvReadOptions } from './csv-print-reader.js';
import { packageRoot } from './holiday-file.js';
import type { MarketFileSpec } from './market-file-spec.js';
import { errorOf, type ReaderMessage } from './reader-messages.js';
import type { SymbolTable } from './symbol-table.js';
import type { TickBatch } from './tick-batch.js';

/**
 * Files this large in all are read on a thread: below it, starting the thread (~0.1 s on our 2-core VMs) costs more
 * than the parsing it takes off the run's thread (~130 MB/s).
 */
export const READER_THREAD_BYTES = 16 * 1024 * 1024;

/** Whether reading `specs` on a thread of its own is worth it: a second core, and enough bytes. */
export function worthAReaderThread(specs: readonly MarketFileSpec[]): boolean {
  if (availableParallelism() < 2) return false;
  let bytes = 0;
  for (const spec of specs) {
    try {
      bytes += statSync(spec.path).size;
    } catch {
      // The reader reports a missing file, on whichever thread it runs.
    }
  }
  return bytes >= READER_THREAD_BYTES;
}

/**
 * marketPrintBatches(specs, symbols, options), read on a worker thread that starts now: it loads and reads ahead
 * while the caller gets ready. End it with return() (a for-await loop does) if it is not read to its end.
 */
export function marketPrintBatchesOnThread(
  specs: readonly MarketFileSpec[],
  symbols: SymbolTable,
  options: CsvReadOptions = {},
): AsyncIterableIterator<TickBatch> & { return(): Promise<IteratorResult<TickBatch>> } {
  // The compiled worker: the CLI and the tests both run after `npm run build`.
  const worker = new Worker(join(packageRoot(), 'dist', 'src', 'market', 'reader-worker.js'), {
    workerData: { specs, options },
  });
  const inbox = new Inbox(worker);
  let ended = false;
  const end = async (): Promise<IteratorResult<TickBatch>> => {
    ended = true;
    await worker.terminate();
    return { done: true, value: undefined };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (ended) return { done: true, value: undefined };
      let message: ReaderMessage;
      try {
        message = await inbox.next();
      } catch (error) {
        if (ended) return { done: true, value: undefined }; // return() stopped the thread while this waited
        await end();
        throw error;
      }
      if (message.kind === 'end') return end();
      if (message.kind === 'error') {
        await end();
        throw errorOf(message.error);
      }
      for (const symbol of message.newSymbols) symbols.register(symbol);
      worker.postMessage(null); // room for one more batch ahead
      return { done: false, value: { ...message.batch, symbols } };
    },
    return: end,
  };
}

/** The reader's messages in order; a thread that stops without saying it is done is an error. */
class Inbox {
  private readonly queue: (ReaderMessage | Error)[] = [];
  private waiting: ((message: ReaderMessage | Error) => void) | undefined;

  constructor(worker: Worker) {
    worker.on('message', (message: ReaderMessage) => this.put(message));
    worker.on('error', (error: Error) => this.put(error));
    worker.on('exit', (code) =>
      this.put(new Error(`the market reader thread stopped (exit code ${code}) before the end of the files`)),
    );
  }

  async next(): Promise<ReaderMessage> {
    const message =
      this.queue.shift() ?? (await new Promise<ReaderMessage | Error>((resolve) => (this.waiting = resolve)));
    if (message instanceof Error) throw message;
    return message;
  }

  private put(message: ReaderMessage | Error): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting(message);
    else this.queue.push(message);
  }
}
