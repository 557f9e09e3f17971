import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTimeMs } from '../../src/core/time.js';
import { parseIsoTimeMs, parseUtcStampMs } from '../../src/market/byte-times.js';

const pad = (value: number, width: number) => String(value).padStart(width, '0');

function slow(text: string): number {
  try {
    return parseTimeMs(text, 'ts');
  } catch {
    return NaN;
  }
}

/** A parser run on a field inside a larger buffer, as in a CSV block. */
function inField(parse: (bytes: Uint8Array, start: number, end: number) => number, text: string): number {
  const bytes = Buffer.from(` ${text} `);
  return parse(bytes, 1, bytes.length - 1);
}

const fast = (text: string) => inField(parseIsoTimeMs, text);

// Field values a little past the valid ranges too, so the fast path must refuse what parseTimeMs refuses.
const fields = fc.record({
  year: fc.integer({ min: 1, max: 2400 }),
  month: fc.integer({ min: 0, max: 13 }),
  day: fc.integer({ min: 0, max: 32 }),
  hour: fc.integer({ min: 0, max: 24 }),
  minute: fc.integer({ min: 0, max: 60 }),
  second: fc.integer({ min: 0, max: 60 }),
  fraction: fc.constantFrom('', '.5', '.05', '.123', '.'),
  zone: fc.constantFrom('Z', '+00:00', '-06:00', '+05:30', '+23:59', '-24:00', '+0100', 'z', ''),
});
type Fields = typeof fields extends fc.Arbitrary<infer T> ? T : never;
const dateTime = (t: Fields, separator: string) =>
  `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}${separator}${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}`;

describe('ISO times read from bytes', () => {
  it('accept only what parseTimeMs accepts, with the same instant', () => {
    fc.assert(
      fc.property(fields, (t) => {
        const text = `${dateTime(t, 'T')}${t.fraction}${t.zone}`;
        const value = fast(text);
        if (!Number.isNaN(value)) expect(value, `${text}: the fast path must agree with parseTimeMs`).toBe(slow(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('read timestamp_utc stamps as UTC, refusing impossible ones', () => {
    fc.assert(
      fc.property(fields, (t) => {
        const value = inField(parseUtcStampMs, dateTime(t, ' '));
        if (!Number.isNaN(value))
          expect(value, 'the same instant written as ISO with Z').toBe(slow(`${dateTime(t, 'T')}Z`));
      }),
      { numRuns: 5_000 },
    );
    expect(inField(parseUtcStampMs, '2024-01-01 23:01:00')).toBe(Date.UTC(2024, 0, 1, 23, 1));
    expect(inField(parseUtcStampMs, '2023-02-29 00:00:00'), 'no 29 February in 2023').toBeNaN();
  });

  it('handle the usual shapes themselves', () => {
    for (const text of ['2026-03-02T09:00:00-06:00', '2026-03-02T15:00:00.002Z', '2024-02-29T23:59:59.5+05:30']) {
      expect(fast(text), text).toBe(slow(text));
    }
  });
});
