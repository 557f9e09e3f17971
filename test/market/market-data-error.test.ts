import { afterAll, describe, expect, it } from 'vitest';
import { MarketDataError } from '../../src/market/market-data-error.js';
import type { MarketFileSpec } from '../../src/market/market-file-spec.js';
import { readMarketFile } from '../../src/market/sources.js';
import { SymbolTable } from '../../src/market/symbol-table.js';
import { collectRows, tempFiles } from './market-test-files.js';

const files = tempFiles();
afterAll(() => files.remove());

async function failure(name: string, text: string, spec: Partial<MarketFileSpec> = {}): Promise<MarketDataError> {
  const path = files.write(name, text);
  try {
    await collectRows(readMarketFile({ path, format: 'ticks', ...spec }, 0, new SymbolTable()));
  } catch (error) {
    if (error instanceof MarketDataError) return error;
    throw error;
  }
  throw new Error(`${name} was read without an error`);
}

describe('market data errors name the file, line and column', () => {
  it('a price off the tick grid', async () => {
    const error = await failure('grid.csv', 'ts,instrument,price\n1,ESM6,5000.25\n2,ESM6,5000.3\n');
    expect(error.message).toBe(`${error.file}:3: column price: expected a decimal on the 0.25 tick grid, got "5000.3"`);
    expect([error.line, error.column]).toEqual([3, 'price']);
  });

  it('a bad number', async () => {
    const error = await failure('number.csv', 'ts,instrument,price,size\n1,ESM6,50O0.25,1\n');
    expect(error.message).toMatch(
      /number\.csv:2: column price: expected a decimal on the 0\.25 tick grid, got "50O0\.25"$/,
    );
    const size = await failure('size.csv', 'ts,instrument,price,size\n1,ESM6,5000,0\n');
    expect(size.message, 'sizes are positive').toMatch(
      /size\.csv:2: column size: expected a positive whole number, got "0"$/,
    );
  });

  it('a bad timestamp', async () => {
    const error = await failure('time.csv', 'ts,instrument,price\n2026-03-02T09:00:00,ESM6,5000\n');
    expect(error.message, 'an ISO time needs an offset').toMatch(
      /time\.csv:2: column ts: expected an ISO 8601 time with an offset or Z .*, got "2026-03-02T09:00:00"$/,
    );
  });

  it('an unknown instrument symbol, with parseSymbol’s reason', async () => {
    const error = await failure('symbol.csv', 'ts,instrument,price\n1,XXM6,5000\n');
    expect(error.message).toMatch(
      /symbol\.csv:2: column instrument: expected a known GLOBEX symbol like ESM6, got "XXM6" \(instrument "XXM6": unknown root "XX"; known roots: ES /,
    );
  });

  it('a bars file read as ticks: the message says to read it as bars', async () => {
    const error = await failure(
      'bars.csv',
      'timestamp_utc,open,high,low,close,volume\n2024-01-02 14:01:00,1,1,1,1,5\n',
    );
    expect(error.message).toBe(
      `${error.file}:1: column timestamp_utc: expected only the columns ts,instrument,price[,size] (this is a bars file: list it with format: bars and its instrument, as in a scenario's market files), got the unknown columns "timestamp_utc", "open", "high", "low", "close", "volume"`,
    );
    const other = await failure('other.csv', 'ts,instrument,price,venue\n1,ESM6,5000,X\n');
    expect(other.message, 'other unknown columns get no such advice').toBe(
      `${other.file}:1: column venue: expected only the columns ts,instrument,price[,size], got the unknown column "venue"`,
    );
  });

  it('a missing required column', async () => {
    const error = await failure('missing.csv', 'ts,instrument,size\n1,ESM6,1\n');
    expect(error.message).toBe(
      `${error.file}:1: column price: expected a column named price (the header is ts,instrument,price[,size]), got "ts,instrument,size"`,
    );
  });

  it('unknown extra columns, all of them named', async () => {
    const error = await failure('extra.csv', 'ts,instrument,price,side,venue\n');
    expect(error.message).toMatch(
      /extra\.csv:1: column side: expected only the columns ts,instrument,price\[,size\], got the unknown columns "side", "venue"$/,
    );
  });

  it('a wrong number of fields', async () => {
    const error = await failure('fields.csv', 'ts,instrument,price\n1,ESM6,5000\n2,ESM6\n');
    expect(error.message).toMatch(
      /fields\.csv:3: expected 3 comma-separated fields, one per header column \(ts,instrument,price\), got "2,ESM6"$/,
    );
  });

  it('an empty file, or one whose first line is blank', async () => {
    expect((await failure('empty.csv', '')).message).toMatch(
      /empty\.csv:1: expected a header row like ts,instrument,price\[,size\], got an empty file$/,
    );
    expect((await failure('empty.csv.gz', '')).message, 'gzipped too').toMatch(
      /empty\.csv\.gz:1: expected a header row/,
    );
    expect((await failure('blank.csv', '\n1,ESM6,5000\n')).message).toMatch(
      /blank\.csv:1: expected a header row like .*, got an empty line$/,
    );
  });

  it('a quoted field, which this fast reader does not support', async () => {
    const error = await failure('quoted.csv', 'ts,instrument,price\n1,"ESM6",5000\n');
    expect(error.message).toMatch(
      /quoted\.csv:2: expected unquoted fields \(quoting is not supported on this fast path\)/,
    );
  });

  it('a time earlier than the previous row, which sort: true puts right instead', async () => {
    const text = 'ts,instrument,price\n10,ESM6,5000\n30,ESM6,5001\n20,ESM6,5002\n20,ESM6,5003\n';
    const error = await failure('unsorted.csv', text);
    expect(error.message).toMatch(
      /unsorted\.csv:4: column ts: expected a time at or after 1970-01-01T00:00:00\.030Z \(the previous row's time; set sort: true to sort the file\), got "20"$/,
    );
    const rows = await collectRows(
      readMarketFile({ path: error.file, format: 'ticks', sort: true }, 0, new SymbolTable(), { batchRows: 2 }),
    );
    expect(
      rows.map((r) => [r.timeMs, r.line]),
      'sorted by time, equal times kept in line order',
    ).toEqual([
      [10, 2],
      [20, 4],
      [20, 5],
      [30, 3],
    ]);
  });

  it('an invalid bar', async () => {
    const spec = { format: 'bars' as const, instrument: 'ESM6' };
    const high = await failure('high.csv', 'ts,open,high,low,close\n0,5000,4999.75,4999,4999.5\n', spec);
    expect(high.message).toMatch(
      /high\.csv:2: column high: expected a high at or above the bar's open and close, got "4999\.75"$/,
    );
    const low = await failure('low.csv', 'ts,open,high,low,close\n0,5000,5001,5000.25,5000.5\n', spec);
    expect(low.message).toMatch(
      /low\.csv:2: column low: expected a low at or below the bar's open and close, got "5000\.25"$/,
    );
  });

  it('a file that cannot be read', async () => {
    const path = files.write('corrupt.csv.gz', 'ts,instrument,price\n', false);
    const corrupt = await collectRows(readMarketFile({ path, format: 'ticks' }, 0, new SymbolTable())).catch(
      (e: unknown) => e,
    );
    expect(String(corrupt), 'a .gz file that is not gzip').toMatch(
      /corrupt\.csv\.gz: expected a readable file \(gzip data when the name ends in \.gz\), got "incorrect header check"/,
    );
    const missing = await collectRows(
      readMarketFile({ path: '/nonexistent/ticks.csv', format: 'ticks' }, 0, new SymbolTable()),
    ).catch((e: unknown) => e);
    expect(String(missing)).toMatch(/\/nonexistent\/ticks\.csv: expected a readable file .*ENOENT/);
  });
});
