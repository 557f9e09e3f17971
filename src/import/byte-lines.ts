// Output lines of ASCII written as bytes into one growing buffer: whole numbers as digits, texts as bytes made
// once. The import writes millions of short lines; building them as strings cost a third of its time in string
// concatenation, UTF-8 encoding and garbage collection (docs/market-data.md#databento).
import { COMMA, DASH, NEWLINE, ZERO } from '../market/byte-codes.js';

const LOW_DIGITS = 8;
const LOW_PART = 10 ** LOW_DIGITS;

/** Longer than any line of the import: room checked once a line, not once a field. */
const LINE_ROOM = 1024;

export class ByteLines {
  bytes: Buffer;
  /** Bytes written so far. */
  length = 0;

  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafe(capacity);
  }

  /** Makes room for one more line, growing the buffer when needed. */
  room(): void {
    if (this.length + LINE_ROOM <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.bytes.length, this.length + LINE_ROOM));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  /** A safe integer as digits, `-` first when negative (an ASCII text of it, byte for byte). */
  integer(value: number): void {
    if (value < 0) {
      this.bytes[this.length++] = DASH;
      value = -value;
    }
    let digits = 1;
    // Powers of ten are exact doubles well past a safe integer's 16 digits.
    for (let power = 10; power <= value; power *= 10) digits++;
    const end = this.length + digits;
    this.length = end;
    // Below 10^8 the digits come from 32-bit integer arithmetic; above, the low eight first, then the rest.
    if (value < LOW_PART) {
      this.smallDigits(value, end, digits);
      return;
    }
    const high = Math.floor(value / LOW_PART);
    this.smallDigits(value - high * LOW_PART, end, LOW_DIGITS);
    this.smallDigits(high, end - LOW_DIGITS, digits - LOW_DIGITS);
  }

  /** `count` digits of `value` (< 2^31), zeros in front, ending before `end`. */
  private smallDigits(value: number, end: number, count: number): void {
    for (let at = end - 1; at >= end - count; at--) {
      const rest = (value / 10) | 0;
      this.bytes[at] = ZERO + value - rest * 10;
      value = rest;
    }
  }

  text(ascii: Uint8Array): void {
    this.bytes.set(ascii, this.length);
    this.length += ascii.length;
  }

  comma(): void {
    this.bytes[this.length++] = COMMA;
  }

  newline(): void {
    this.bytes[this.length++] = NEWLINE;
  }

  /** Bytes [start, end) appended: a line of this or another buffer copied. */
  copy(from: Buffer, start: number, end: number): void {
    from.copy(this.bytes, this.length, start, end);
    this.length += end - start;
  }

  /** The bytes written, valid until the next write or clear. */
  written(): Buffer {
    return this.bytes.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }
}
