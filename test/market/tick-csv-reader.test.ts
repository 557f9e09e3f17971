import { afterAll, describe, expect, it } from 'vitest';
import { SymbolTable } from '../../src/market/symbol-table.js';
import { readTickCsv } from '../../src/market/tick-csv-reader.js';
import { collectRows, tempFiles } from './market-test-files.js';

const files = tempFiles();
afterAll(() => files.remove());

const read = (path: string, options = {}) =>
  collectRows(readTickCsv({ path, format: 'ticks' }, 0, new SymbolTable(), options));

describe('ticks files', () => {
  it('reads ISO 8601 and Unix ms timestamps alike', async () => {
    const path = files.write(
      'times.csv',
      'ts,instrument,price\n2026-03-02T09:00:00-06:00,ESM6,5000.25\n1772463600001,ESM6,5000.50\n2026-03-02T15:00:00.002Z,ESM6,5000\n',
    );
    const rows = await read(path);
    expect(
      rows.map((r) => r.timeMs),
      'the -06:00 offset and Z both name the same instant as the ms integer',
    ).toEqual([1772463600000, 1772463600001, 1772463600002]);
  });

  it('converts prices to exact integer ticks of the instrument (ES 0.25, ZN 1/64, 6E 0.00005)', async () => {
    const path = files.write(
      'grids.csv',
      'ts,instrument,price\n1,ESM6,5000.25\n2,ZNM6,110.015625\n3,6EH6,1.09435\n4,ESM6,5000.250\n5,CLM6,-37.63\n',
    );
    const rows = await read(path);
    expect(
      rows.map((r) => [r.symbol, r.priceTicks]),
      'price / tick size, exactly; a trailing zero and a negative price are fine',
    ).toEqual([
      ['ESM6', 20001],
      ['ZNM6', 7041],
      ['6EH6', 21887],
      ['ESM6', 20001],
      ['CLM6', -3763],
    ]);
  });

  it('treats a missing size column or an empty size cell as no size limit', async () => {
    const withSize = await read(files.write('size.csv', 'ts,instrument,price,size\n1,ESM6,5000,3\n2,ESM6,5000,\n'));
    expect(
      withSize.map((r) => r.size),
      'an empty cell means the print fills any quantity',
    ).toEqual([3, Infinity]);
    const withoutSize = await read(files.write('nosize.csv', 'ts,instrument,price\n1,ESM6,5000\n'));
    expect(withoutSize[0]?.size, 'no size column means no limit').toBe(Infinity);
  });

  it('matches columns by header name in any order', async () => {
    const rows = await read(files.write('order.csv', 'price,size,ts,instrument\n5000.75,2,7,NQM6\n'));
    expect(rows).toEqual([{ timeMs: 7, priceTicks: 20003, size: 2, symbol: 'NQM6', line: 2, fileIndex: 0 }]);
  });

  it('is not thrown off by chunk boundaries, CRLF line ends, blank lines or a last line without newline', async () => {
    const lines = Array.from(
      { length: 300 },
      (_, i) => `${1000 + i},${i % 2 ? 'ESM6' : 'ZNM6'},${i % 2 ? '5000.25' : '110.015625'},${1 + (i % 7)}`,
    );
    const text = `ts,instrument,price,size\r\n${lines.slice(0, 150).join('\r\n')}\r\n\r\n${lines.slice(150).join('\n')}`;
    const path = files.write('chunks.csv', text);
    const expected = await read(path);
    expect(expected).toHaveLength(300);
    expect(expected[299]?.line, 'the blank line still counts as a line').toBe(302);
    for (const highWaterMarkBytes of [1, 2, 3, 7, 64]) {
      const rows = await read(path, { highWaterMarkBytes, batchRows: 16 });
      expect(rows, `reads of ${highWaterMarkBytes} bytes must give the same prints`).toEqual(expected);
    }
    const gzRows = await read(files.write('chunks.csv.gz', text), { highWaterMarkBytes: 5 });
    expect(gzRows, 'a gzipped copy reads the same').toEqual(expected);
  });

  it('hands out batches of at most batchRows prints', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `${i},ESM6,5000`);
    const batches = [];
    for await (const batch of readTickCsv(
      { path: files.write('batches.csv', `ts,instrument,price\n${lines.join('\n')}\n`), format: 'ticks' },
      3,
      new SymbolTable(),
      { batchRows: 4 },
    )) {
      batches.push(batch);
    }
    expect(batches.map((b) => b.length)).toEqual([4, 4, 2]);
    expect(Array.from(batches[0]!.fileIndex), 'every print carries the file index it was read with').toEqual([
      3, 3, 3, 3,
    ]);
  });

  it('checks rows against the instrument key when the file has both', async () => {
    const spec = {
      path: files.write('keyed.csv', 'ts,price\n1,1.09435\n'),
      format: 'ticks' as const,
      instrument: '6EH6',
    };
    const rows = await collectRows(readTickCsv(spec, 0, new SymbolTable()));
    expect(rows[0]?.symbol, 'without an instrument column the key names every row').toBe('6EH6');
  });
});
