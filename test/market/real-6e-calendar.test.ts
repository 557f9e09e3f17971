// Real CME data (fixtures/market/README.md): every 6EH4 bar of January 2024 lies inside an open 6E session and
// belongs to the right trade date. The oracle for the trade date is independent of the calendar code: a bar
// starting at or after 17:00 CT belongs to the next day, i.e. trade date = Chicago date of (start + 7 h).
import { formatInTimeZone } from 'date-fns-tz';
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/index.js';
import { readBarCsv } from '../../src/market/bar-csv-reader.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { SymbolTable } from '../../src/market/symbol-table.js';

const PATH = 'fixtures/market/6EH4-2024-01.csv.gz';
const BAR_MS = 60_000;

describe('6EH4 January 2024 bars against the GLOBEX calendar', () => {
  it('puts every bar (start = end - 60 s) in an open 6E session with the right trade date', async () => {
    const calendar = new GlobexCalendar(loadHolidayFile());
    const outside: string[] = [];
    const wrongDate: string[] = [];
    const barsPerTradeDate = new Map<string, number>();
    let bars = 0;
    for await (const batch of readBarCsv({ path: PATH, format: 'bars', instrument: '6EH4' }, 0, new SymbolTable())) {
      // A bar's four prints share its line; its first print is at the bar's start.
      for (let i = 0; i < batch.length; i += 4) {
        const startMs = batch.timeMs[i]!;
        const lastMs = startMs + BAR_MS - 1;
        bars++;
        const first = calendar.sessionAt(startMs, '6E');
        const last = calendar.sessionAt(lastMs, '6E');
        if (!first.isOpen || !last.isOpen || first.tradeDate !== last.tradeDate)
          outside.push(`line ${batch.line[i]} ${new Date(startMs).toISOString()}`);
        const expected = formatInTimeZone(startMs + 7 * 3_600_000, 'America/Chicago', 'yyyy-MM-dd');
        if (first.tradeDate !== expected) wrongDate.push(`line ${batch.line[i]}: ${first.tradeDate} != ${expected}`);
        barsPerTradeDate.set(first.tradeDate, (barsPerTradeDate.get(first.tradeDate) ?? 0) + 1);
      }
    }
    expect(bars).toBe(29_996);
    expect(outside, 'bars the calendar puts in a closed period').toEqual([]);
    expect(wrongDate, 'bars with a trade date other than the oracle').toEqual([]);
    expect(
      [...barsPerTradeDate.keys()],
      '2 Jan to 1 Feb (the file ends in the evening session of 31 Jan), weekends and 1 Jan excluded',
    ).toEqual([
      '2024-01-02',
      '2024-01-03',
      '2024-01-04',
      '2024-01-05',
      '2024-01-08',
      '2024-01-09',
      '2024-01-10',
      '2024-01-11',
      '2024-01-12',
      '2024-01-15',
      '2024-01-16',
      '2024-01-17',
      '2024-01-18',
      '2024-01-19',
      '2024-01-22',
      '2024-01-23',
      '2024-01-24',
      '2024-01-25',
      '2024-01-26',
      '2024-01-29',
      '2024-01-30',
      '2024-01-31',
      '2024-02-01',
    ]);
  });
});
