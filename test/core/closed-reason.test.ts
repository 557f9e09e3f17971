// Why the market is closed at an instant: daily halt, weekend, a holiday closure (by name), a holiday's
// early close. Uses a small holiday table so every case is written out here.
import { describe, expect, it } from 'vitest';
import { GlobexCalendar, closedReason, parseHolidayDocument } from '../../src/core/calendar/index.js';
import type { ProductFamily } from '../../src/core/instruments.js';

// Monday 2026-07-06 closed for every group; Thursday 2026-07-09 halts at 12:00 CT; Friday 2026-07-10 normal.
const holidays = parseHolidayDocument(
  {
    version: 1,
    timezone: 'America/Chicago',
    holidays: [
      { date: '2026-07-06', name: 'Test Monday', groups: { all: 'closed' } },
      { date: '2026-07-09', name: 'Test Thursday', groups: { equity_index: { halt: '12:00' } } },
    ],
  },
  'inline',
);
const calendar = new GlobexCalendar(holidays);

function reason(iso: string, family: ProductFamily = 'equity_index') {
  const timeMs = Date.parse(iso);
  const next = calendar.sessionAtFamily(timeMs, family);
  expect(next.isOpen, `${iso} is a closed time`).toBe(false);
  return closedReason(calendar, holidays, timeMs, next, family);
}

describe('closedReason', () => {
  it('16:30 CT on a normal Tuesday is the daily halt', () => {
    expect(reason('2026-07-07T16:30:00-05:00')).toEqual({ kind: 'daily_halt', note: 'daily halt 16:00–17:00 CT' });
  });

  it('Saturday noon, and Friday after the 16:00 close, are the weekend (no holiday involved)', () => {
    expect(reason('2026-07-18T12:00:00-05:00')).toEqual({ kind: 'weekend', note: 'weekend' });
    expect(reason('2026-07-17T16:30:00-05:00'), 'Friday after the close').toEqual({ kind: 'weekend', note: 'weekend' });
  });

  it('Monday morning of a closed Monday is the holiday; the Saturday before is the weekend and the holiday', () => {
    expect(reason('2026-07-06T10:00:00-05:00')).toEqual({
      kind: 'holiday',
      holiday: 'Test Monday',
      note: 'holiday: Test Monday (no session 2026-07-06)',
    });
    expect(reason('2026-07-04T12:00:00-05:00')).toEqual({
      kind: 'holiday',
      holiday: 'Test Monday',
      note: 'weekend; holiday: Test Monday (no session 2026-07-06)',
    });
  });

  it('after an early halt the holiday is the reason, for the groups it halts', () => {
    expect(reason('2026-07-09T13:00:00-05:00')).toEqual({
      kind: 'early_close',
      holiday: 'Test Thursday',
      note: 'early close: Test Thursday',
    });
    expect(reason('2026-07-09T16:30:00-05:00', 'energy'), 'energy trades a normal session that day').toEqual({
      kind: 'daily_halt',
      note: 'daily halt 16:00–17:00 CT',
    });
  });
});

describe('HolidayTable.yearsCovered', () => {
  it('spans the first and last entry years', () => {
    expect(holidays.yearsCovered()).toEqual({ first: 2026, last: 2026 });
    expect(
      parseHolidayDocument({ version: 1, timezone: 'America/Chicago', holidays: [] }, 'empty').yearsCovered(),
    ).toBeUndefined();
  });
});
