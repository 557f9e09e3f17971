// Broker exports read into propsim's fills, and the written CSV read back by the back-test's own reader.
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { readTraderFills } from '../../src/backtest/fills/trader-fills.js';
import { fillsCsv } from '../../src/import/fills-csv.js';
import { importFills } from '../../src/import/import-fills.js';
import { MissingZoneError } from '../../src/import/import-input-error.js';
import { tempFiles } from '../market/market-test-files.js';

const fixture = (name: string): string => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const files = tempFiles();
afterAll(() => files.remove());

/** The written CSV, as the back-test reads it. */
function readBack(csv: string) {
  return readTraderFills(files.write('fills.csv', csv)).map(({ line: _line, ...fill }) => fill);
}

describe('Tradovate Fills export', () => {
  // BOM, CRLF, quoted prices with thousands separators, " Buy" with a leading space, a fill exported twice, a spread,
  // blank trailing lines. Timestamp is Chicago time: 09:31:05 CST (UTC-6) is 15:31:05Z. Every date is 01/02/2024,
  // which reads both ways: the order is given (test/import/date-order.test.ts).
  const imported = importFills([fixture('tradovate-fills.csv')], {
    format: 'tradovate',
    tz: 'America/Chicago',
    dateOrder: 'mdy',
  });

  it('reads each fill in the exporting user zone, with thousands separators and padded B/S undone', () => {
    expect(readBack(fillsCsv(imported))).toEqual([
      fill('2024-01-02T15:31:05Z', 'DEMO123', 'ESH4', 'buy', 1, '4770.25', '1.29'),
      fill('2024-01-02T15:45:10Z', 'DEMO123', 'ESH4', 'sell', 1, '4772.50', '1.29'),
      fill('2024-01-02T16:02:00Z', 'DEMO456', 'NQH4', 'sell', 2, '16810.00', '2.58'),
      fill('2024-01-02T16:30:30Z', 'DEMO456', 'NQH4', 'buy', 2, '16790.75', '2.58'),
    ]);
  });

  it('keeps a fill exported twice once, with a warning naming both lines', () => {
    expect(imported.warnings).toEqual([
      `${fixture('tradovate-fills.csv')}:4: Fill ID 1002 was already read at ${fixture('tradovate-fills.csv')}:3; kept once`,
    ]);
  });

  it('counts per trader rows read, kept, deduplicated and skipped (the spread row)', () => {
    // DEMO123: 3 rows = 2 kept + 1 duplicate. DEMO456: 3 rows = 2 kept + 1 spread (ESH4-ESM4).
    expect(Object.fromEntries(imported.counts)).toEqual({
      DEMO123: { read: 3, kept: 2, deduplicated: 1, skipped: 0 },
      DEMO456: { read: 3, kept: 2, deduplicated: 0, skipped: 1 },
    });
  });

  it('prefers the API timestamp column, in UTC, and needs no --tz then', () => {
    const api = importFills([fixture('tradovate-api-fills.csv')], { format: 'tradovate' });
    expect(api.fills.map((f) => [new Date(f.timeMs).toISOString(), f.side, f.price])).toEqual([
      ['2024-01-02T14:31:05.123Z', 'buy', '4770.25'],
      ['2024-01-02T14:45:10.000Z', 'sell', '4772.50'],
    ]);
  });

  it('refuses the display Timestamp without a zone', () => {
    expect(() => importFills([fixture('tradovate-fills.csv')], { format: 'tradovate' })).toThrow(MissingZoneError);
  });
});

describe('NinjaTrader 8 executions export', () => {
  // Trailing comma on every line, `ES 03-24` → ESH4, `$2.04` commissions, 12-hour times on a New York PC:
  // 9:31:05 AM EST (UTC-5) is 14:31:05Z; 1:02:00 PM is 18:02:00Z. Every date is 1/2/2024: the order is given.
  const imported = importFills([fixture('ninjatrader-executions.csv')], {
    format: 'ninjatrader',
    tz: 'America/New_York',
    dateOrder: 'mdy',
  });

  it('reads MM-YY contracts, dollar commissions and PC-local 12-hour times', () => {
    expect(readBack(fillsCsv(imported))).toEqual([
      fill('2024-01-02T14:31:05Z', 'Sim101', 'ESH4', 'buy', 1, '4770.25', '2.04'),
      fill('2024-01-02T14:45:10Z', 'Sim101', 'ESH4', 'sell', 1, '4772.50', '2.04'),
      fill('2024-01-02T18:02:00Z', 'Apex-0042', 'NQH4', 'sell', 2, '16810.00', '4.08'),
      fill('2024-01-02T18:30:30Z', 'Apex-0042', 'NQH4', 'buy', 2, '16790.75', '4.08'),
    ]);
  });

  it('requires --tz, whatever the rows hold', () => {
    expect(() => importFills([fixture('ninjatrader-executions.csv')], { format: 'ninjatrader' })).toThrow(
      /column Time has times with no offset/,
    );
  });
});

describe('generic CSV', () => {
  it('reads the mapped columns; BOT/SLD are buy/sell; no commission column, none written', () => {
    const imported = importFills([fixture('generic-trades.csv')], {
      format: 'generic',
      tz: 'America/Chicago',
      map: ['ts=Time', 'trader=Acct', 'instrument=Symbol', 'side=Side', 'quantity=Qty', 'price=Fill'],
    });
    const csv = fillsCsv(imported);
    expect(csv.split('\n')[0]).toBe('ts,trader,instrument,side,quantity,price');
    expect(readBack(csv)).toEqual([
      fill('2024-01-02T15:31:05Z', 'ann', 'ESH4', 'buy', 1, '4770.25'),
      fill('2024-01-02T15:45:10Z', 'ann', 'ESH4', 'sell', 1, '4772.50'),
    ]);
  });

  it("imports propsim's own fills CSV unmapped (times with offsets need no zone)", () => {
    const own = files.write(
      'own.csv',
      'ts,trader,instrument,side,quantity,price\n2026-04-07T08:31:00-05:00,ann,ESM6,buy,1,5000.00\n',
    );
    expect(importFills([own], { format: 'generic' }).fills.map((f) => [f.timeMs, f.symbol])).toEqual([
      [Date.parse('2026-04-07T13:31:00Z'), 'ESM6'],
    ]);
  });

  it('names file, line and column of a bad row', () => {
    const bad = files.write(
      'bad.csv',
      'ts,trader,instrument,side,quantity,price\n2026-04-07T08:31:00Z,ann,ESM6,buy,1,5000.00\n2026-04-07T08:32:00Z,ann,ESM6,buy,1,5000.10\n',
    );
    expect(() => importFills([bad], { format: 'generic' })).toThrow(
      `${bad}:3: column price: expected a price on the 0.25 tick grid of ES, got "5000.10"`,
    );
  });

  it('refuses a --map of an unknown field', () => {
    expect(() => importFills([fixture('generic-trades.csv')], { format: 'generic', map: ['when=Time'] })).toThrow(
      /--map "when=Time": expected FIELD=COLUMN/,
    );
  });
});

function fill(
  iso: string,
  trader: string,
  symbol: string,
  side: 'buy' | 'sell',
  quantity: number,
  price: string,
  commission?: string,
) {
  return { timeMs: Date.parse(iso), trader, symbol, side, quantity, price, ...(commission ? { commission } : {}) };
}

describe('Tradovate API timestamp with --tz', () => {
  it('stays UTC: --tz applies only to times in the exporting user zone', () => {
    const api = importFills([fixture('tradovate-api-fills.csv')], { format: 'tradovate', tz: 'America/Chicago' });
    expect(api.fills[0]!.timeMs).toBe(Date.parse('2024-01-02T14:31:05.123Z'));
  });
});
