// The journal's lines (src/core/kernel/persistence/journal.ts): exactly the JSON of each entry, numbered in order, whether
// kept in the recent lines or joined into chunks, and read back from any place.
import { describe, expect, it } from 'vitest';
import { Journal, lineType } from '../../../src/core/kernel/persistence/journal.js';
import { MarketPrintCursor, type MarketPrint } from '../../../src/core/kernel/persistence/market-prints.js';

const entryJson = (seq: number, type: string, data?: unknown) =>
  JSON.stringify({ seq, time_ms: 1000 + seq, type, data });

describe('Journal', () => {
  it('writes each line as the JSON of {seq, time_ms, type, data}, data left out when undefined', () => {
    const journal = new Journal();
    journal.record('input.print', 1001, { instrument: 'ESM6', price_ticks: 20_000, note: 'a "quoted"\nline' });
    journal.record('session.rolled', 1002, undefined);
    expect(journal.text()).toBe(
      `${entryJson(1, 'input.print', { instrument: 'ESM6', price_ticks: 20_000, note: 'a "quoted"\nline' })}\n${entryJson(2, 'session.rolled')}\n`,
    );
  });

  it("reads a line's type from its beginning, whatever its data holds", () => {
    const journal = new Journal();
    journal.record('input.place_order', 1001, { body: { type: 'market', note: '"type":"fills.created"' } });
    journal.record('session.rolled', 1002, undefined);
    expect(journal.linesSince(0).map(lineType)).toEqual(['input.place_order', 'session.rolled']);
  });

  it('keeps the same text and lines across chunk boundaries (2,500 lines: two chunks and a tail)', () => {
    const journal = new Journal();
    const expected: string[] = [];
    for (let seq = 1; seq <= 2500; seq++) {
      journal.record('orders.state', 1000 + seq, { n: seq });
      expected.push(entryJson(seq, 'orders.state', { n: seq }));
    }
    expect(journal.length).toBe(2500);
    expect(journal.text()).toBe(expected.join('\n') + '\n');
    for (const from of [0, 1, 1023, 1024, 1025, 2047, 2048, 2049, 2499, 2500])
      expect(journal.linesSince(from), `from ${from}`).toEqual(expected.slice(from));
  });

  it.each([0, 1, 1024, 2500])(
    'lets go of %i lines a store keeps, and goes on numbering and reading after them',
    (count) => {
      const journal = new Journal();
      for (let seq = 1; seq <= count; seq++) journal.record('orders.state', 1000 + seq, { n: seq });
      journal.letGo();
      expect(journal.length, 'the count goes on').toBe(count);
      expect(journal.linesSince(count), 'nothing held').toEqual([]);
      for (let n = 1; n <= 1100; n++) journal.record('orders.state', 9999, { n });
      expect(journal.length).toBe(count + 1100);
      const after = journal.linesSince(count).map((line) => JSON.parse(line) as { seq: number; data: unknown });
      expect(after.map((entry) => entry.data)).toEqual(Array.from({ length: 1100 }, (_, i) => ({ n: i + 1 })));
      expect(after[0]!.seq, 'numbered after the lines let go of').toBe(count + 1);
      expect(journal.linesSince(count + 1024)).toHaveLength(76);
      if (count > 0) {
        expect(() => journal.linesSince(count - 1), 'a line let go of is not made up').toThrow(/let go of/);
        expect(() => journal.text(), 'a text without its first lines is not given').toThrow(/the store keeps them/);
      } else expect(journal.linesSince(0)).toHaveLength(1100);
    },
  );

  it('numbers lines it does not keep, and keeps only the types asked for', () => {
    const journal = new Journal(true, new Set(['fills.created']));
    journal.record('orders.state', 1001, { a: 1 });
    journal.record('fills.created', 1002, { b: 2 });
    expect(journal.linesSince(0)).toEqual([entryJson(2, 'fills.created', { b: 2 })]);
    expect(journal.complete).toBe(false);
    const off = new Journal(false);
    off.record('fills.created', 1, {});
    expect(off.text()).toBe('');
  });

  it('docs/scenarios.md#the-journal: counted market prints become one input.market_prints line before the next line, and at the end', () => {
    const journal = new Journal();
    journal.record('input.market_files', 1000, { files: [] });
    journal.countMarketPrint(1005);
    journal.countMarketPrint(1007);
    journal.record('fills.created', 1007, { a: 1 });
    journal.countMarketPrint(1009);
    expect(journal.text()).toBe(
      [
        JSON.stringify({ seq: 1, time_ms: 1000, type: 'input.market_files', data: { files: [] } }),
        JSON.stringify({ seq: 2, time_ms: 1007, type: 'input.market_prints', data: { from: 0, to: 2 } }),
        JSON.stringify({ seq: 3, time_ms: 1007, type: 'fills.created', data: { a: 1 } }),
        JSON.stringify({ seq: 4, time_ms: 1009, type: 'input.market_prints', data: { from: 2, to: 3 } }),
      ].join('\n') + '\n',
    );
    expect(journal.length).toBe(4);
  });

  it('docs/architecture.md#the-journal-goes-out-as-it-is-written: an out gets the same bytes in chunks of whole lines, and nothing is kept', () => {
    const chunks: string[] = [];
    const out = new Journal(true, undefined, { write: (chunk) => void chunks.push(chunk) });
    const kept = new Journal();
    for (let seq = 1; seq <= 300; seq++) {
      for (const journal of [out, kept]) {
        journal.record('orders.state', 1000 + seq, { n: seq });
        if (seq % 7 === 0) journal.countMarketPrint(1000 + seq);
      }
    }
    expect(chunks.length, 'chunks go out as the lines come, before the end').toBeGreaterThan(0);
    expect(
      chunks.every((chunk) => chunk.endsWith('\n') && !chunk.startsWith('\n')),
      'whole lines',
    ).toBe(true);
    const linesBeforeFlush = chunks.join('').split('\n').length - 1;
    expect(out.linesSince(linesBeforeFlush), 'the lines not handed over yet are held').toHaveLength(
      out.length - linesBeforeFlush,
    );
    expect(() => out.linesSince(linesBeforeFlush - 1), 'a line handed over is not held').toThrow(/went out/);
    out.countMarketPrint(1301);
    out.flush();
    kept.countMarketPrint(1301);
    expect(chunks.join(''), 'the same bytes as a journal kept in memory').toBe(kept.text());
    expect(out.length).toBe(kept.length);
    expect(() => out.text(), 'a journal that went out is read where it went').toThrow(/went out/);
    out.flush();
    expect(chunks.join(''), 'a second flush hands over nothing').toBe(kept.text());
  });
});

describe('MarketPrintCursor', () => {
  const prints: MarketPrint[] = [0, 1, 2].map((i) => ({ symbol: 'ESM6', priceTicks: 20_000 + i, size: 1, timeMs: i }));

  it('hands out consecutive ranges of the stream', () => {
    const cursor = new MarketPrintCursor(prints);
    expect([...cursor.range(0, 2)].map((p) => p.priceTicks)).toEqual([20_000, 20_001]);
    expect([...cursor.range(2, 2)]).toEqual([]);
    expect([...cursor.range(2, 3)].map((p) => p.priceTicks)).toEqual([20_002]);
  });

  it('refuses a range that skips or repeats prints, and one beyond the files', () => {
    const cursor = new MarketPrintCursor(prints);
    expect(() => [...cursor.range(1, 2)]).toThrow(/market prints 1\.\.2 do not follow the prints read so far \(0\)/);
    expect(() => [...cursor.range(0, 5)]).toThrow(/the journal consumed 5 market prints but the market files hold 3/);
  });
});
