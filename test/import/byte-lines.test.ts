// ByteLines writes the import's lines as bytes: each must be the text String() would have written, byte for byte,
// so the output stays identical to the one built from strings.
import { describe, expect, it } from 'vitest';
import { ByteLines } from '../../src/import/byte-lines.js';

function written(write: (lines: ByteLines) => void): string {
  const lines = new ByteLines(4);
  lines.room();
  write(lines);
  return lines.written().toString('latin1');
}

describe('ByteLines', () => {
  it('writes whole numbers as String() does, on both sides of the 10^8 split and at the safe-integer limit', () => {
    const values = [0, 7, 10, 99_999_999, 100_000_000, 100_000_007, 1_704_205_800_123, Number.MAX_SAFE_INTEGER];
    for (const value of [...values, ...values.map((v) => -v).filter((v) => v < 0)])
      expect(written((lines) => lines.integer(value))).toBe(String(value));
  });

  it('joins numbers and texts into a line: 1704205800000,ESH4,4770.25,2', () => {
    const line = written((lines) => {
      lines.integer(1_704_205_800_000);
      lines.comma();
      lines.text(Buffer.from('ESH4'));
      lines.comma();
      lines.text(Buffer.from('4770.25'));
      lines.comma();
      lines.integer(2);
      lines.newline();
    });
    expect(line).toBe('1704205800000,ESH4,4770.25,2\n');
  });

  it('grows past its first capacity and keeps what it held', () => {
    const lines = new ByteLines(1);
    lines.room();
    lines.text(Buffer.from('abc'));
    lines.room();
    lines.copy(Buffer.from('xdefx'), 1, 4);
    expect(lines.written().toString('latin1')).toBe('abcdef');
  });
});
