// One data row of a market CSV, split into fields by byte offsets, with readers that turn a field's bytes into
// a number. Fields become strings only on the slow paths: ISO times, new symbols and error messages.
import { COMMA, QUOTE } from './byte-codes.js';
import { isoUtc, parseTimeMs, TimeInputError } from '../core/time.js';
import { parseDigits, parseScaledDecimal } from './byte-numbers.js';
import { parseIsoTimeMs, parseUtcStampMs } from './byte-times.js';
import { QUOTING_EXPECTED, type CsvHeader } from './csv-header.js';
import { MarketDataError, quoteText } from './market-data-error.js';
import type { PriceGrid } from './price-grid.js';

export class CsvRow {
  bytes: Buffer = Buffer.alloc(0);
  line = 0;
  private start = 0;
  private end = 0;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly columns: readonly string[];

  constructor(readonly header: CsvHeader) {
    this.columns = header.names;
    this.starts = new Int32Array(this.columns.length);
    this.ends = new Int32Array(this.columns.length);
  }

  /** Splits bytes [start, end) of line `line` into fields; fails on a quote or a wrong number of fields. */
  split(bytes: Buffer, start: number, end: number, line: number): void {
    this.bytes = bytes;
    this.line = line;
    this.start = start;
    this.end = end;
    const { starts, ends } = this;
    const last = this.columns.length - 1;
    let field = 0;
    let fieldStart = start;
    for (let i = start; i < end; i++) {
      const byte = bytes[i]!;
      // Digits, letters, '-' and '.' are all above both: one comparison for most bytes.
      if (byte > COMMA) continue;
      if (byte === COMMA) {
        if (field === last) this.failFieldCount();
        starts[field] = fieldStart;
        ends[field] = i;
        field++;
        fieldStart = i + 1;
      } else if (byte === QUOTE) {
        this.failRow(QUOTING_EXPECTED);
      }
    }
    if (field !== last) this.failFieldCount();
    starts[field] = fieldStart;
    ends[field] = end;
  }

  fieldStart(column: number): number {
    return this.starts[column]!;
  }

  fieldEnd(column: number): number {
    return this.ends[column]!;
  }

  isEmpty(column: number): boolean {
    return this.starts[column] === this.ends[column];
  }

  text(column: number): string {
    return this.bytes.toString('utf8', this.starts[column], this.ends[column]);
  }

  /** Unix ms written as digits or as a common ISO time (the fast paths), or any time parseTimeMs accepts. */
  timeMs(column: number): number {
    const ms = parseDigits(this.bytes, this.starts[column]!, this.ends[column]!);
    return Number.isNaN(ms) ? this.isoTimeMs(column) : ms;
  }

  /** A `YYYY-MM-DD HH:MM:SS` UTC time, the layout of timestamp_utc columns. */
  utcStampMs(column: number): number {
    const ms = parseUtcStampMs(this.bytes, this.starts[column]!, this.ends[column]!);
    if (Number.isNaN(ms)) this.fail(column, 'a UTC time like 2024-01-02 23:01:00');
    return ms;
  }

  priceTicks(column: number, grid: PriceGrid): number {
    const scaled = parseScaledDecimal(this.bytes, this.starts[column]!, this.ends[column]!, grid.decimals);
    const ticks = grid.ticksFromScaled(scaled);
    if (Number.isNaN(ticks)) this.fail(column, grid.expected);
    return ticks;
  }

  /** A whole number of at least `min` (0 or 1). */
  wholeNumber(column: number, min: number): number {
    const value = parseDigits(this.bytes, this.starts[column]!, this.ends[column]!);
    if (!(value >= min)) this.fail(column, min > 0 ? 'a positive whole number' : 'a whole number');
    return value;
  }

  /** Fails unless times keep going forward; `earliestMs` is the earliest time this row may have, for `why`. */
  checkNotBefore(column: number, timeMs: number, earliestMs: number, why: string): void {
    if (timeMs < earliestMs) {
      this.fail(column, `a time at or after ${isoUtc(earliestMs)} (${why}; set sort: true to sort the file)`);
    }
  }

  fail(column: number, expected: string, received = quoteText(this.text(column))): never {
    throw new MarketDataError(this.header.file, this.line, this.columns[column], expected, received);
  }

  failRow(expected: string): never {
    const text = this.bytes.toString('utf8', this.start, this.end);
    throw new MarketDataError(this.header.file, this.line, undefined, expected, quoteText(text));
  }

  private failFieldCount(): never {
    this.failRow(`${this.columns.length} comma-separated fields, one per header column (${this.columns.join(',')})`);
  }

  private isoTimeMs(column: number): number {
    const ms = parseIsoTimeMs(this.bytes, this.starts[column]!, this.ends[column]!);
    return Number.isNaN(ms) ? this.parseTime(column) : ms;
  }

  private parseTime(column: number): number {
    try {
      return parseTimeMs(this.text(column), this.columns[column] ?? 'ts');
    } catch (error) {
      if (error instanceof TimeInputError) this.fail(column, error.expected);
      throw error;
    }
  }
}
