// propsim's own fills CSV (docs/backtesting.md#historical-fills) read as a broker export is: every bad row named by
// its real line (blank lines and quoted line breaks counted), a line over the limit refused with file:line
// (docs/market-data.md#line-length), a file csv-parse cannot read named, and a UTF-8 BOM passed over.
import { afterAll, describe, expect, it } from 'vitest';
import { readTraderFills } from '../../../src/backtest/fills/trader-fills.js';
import { MAX_LINE_BYTES } from '../../../src/market/line-blocks.js';
import { tempFiles } from '../../market/market-test-files.js';

const files = tempFiles();
afterAll(() => files.remove());
const HEADER = 'ts,trader,instrument,side,quantity,price';
const ROW = '2026-03-10T14:00:00Z,t1,ESM6,buy,1,5000.00';

describe("readTraderFills: propsim's fills CSV", () => {
  it('reads the rows in time order, trimmed, past a UTF-8 BOM', () => {
    const path = files.write('ok.csv', `\ufeff${HEADER}\n2026-03-10T14:01:00Z, t2 ,ESM6,sell,2,5001.25\n${ROW}\n`);
    expect(readTraderFills(path).map((f) => [f.trader, f.timeMs])).toEqual([
      ['t1', Date.parse('2026-03-10T14:00:00Z')],
      ['t2', Date.parse('2026-03-10T14:01:00Z')],
    ]);
  });

  it('names the line of a bad row as the file has it, blank lines and a quoted line break counted', () => {
    // Line 1 header, 2 a row, 3 blank, 4-5 one row whose trader holds a line break, 6 blank, 7 the bad side.
    const text = `${HEADER}\n${ROW}\n\n2026-03-10T14:00:01Z,"t\n2",ESM6,buy,1,5000.00\n\n2026-03-10T14:00:02Z,t1,ESM6,hold,1,5000.00\n`;
    expect(() => readTraderFills(files.write('bad-side.csv', text))).toThrow(/bad-side\.csv:7\b/);
  });

  it('refuses a line over the limit with file:line instead of reading it whole', () => {
    const long = `2026-03-10T14:00:01Z,${'x'.repeat(MAX_LINE_BYTES)},ESM6,buy,1,5000.00`;
    expect(() => readTraderFills(files.write('long.csv', `${HEADER}\n${ROW}\n${long}\n`))).toThrow(
      /long\.csv:3\b.*line/,
    );
  });

  it('names the file and line of a quote never closed', () => {
    const text = `${HEADER}\n${ROW}\n2026-03-10T14:00:01Z,"t1,ESM6,buy,1,5000.00\n`;
    expect(() => readTraderFills(files.write('quote.csv', text))).toThrow(/quote\.csv:\d+: expected a CSV file/);
  });
});
