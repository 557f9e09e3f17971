// What the market reader thread (reader-worker.ts) tells the run's thread (reader-thread.ts), and how a reading error
// crosses between them keeping its class: a bad file must still be the user's input error (exit 2) naming the file
// and line, and anything else a bug with its stack.
import { UnknownInstrumentError } from '../core/instruments.js';
import { MarketDataError } from './market-data-error.js';
import type { TickBatch } from './tick-batch.js';

/** Batches the reader posts before the run has taken them: ~4 MB at 4,096 prints a batch. */
export const READ_AHEAD_BATCHES = 32;

/** A batch's columns (their buffers transferred, not copied) and the symbols first seen in it, in order. */
export type BatchColumns = Omit<TickBatch, 'symbols'>;

export type ReaderMessage =
  | { kind: 'batch'; batch: BatchColumns; newSymbols: string[] }
  | { kind: 'end' }
  | { kind: 'error'; error: ThreadError };

export type ThreadError =
  | { type: 'market_data'; file: string; line: number; column: string | undefined; expected: string; received: string }
  | { type: 'unknown_instrument'; symbol: string; detail: string }
  | { type: 'other'; name: string; message: string; stack: string | undefined };

export function threadErrorOf(error: unknown): ThreadError {
  if (error instanceof MarketDataError) {
    const { file, line, column, expected, received } = error;
    return { type: 'market_data', file, line, column, expected, received };
  }
  if (error instanceof UnknownInstrumentError)
    return { type: 'unknown_instrument', symbol: error.symbol, detail: error.detail };
  const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
  return { type: 'other', name, message, stack };
}

export function errorOf(error: ThreadError): Error {
  switch (error.type) {
    case 'market_data':
      return new MarketDataError(error.file, error.line, error.column, error.expected, error.received);
    case 'unknown_instrument':
      return new UnknownInstrumentError(error.symbol, error.detail);
    case 'other': {
      const rebuilt = new Error(error.message);
      rebuilt.name = error.name;
      rebuilt.stack = `${error.stack ?? error.message}\n    (on the market reader thread)`;
      return rebuilt;
    }
  }
}
