// Trade prints in batches of columns: what every market reader yields and the replay hot path consumes.
//
// A TickBatch holds `length` prints; each column array is exactly `length` long and row i of every column
// describes print i. Batches are in (timeMs, fileIndex, line) order within themselves and across the batches
// of one source. A batch is handed over, never reused or written to afterwards by its producer.
//
//   timeMs          Unix ms of the print.
//   priceTicks      integer ticks of the instrument's tick size (ES 5000.25 -> 20001).
//   size            most contracts the print can fill; Infinity when the file gives no size.
//   instrumentIndex index into `symbols`, stable across all batches and files of one merged source.
//   line            1-based source line, the header being line 1 (a bar's four prints share its line).
//   fileIndex       position of the source file in the list it was given in.
import type { SymbolTable } from './symbol-table.js';

export interface TickBatch {
  readonly length: number;
  readonly timeMs: Float64Array;
  readonly priceTicks: Float64Array;
  readonly size: Float64Array;
  readonly instrumentIndex: Uint16Array;
  readonly line: Uint32Array;
  readonly fileIndex: Uint16Array;
  readonly symbols: SymbolTable;
}

export const DEFAULT_BATCH_ROWS = 4096;

/** Below this many rows a loop beats six subarray views and copies (merges of interleaved files). */
const BULK_COPY_ROWS = 32;

/** Fills fixed-capacity columns and hands them out as a TickBatch, starting over with fresh arrays. */
export class TickBatchBuilder {
  length = 0;
  private timeMs!: Float64Array;
  private priceTicks!: Float64Array;
  private size!: Float64Array;
  private instrumentIndex!: Uint16Array;
  private line!: Uint32Array;
  private fileIndex!: Uint16Array;

  constructor(
    readonly symbols: SymbolTable,
    readonly capacity = DEFAULT_BATCH_ROWS,
  ) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new RangeError('batch capacity must be a positive integer');
    this.allocate();
  }

  get room(): number {
    return this.capacity - this.length;
  }

  push(
    timeMs: number,
    priceTicks: number,
    size: number,
    instrumentIndex: number,
    line: number,
    fileIndex: number,
  ): void {
    const i = this.length++;
    this.timeMs[i] = timeMs;
    this.priceTicks[i] = priceTicks;
    this.size[i] = size;
    this.instrumentIndex[i] = instrumentIndex;
    this.line[i] = line;
    this.fileIndex[i] = fileIndex;
  }

  /** Appends rows [from, to) of a batch; the caller keeps within `room`. */
  pushRange(batch: TickBatch, from: number, to: number): void {
    if (to - from < BULK_COPY_ROWS) {
      for (let i = from; i < to; i++) {
        this.push(
          batch.timeMs[i]!,
          batch.priceTicks[i]!,
          batch.size[i]!,
          batch.instrumentIndex[i]!,
          batch.line[i]!,
          batch.fileIndex[i]!,
        );
      }
      return;
    }
    const at = this.length;
    this.timeMs.set(batch.timeMs.subarray(from, to), at);
    this.priceTicks.set(batch.priceTicks.subarray(from, to), at);
    this.size.set(batch.size.subarray(from, to), at);
    this.instrumentIndex.set(batch.instrumentIndex.subarray(from, to), at);
    this.line.set(batch.line.subarray(from, to), at);
    this.fileIndex.set(batch.fileIndex.subarray(from, to), at);
    this.length += to - from;
  }

  /** The rows so far as a batch; the builder continues with new arrays. */
  take(): TickBatch {
    const { timeMs, priceTicks, size, instrumentIndex, line, fileIndex, symbols } = this;
    const full: TickBatch = {
      length: this.capacity,
      timeMs,
      priceTicks,
      size,
      instrumentIndex,
      line,
      fileIndex,
      symbols,
    };
    const batch = sliceBatch(full, 0, this.length);
    this.allocate();
    return batch;
  }

  private allocate(): void {
    const n = this.capacity;
    this.length = 0;
    this.timeMs = new Float64Array(n);
    this.priceTicks = new Float64Array(n);
    this.size = new Float64Array(n);
    this.instrumentIndex = new Uint16Array(n);
    this.line = new Uint32Array(n);
    this.fileIndex = new Uint16Array(n);
  }
}

/** Rows [from, to) of a batch as a batch of its own, sharing the arrays. */
export function sliceBatch(batch: TickBatch, from: number, to = batch.length): TickBatch {
  return {
    length: to - from,
    timeMs: batch.timeMs.subarray(from, to),
    priceTicks: batch.priceTicks.subarray(from, to),
    size: batch.size.subarray(from, to),
    instrumentIndex: batch.instrumentIndex.subarray(from, to),
    line: batch.line.subarray(from, to),
    fileIndex: batch.fileIndex.subarray(from, to),
    symbols: batch.symbols,
  };
}
