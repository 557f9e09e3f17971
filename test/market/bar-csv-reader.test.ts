import { afterAll, describe, expect, it } from 'vitest';
import { readBarCsv } from '../../src/market/bar-csv-reader.js';
import type { MarketFileSpec } from '../../src/market/market-file-spec.js';
import { SymbolTable } from '../../src/market/symbol-table.js';
import { collectRows, tempFiles } from './market-test-files.js';

const files = tempFiles();
afterAll(() => files.remove());

const read = (spec: Omit<MarketFileSpec, 'format'>) =>
  collectRows(readBarCsv({ ...spec, format: 'bars' }, 0, new SymbolTable()));

describe('bars files', () => {
  it('replays a rising bar as O,L,H,C and a falling one as O,H,L,C', async () => {
    const path = files.write('order.csv', 'ts,open,high,low,close\n0,5000,5002,4999,5001\n60000,5001,5003,4998,5000\n');
    const rows = await read({ path, instrument: 'ESM6' });
    const prices = rows.map((r) => r.priceTicks / 4);
    expect(prices.slice(0, 4), 'close >= open: the low is visited before the high').toEqual([5000, 4999, 5002, 5001]);
    expect(prices.slice(4), 'close < open: the high is visited before the low').toEqual([5001, 5003, 4998, 5000]);
  });

  it('treats a flat bar (close = open) as rising', async () => {
    const rows = await read({
      path: files.write('flat.csv', 'ts,open,high,low,close\n0,5000,5001,4999,5000\n'),
      instrument: 'ESM6',
    });
    expect(rows.map((r) => r.priceTicks / 4)).toEqual([5000, 4999, 5001, 5000]);
  });

  it('prints at the start, one third, two thirds and the last ms of the bar', async () => {
    const path = files.write('times.csv', 'ts,open,high,low,close\n2026-03-02T15:00:00Z,5000,5000,5000,5000\n');
    const start = Date.UTC(2026, 2, 2, 15);
    const minute = await read({ path, instrument: 'ESM6' });
    expect(
      minute.map((r) => r.timeMs - start),
      'bar_ms defaults to 60000',
    ).toEqual([0, 20000, 40000, 59999]);
    const odd = await read({ path, instrument: 'ESM6', bar_ms: 1000 });
    expect(
      odd.map((r) => r.timeMs - start),
      'floor(1000/3) and floor(2000/3)',
    ).toEqual([0, 333, 666, 999]);
  });

  it('splits the volume into four whole sizes, the remainder to the first prints', async () => {
    const path = files.write(
      'volume.csv',
      'ts,open,high,low,close,volume\n0,1,1,1,1,10\n60000,1,1,1,1,3\n120000,1,1,1,1,\n',
    );
    const rows = await read({ path, instrument: 'YMM6' });
    expect(rows.map((r) => r.size)).toEqual([3, 3, 2, 2, 1, 1, 1, 0, Infinity, Infinity, Infinity, Infinity]);
  });

  it('gives prints no size limit when there is no volume column', async () => {
    const rows = await read({
      path: files.write('novolume.csv', 'ts,open,high,low,close\n0,1,1,1,1\n'),
      instrument: 'YMM6',
    });
    expect(rows.map((r) => r.size)).toEqual([Infinity, Infinity, Infinity, Infinity]);
  });

  it('reads timestamp_utc as the end of the bar', async () => {
    const path = files.write(
      'end.csv',
      'timestamp_utc,open,high,low,close,volume\n2024-01-01 23:01:00,1.1076,1.10785,1.1076,1.1078,205\n',
    );
    const rows = await read({ path, instrument: '6EH4' });
    const endMs = Date.UTC(2024, 0, 1, 23, 1);
    expect(rows[0]?.timeMs, 'the bar stamped 23:01 started at 23:00').toBe(endMs - 60_000);
    expect(rows[3]?.timeMs, 'its close prints one ms before the stamp').toBe(endMs - 1);
    expect(rows.map((r) => r.priceTicks)).toEqual([22152, 22152, 22157, 22156]);
  });

  it('takes the instrument from a column, from the spec key, or from both when they agree', async () => {
    const withColumn = files.write('column.csv', 'ts,instrument,open,high,low,close\n0,NQM6,1,1,1,1\n');
    expect((await read({ path: withColumn }))[0]?.symbol).toBe('NQM6');
    expect((await read({ path: withColumn, instrument: 'NQM6' }))[0]?.symbol, 'column and key agree').toBe('NQM6');
    await expect(read({ path: withColumn, instrument: 'ESM6' }), 'column and key disagree').rejects.toThrow(
      /column\.csv:2: column instrument: expected ESM6, the file spec's instrument key, got "NQM6"/,
    );
    const bare = files.write('bare.csv', 'ts,open,high,low,close\n0,1,1,1,1\n');
    await expect(read({ path: bare }), 'neither column nor key').rejects.toThrow(
      /bare\.csv:1: column instrument: expected an instrument column, or an instrument key/,
    );
  });

  it('refuses bars that overlap the previous one unless sorting', async () => {
    const path = files.write('overlap.csv', 'ts,open,high,low,close\n60000,1,1,1,1\n90000,1,1,1,1\n');
    await expect(read({ path, instrument: 'YMM6' })).rejects.toThrow(
      /overlap\.csv:3: column ts: expected a time at or after 1970-01-01T00:02:00\.000Z/,
    );
    const rows = await read({ path, instrument: 'YMM6', sort: true });
    expect(
      rows.map((r) => r.timeMs),
      'sorted by time, the two bars interleave',
    ).toEqual([60000, 80000, 90000, 100000, 110000, 119999, 130000, 149999]);
  });
});
