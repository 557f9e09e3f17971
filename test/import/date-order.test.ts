// Slash dates in broker exports: month/day (US) or day/month (UK and most of Europe). Without a date order the file
// must show its order itself, by a date that reads only as month/day; otherwise the import refuses to guess.
import { afterAll, describe, expect, it } from 'vitest';
import { importFills } from '../../src/import/import-fills.js';
import { DateOrderError } from '../../src/import/import-input-error.js';
import { tempFiles } from '../market/market-test-files.js';

const files = tempFiles();
afterAll(() => files.remove());

/** A NinjaTrader 8 executions export of Sim101's ES fills at these times (a UK PC writes 24-hour day/month times). */
function ninjaExport(name: string, times: readonly string[]): string {
  const header =
    'Instrument,Action,Quantity,Price,Time,ID,E/X,Position,Order ID,Name,Commission,Rate,Account,Connection,';
  const rows = times.map(
    (time, i) =>
      `ES 03-24,${i % 2 === 0 ? 'Buy' : 'Sell'},1,4770.25,${time},id${i},Entry,-,o${i},Entry,$2.04,1,Sim101,Rithmic,`,
  );
  return files.write(name, [header, ...rows].join('\n') + '\n');
}

/** The fills' times in UTC; London is UTC+0 in January. */
function isoTimes(file: string, dateOrder?: 'mdy' | 'dmy'): string[] {
  const imported = importFills([file], {
    format: 'ninjatrader',
    tz: 'Europe/London',
    ...(dateOrder ? { dateOrder } : {}),
  });
  return imported.fills.map((f) => new Date(f.timeMs).toISOString());
}

describe('a file whose every slash date is ambiguous (days 1 to 12)', () => {
  // 2 and 3 January on a UK PC: read as month/day they would be 1 February and 1 March.
  const uk = ninjaExport('uk-early.csv', ['02/01/2024 09:31:05', '02/01/2024 09:45:10', '03/01/2024 10:02:00']);

  it('is refused without a date order, naming the file, the first row and both readings of it', () => {
    expect(() => isoTimes(uk)).toThrow(DateOrderError);
    expect(() => isoTimes(uk)).toThrow(
      `${uk}:2: column Time: "02/01/2024 09:31:05" reads as month/day (2024-02-01) or day/month (2024-01-02), and so does every date of the file: none has a day above 12 to show which comes first`,
    );
  });

  it('reads as day/month with dmy, as month/day with mdy', () => {
    expect(isoTimes(uk, 'dmy')).toEqual([
      '2024-01-02T09:31:05.000Z',
      '2024-01-02T09:45:10.000Z',
      '2024-01-03T10:02:00.000Z',
    ]);
    expect(isoTimes(uk, 'mdy')).toEqual([
      '2024-02-01T09:31:05.000Z',
      '2024-02-01T09:45:10.000Z',
      '2024-03-01T10:02:00.000Z',
    ]);
  });
});

describe('a file with a date that reads only as day/month', () => {
  // A UK export over the month: rows 2 and 3 are ambiguous, row 4 (15 January) has no month 15.
  const uk = ninjaExport('uk-month.csv', ['02/01/2024 09:31:05', '12/01/2024 09:45:10', '15/01/2024 10:02:00']);

  it('is refused without a date order, naming that row and saying the file looks like day/month', () => {
    expect(() => isoTimes(uk)).toThrow(
      `${uk}:4: column Time: "15/01/2024 10:02:00" reads only as day/month (there is no month 15): the file looks like day/month order`,
    );
  });

  it('reads with dmy, and with mdy is refused at that row, naming the order', () => {
    expect(isoTimes(uk, 'dmy')).toEqual([
      '2024-01-02T09:31:05.000Z',
      '2024-01-12T09:45:10.000Z',
      '2024-01-15T10:02:00.000Z',
    ]);
    expect(() => isoTimes(uk, 'mdy')).toThrow(
      `${uk}:4: column Time: expected a month/day/year date (date order mdy), got "15/01/2024 10:02:00"`,
    );
  });
});

describe('a file with a date that reads only as month/day', () => {
  // A US export: row 2 (January 2) is ambiguous, row 3 (January 15) has no month 15 read as day/month.
  const us = ninjaExport('us-month.csv', ['1/2/2024 9:31:05 AM', '1/15/2024 9:45:10 AM']);

  it('reads every row as month/day without a date order: the file shows its order', () => {
    expect(isoTimes(us)).toEqual(['2024-01-02T09:31:05.000Z', '2024-01-15T09:45:10.000Z']);
  });

  it('is refused with dmy at that row, naming the order', () => {
    expect(() => isoTimes(us, 'dmy')).toThrow(
      `${us}:3: column Time: expected a day/month/year date (date order dmy), got "1/15/2024 9:45:10 AM"`,
    );
  });
});

describe('ISO dates', () => {
  it('need no date order, whatever their day', () => {
    const iso = ninjaExport('iso.csv', ['2024-01-02 09:31:05', '2024-01-03 09:45:10']);
    expect(isoTimes(iso)).toEqual(['2024-01-02T09:31:05.000Z', '2024-01-03T09:45:10.000Z']);
    expect(isoTimes(iso, 'dmy')).toEqual(['2024-01-02T09:31:05.000Z', '2024-01-03T09:45:10.000Z']);
  });
});
