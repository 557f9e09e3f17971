// Databento downloads converted to propsim's ticks and bars CSVs, read back by the market readers unchanged, and the
// same downloads read directly as `format: databento` market files.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importDatabento, type MarketImport } from '../../src/import/databento.js';
import type { MarketFileSpec } from '../../src/market/market-file-spec.js';
import { marketPrintBatches } from '../../src/market/sources.js';
import { collectRows, tempFiles } from '../market/market-test-files.js';

const fixture = (name: string): string => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const files = tempFiles();
afterAll(() => files.remove());

/** Imports into a string; `opened` counts the outputs started (a second one after a time steps back). */
async function importToText(
  names: string[],
  symbols?: string[],
): Promise<{ text: string; result: MarketImport; opened: number }> {
  let text = '';
  let opened = 0;
  const result = await importDatabento(
    names.map(fixture),
    () => {
      opened++;
      text = '';
      return { write: (chunk) => (text += Buffer.from(chunk).toString()), discard: () => {} };
    },
    symbols ? { symbols: new Set(symbols) } : {},
  );
  return { text, result, opened };
}

async function prints(spec: MarketFileSpec) {
  return (await collectRows(marketPrintBatches([spec]))).map((r) => [r.timeMs, r.symbol, r.priceTicks, r.size]);
}

const T0 = 1704205800000; // 2024-01-02T14:30:00Z

describe('Databento trades → ticks', () => {
  it('pretty_ts/pretty_px: ns times cut to the ms keep their file order, the spread row is skipped and counted', async () => {
    const { text, result } = await importToText(['databento-trades-pretty.csv']);
    // Three ES prints in the first ms (.000254779, .000254779, .000899123) stay in file order; 4770.25 = 19081 ES ticks.
    expect(text).toBe(
      'ts,instrument,price,size\n' +
        `${T0},ESH4,4770.25,2\n${T0},ESH4,4770.50,1\n${T0},ESH4,4770.25,3\n` +
        `${T0 + 1},NQH4,16810.75,1\n${T0 + 1},ESH4,4770.50,4\n`,
    );
    expect(result).toMatchObject({ kind: 'ticks', rows: 6, spreads: 1, filteredOut: 0, sorted: false });
    expect(Object.fromEntries(result.written)).toEqual({ ESH4: 4, NQH4: 1 });
  });

  it('integer ns and 1e-9 prices give the same prints; a ts_event that steps back is sorted stably', async () => {
    const { text, result, opened } = await importToText(['databento-trades.csv']);
    // Line 6 (NQ at .000900042) comes after line 5 (ES at .001989001): it moves up into the first ms, after the
    // two ES prints read before it.
    expect(text).toBe(
      'ts,instrument,price,size\n' +
        `${T0},ESH4,4770.25,2\n${T0},ESH4,4770.50,1\n${T0},NQH4,16810.75,1\n` +
        `${T0 + 1},ESH4,4770.50,4\n${T0 + 2},ESH4,4770.25,3\n`,
    );
    expect(result.sorted).toBe(true);
    expect(opened).toBe(2);
  });

  it('reads JSON lines (hd nested, int64 as strings)', async () => {
    const { text, result } = await importToText(['databento-trades.json']);
    expect(text).toBe(`ts,instrument,price,size\n${T0},ESH4,4770.25,2\n${T0 + 1},NQH4,16810.75,1\n`);
    expect(result.spreads).toBe(1);
  });

  it('--symbols keeps only the named contracts and counts the rows left out', async () => {
    const { text, result } = await importToText(['databento-trades.csv'], ['NQH4']);
    expect(text).toBe(`ts,instrument,price,size\n${T0},NQH4,16810.75,1\n`);
    // 6 rows: 1 NQ kept, 1 spread, 4 ES left out.
    expect(result).toMatchObject({ rows: 6, spreads: 1, filteredOut: 4 });
  });

  it('the ticks CSV reads back as the same prints as the download read directly (format: databento)', async () => {
    const { text } = await importToText(['databento-trades.csv']);
    const ticks = files.write('ticks.csv', text);
    const direct = await prints({ path: fixture('databento-trades.csv'), format: 'databento' });
    expect(await prints({ path: ticks, format: 'ticks' })).toEqual(direct);
    // 4770.25 / 0.25 = 19081 ticks; 16810.75 / 0.25 = 67243 ticks.
    expect(direct[0]).toEqual([T0, 'ESH4', 19081, 2]);
    expect(direct[2]).toEqual([T0, 'NQH4', 67243, 1]);
  });
});

describe('Databento ohlcv-1m → bars', () => {
  it('writes each bar at its start, with its volume; rtype 33 gives one-minute bars', async () => {
    const { text, result } = await importToText(['glbx-mdp3-20240102.ohlcv-1m.csv']);
    expect(text).toBe(
      'ts,instrument,open,high,low,close,volume\n' +
        `${T0},ESH4,4770.25,4771.00,4769.50,4770.75,1204\n` +
        `${T0},NQH4,16810.75,16815.00,16805.25,16812.00,388\n` +
        `${T0 + 60000},ESH4,4770.75,4770.75,4768.00,4768.25,981\n`,
    );
    expect(result).toMatchObject({ kind: 'bars', barMs: 60000 });
  });

  it('the bars CSV reads back (bar_ms 60000, sort: true for two contracts) as the download read directly', async () => {
    const { text } = await importToText(['glbx-mdp3-20240102.ohlcv-1m.csv']);
    const bars = files.write('bars.csv', text);
    const direct = await prints({ path: fixture('glbx-mdp3-20240102.ohlcv-1m.csv'), format: 'databento' });
    expect(await prints({ path: bars, format: 'bars', bar_ms: 60000, sort: true })).toEqual(direct);
    // The first ES bar rises (close 4770.75 >= open 4770.25): O, L, H, C at +0, +20 s, +40 s, +59.999 s; volume
    // 1204 / 4 = 301 each. 4769.50 / 0.25 = 19078 ticks.
    expect(direct.filter((p) => p[1] === 'ESH4').slice(0, 4)).toEqual([
      [T0, 'ESH4', 19081, 301],
      [T0 + 20000, 'ESH4', 19078, 301],
      [T0 + 40000, 'ESH4', 19084, 301],
      [T0 + 59999, 'ESH4', 19083, 301],
    ]);
  });
  it('takes the bar length from the file name when there is no rtype column (ohlcv-1h: 3,600,000 ms)', async () => {
    const path = files.write(
      'glbx-mdp3-20240102.ohlcv-1h.csv',
      'ts_event,open,high,low,close,volume,symbol\n1704204000000000000,4770250000000,4775000000000,4768000000000,4774000000000,25000,ESH4\n',
    );
    let text = '';
    const result = await importDatabento([path], () => ({
      write: (chunk) => (text += Buffer.from(chunk).toString()),
      discard: () => {},
    }));
    expect(result.barMs).toBe(3_600_000);
    // 1704204000000 ms is 2024-01-02T14:00:00Z, the hour bar's start.
    expect(text).toBe(
      'ts,instrument,open,high,low,close,volume\n1704204000000,ESH4,4770.25,4775.00,4768.00,4774.00,25000\n',
    );
  });
});

describe('Databento errors', () => {
  it('names file, line and column of a price off the tick grid', async () => {
    const path = files.write(
      'bad.csv',
      readFileSync(fixture('databento-trades.csv'), 'utf8').replace('4770500000000,1', '4770510000000,1'),
    );
    await expect(importDatabento([path], () => ({ write: () => {}, discard: () => {} }))).rejects.toThrow(
      `${path}:3: column price: expected a decimal on the 0.25 tick grid (a decimal, or an integer of 1e-9 units), got "4770510000000"`,
    );
  });
});
