import { describe, expect, it } from 'vitest';
import { GlobexCalendar, HolidayFileError, HolidayTable, parseHolidayDocument } from '../../src/core/calendar/index.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const doc = (holidays: unknown[]) => ({ version: 1, timezone: 'America/Chicago', holidays });

describe('holiday rules: closure, early halt and resume', () => {
  // Wednesday 2026-07-01 closed for rates only; Thursday 2026-07-02 halts 12:00 and resumes 18:30 CDT.
  const calendar = new GlobexCalendar(
    parseHolidayDocument(
      doc([
        { date: '2026-07-01', name: 'Test closure', groups: { interest_rates: 'closed' } },
        { date: '2026-07-02', name: 'Test halt', groups: { all: { halt: '12:00', resume: '18:30' } } },
      ]),
      'inline',
    ),
  );

  it('a closed trade date has no session for that group only', () => {
    expect(calendar.sessionOf('2026-07-01', 'interest_rates')).toBeUndefined();
    expect(calendar.sessionOf('2026-07-01', 'equity_index')?.tradeDate).toBe('2026-07-01');
    expect(calendar.sessionAt(Date.parse('2026-06-30T23:00:00Z'), 'ZN')).toMatchObject({
      isOpen: false,
      tradeDate: '2026-07-02',
    });
  });

  it('an early halt ends the session; resume moves the next open', () => {
    const thursday = calendar.sessionOf('2026-07-02', 'fx');
    expect(thursday?.closeMs, '12:00 CDT = 17:00Z').toBe(Date.parse('2026-07-02T17:00:00Z'));
    expect(thursday?.note).toBe('halt 12:00 CT: Test halt');
    const friday = calendar.sessionOf('2026-07-03', 'fx');
    expect(friday?.openMs, '18:30 CDT = 23:30Z').toBe(Date.parse('2026-07-02T23:30:00Z'));
    expect(friday?.note).toBe('opens 18:30 CT: Test halt');
    expect(calendar.nextSessionRoll(Date.parse('2026-07-02T16:00:00Z'), '6E')).toBe(Date.parse('2026-07-02T23:30:00Z'));
  });

  it('without holidays every weekday trades', () => {
    const plain = new GlobexCalendar(HolidayTable.empty());
    expect(plain.sessionOf('2026-12-25', 'equity_index')?.closeMs).toBe(Date.parse('2026-12-25T22:00:00Z'));
  });
});

describe('holiday file validation names the field', () => {
  it.each([
    [doc([{ date: '2026-07-04', name: 'x', groups: { all: 'closed' } }]), /holidays\[0\]\.date: expected a weekday/],
    [
      doc([{ date: '2026-13-01', name: 'x', groups: { all: 'closed' } }]),
      /holidays\[0\]\.date: expected a quoted date/,
    ],
    [
      doc([{ date: '2026-07-03', name: 'x', groups: { stocks: 'closed' } }]),
      /holidays\[0\]\.groups\.stocks: expected a group key/,
    ],
    [
      doc([{ date: '2026-07-03', name: 'x', groups: { fx: { halt: '25:00' } } }]),
      /holidays\[0\]\.groups\.fx\.halt: expected a quoted CT time/,
    ],
    [
      doc([{ date: '2026-07-03', name: 'x', groups: { fx: { halt: '12:00', resume: '11:00' } } }]),
      /groups\.fx\.resume/,
    ],
    [doc([{ date: '2026-07-03', name: 'x', groups: { all: 'closed', fx: 'closed' } }]), /`all` alone/],
    [
      doc([
        { date: '2026-07-03', name: 'x', groups: { all: 'closed' } },
        { date: '2026-07-02', name: 'y', groups: { all: 'closed' } },
      ]),
      /holidays\[1\]\.date: expected dates in increasing order/,
    ],
    [{ version: 2, timezone: 'America/Chicago', holidays: [] }, /version: expected 1/],
    [{ version: 1, timezone: 'UTC', holidays: [] }, /timezone/],
  ])('case %#', (input, message) => {
    expect(() => parseHolidayDocument(input, 'my-holidays.yaml')).toThrowError(HolidayFileError);
    expect(() => parseHolidayDocument(input, 'my-holidays.yaml')).toThrowError(message);
  });

  it('loads a user file and reports a missing one by path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'propsim-holidays-'));
    const path = join(dir, 'h.yaml');
    writeFileSync(
      path,
      'version: 1\ntimezone: America/Chicago\nholidays:\n  - { date: "2026-07-03", name: Observed, groups: { all: closed } }\n',
    );
    expect(loadHolidayFile(path).entries).toHaveLength(1);
    expect(() => loadHolidayFile(join(dir, 'missing.yaml'))).toThrowError(
      /missing\.yaml: \(file\): expected a readable file \(ENOENT\)/,
    );
  });

  it('the bundled file covers 2020 to 2027', () => {
    const years = new Set(loadHolidayFile().entries.map((e) => e.date.slice(0, 4)));
    for (let y = 2020; y <= 2027; y++) expect(years.has(String(y)), String(y)).toBe(true);
  });
});
