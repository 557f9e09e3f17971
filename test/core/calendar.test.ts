// docs/calendar.md: sessions 17:00–16:00 CT, maintenance halt, weekends, the trade-date rule, DST, holidays.
// Expected instants are written in UTC and were worked out by hand from the CT offsets:
// CST = UTC−6, CDT = UTC−5; 2026 DST starts Sun 8 Mar and ends Sun 1 Nov; 2025: 9 Mar and 2 Nov.
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/index.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';

const calendar = new GlobexCalendar(loadHolidayFile());
const ms = (iso: string) => Date.parse(iso);

function facts(iso: string, root = 'ES') {
  const f = calendar.sessionAt(ms(iso), root);
  return {
    open: f.isOpen,
    tradeDate: f.tradeDate,
    openAt: new Date(f.openMs).toISOString(),
    closeAt: new Date(f.closeMs).toISOString(),
  };
}

describe('session open and close at 17:00 and 16:00 CT across the 2026 spring DST switch', () => {
  it('Friday 6 Mar 2026 closes at 16:00 CST = 22:00Z: the last ms is open, the first closed', () => {
    expect(facts('2026-03-06T21:59:59.999Z')).toEqual({
      open: true,
      tradeDate: '2026-03-06',
      openAt: '2026-03-05T23:00:00.000Z',
      closeAt: '2026-03-06T22:00:00.000Z',
    });
    expect(
      facts('2026-03-06T22:00:00.000Z'),
      'weekend: closed, describing Monday 9 Mar, which opens Sunday 17:00 CDT',
    ).toEqual({
      open: false,
      tradeDate: '2026-03-09',
      openAt: '2026-03-08T22:00:00.000Z',
      closeAt: '2026-03-09T21:00:00.000Z',
    });
  });

  it('Sunday 8 Mar 2026 opens at 17:00 CDT = 22:00Z (an hour earlier in UTC than the week before)', () => {
    expect(facts('2026-03-08T21:59:59.999Z').open).toBe(false);
    expect(facts('2026-03-08T22:00:00.000Z')).toMatchObject({ open: true, tradeDate: '2026-03-09' });
    expect(facts('2026-03-01T22:59:59.999Z').open, 'a week earlier, in CST, 17:00 is 23:00Z').toBe(false);
    expect(facts('2026-03-01T23:00:00.000Z')).toMatchObject({ open: true, tradeDate: '2026-03-02' });
  });

  it('Monday 9 Mar 2026: the maintenance halt 16:00–17:00 CDT (21:00Z–22:00Z), then the next trade date', () => {
    expect(facts('2026-03-09T20:59:59.999Z')).toMatchObject({ open: true, tradeDate: '2026-03-09' });
    expect(facts('2026-03-09T21:00:00.000Z')).toMatchObject({
      open: false,
      tradeDate: '2026-03-10',
      openAt: '2026-03-09T22:00:00.000Z',
    });
    expect(facts('2026-03-09T21:59:59.999Z')).toMatchObject({ open: false, tradeDate: '2026-03-10' });
    expect(facts('2026-03-09T22:00:00.000Z')).toMatchObject({
      open: true,
      tradeDate: '2026-03-10',
      closeAt: '2026-03-10T21:00:00.000Z',
    });
  });
});

describe('the 2026 autumn DST switch', () => {
  it('Friday 30 Oct closes 16:00 CDT = 21:00Z; Sunday 1 Nov opens 17:00 CST = 23:00Z', () => {
    expect(facts('2026-10-30T20:59:59.999Z')).toMatchObject({ open: true, tradeDate: '2026-10-30' });
    expect(facts('2026-10-30T21:00:00.000Z')).toEqual({
      open: false,
      tradeDate: '2026-11-02',
      openAt: '2026-11-01T23:00:00.000Z',
      closeAt: '2026-11-02T22:00:00.000Z',
    });
    expect(facts('2026-11-01T22:59:59.999Z').open).toBe(false);
    expect(facts('2026-11-01T23:00:00.000Z')).toMatchObject({ open: true, tradeDate: '2026-11-02' });
  });

  it('Monday 2 Nov closes 16:00 CST = 22:00Z', () => {
    expect(facts('2026-11-02T21:59:59.999Z')).toMatchObject({ open: true, tradeDate: '2026-11-02' });
    expect(facts('2026-11-02T22:00:00.000Z')).toMatchObject({ open: false, tradeDate: '2026-11-03' });
  });
});

describe('the 2025 spring DST switch', () => {
  it('Friday 7 Mar 2025 closes 22:00Z (CST); Sunday 9 Mar opens 22:00Z (CDT)', () => {
    expect(facts('2025-03-07T21:59:59.999Z')).toMatchObject({ open: true, tradeDate: '2025-03-07' });
    expect(facts('2025-03-07T22:00:00.000Z')).toMatchObject({
      open: false,
      tradeDate: '2025-03-10',
      openAt: '2025-03-09T22:00:00.000Z',
    });
    expect(facts('2025-03-09T22:00:00.000Z')).toMatchObject({ open: true, tradeDate: '2025-03-10' });
  });
});

describe('weekends', () => {
  it('is closed all of Saturday and Sunday before 17:00 CT', () => {
    for (const iso of ['2026-03-07T06:00:00Z', '2026-03-07T18:00:00Z', '2026-03-08T15:00:00Z']) {
      expect(facts(iso), iso).toMatchObject({ open: false, tradeDate: '2026-03-09' });
    }
  });
});

describe('the trade-date rule: a session belongs to the trade date on which it closes', () => {
  it('anything at or after 17:00 CT belongs to the next trade date', () => {
    expect(
      calendar.tradeDateOf(ms('2026-03-10T21:59:59.999Z'), 'ES'),
      '16:59:59.999 CDT: halted, next session is 11 Mar',
    ).toBe('2026-03-11');
    expect(calendar.tradeDateOf(ms('2026-03-10T22:00:00.000Z'), 'ES'), '17:00 CDT').toBe('2026-03-11');
    expect(calendar.tradeDateOf(ms('2026-03-11T04:59:59.999Z'), 'ES'), '23:59 CDT on the 10th').toBe('2026-03-11');
    expect(calendar.tradeDateOf(ms('2026-03-11T05:00:00.000Z'), 'ES'), 'midnight CDT').toBe('2026-03-11');
    expect(calendar.tradeDateOf(ms('2026-03-11T20:59:59.999Z'), 'ES'), '15:59:59.999 CDT').toBe('2026-03-11');
  });
});

describe('session rolls', () => {
  it('the next roll is the first instant of the next session', () => {
    expect(calendar.nextSessionRoll(ms('2026-03-09T15:00:00Z'), 'ES'), 'Monday midday -> Monday 17:00 CDT').toBe(
      ms('2026-03-09T22:00:00Z'),
    );
    expect(calendar.nextSessionRoll(ms('2026-03-09T21:59:59.999Z'), 'ES'), 'in the halt').toBe(
      ms('2026-03-09T22:00:00Z'),
    );
    expect(calendar.nextSessionRoll(ms('2026-03-09T22:00:00Z'), 'ES'), 'strictly after: at a roll, the next one').toBe(
      ms('2026-03-10T22:00:00Z'),
    );
  });

  it('the weekly roll is Sunday 17:00 CT: from Friday afternoon the next roll is Sunday', () => {
    expect(calendar.nextSessionRoll(ms('2026-03-06T20:00:00Z'), 'ES')).toBe(ms('2026-03-08T22:00:00Z'));
    expect(calendar.nextSessionRoll(ms('2026-10-31T12:00:00Z'), 'ES'), 'across the autumn switch').toBe(
      ms('2026-11-01T23:00:00Z'),
    );
  });
});

describe('holidays (bundled CME 2020–2027 file)', () => {
  it("New Year's Day 2024 (Monday): closed until the 17:00 CST reopen on 1 January", () => {
    expect(facts('2023-12-29T21:59:59.999Z', '6E')).toMatchObject({ open: true, tradeDate: '2023-12-29' });
    expect(facts('2023-12-31T23:00:00.000Z', '6E'), 'Sunday 17:00: no session for 1 Jan').toEqual({
      open: false,
      tradeDate: '2024-01-02',
      openAt: '2024-01-01T23:00:00.000Z',
      closeAt: '2024-01-02T22:00:00.000Z',
    });
    expect(facts('2024-01-01T22:59:59.999Z', '6E').open).toBe(false);
    expect(facts('2024-01-01T23:00:00.000Z', '6E')).toMatchObject({ open: true, tradeDate: '2024-01-02' });
  });

  it('Martin Luther King Jr. Day 2024: ES halts 12:00 CST = 18:00Z and resumes 17:00 CST for the 16th', () => {
    expect(facts('2024-01-15T17:59:59.999Z')).toMatchObject({
      open: true,
      tradeDate: '2024-01-15',
      openAt: '2024-01-14T23:00:00.000Z',
    });
    expect(facts('2024-01-15T18:00:00.000Z')).toMatchObject({
      open: false,
      tradeDate: '2024-01-16',
      openAt: '2024-01-15T23:00:00.000Z',
    });
    expect(calendar.nextSessionRoll(Date.parse('2024-01-15T12:00:00Z'), 'ES')).toBe(Date.parse('2024-01-15T23:00:00Z'));
  });

  it('Martin Luther King Jr. Day 2024: 6E trades to the normal 16:00 CST close, as the real bars show', () => {
    expect(facts('2024-01-15T21:59:59.999Z', '6E')).toMatchObject({ open: true, tradeDate: '2024-01-15' });
    expect(facts('2024-01-15T22:00:00.000Z', '6E')).toMatchObject({
      open: false,
      tradeDate: '2024-01-16',
      openAt: '2024-01-15T23:00:00.000Z',
    });
  });

  it('Thanksgiving 2025: ES halts 12:00 CST Thursday, reopens 17:00, and closes early on Friday', () => {
    expect(facts('2025-11-27T17:59:59.999Z')).toMatchObject({ open: true, tradeDate: '2025-11-27' });
    expect(facts('2025-11-27T18:00:00.000Z')).toMatchObject({
      open: false,
      tradeDate: '2025-11-28',
      openAt: '2025-11-27T23:00:00.000Z',
    });
    const friday = calendar.sessionOf('2025-11-28', 'equity_index');
    expect(friday?.closeMs, 'Friday closes before the normal 16:00 CST').toBeLessThan(ms('2025-11-28T22:00:00Z'));
    expect(facts(new Date(friday!.closeMs).toISOString()).open).toBe(false);
    expect(facts(new Date(friday!.closeMs - 1).toISOString()).open).toBe(true);
  });

  it('Good Friday 2025 (18 Apr): closed; Thursday closes normally and the next session opens Sunday', () => {
    expect(calendar.sessionOf('2025-04-18', 'equity_index')).toBeUndefined();
    expect(facts('2025-04-17T20:59:59.999Z')).toMatchObject({ open: true, tradeDate: '2025-04-17' });
    expect(facts('2025-04-17T22:00:00.000Z'), 'no Thursday-evening session for Friday').toMatchObject({
      open: false,
      tradeDate: '2025-04-21',
      openAt: '2025-04-20T22:00:00.000Z',
    });
  });

  it('Christmas 2025 (Thursday): closed; the session for Friday 26 Dec opens 17:00 CST on the 25th', () => {
    expect(calendar.sessionOf('2025-12-25', 'energy')).toBeUndefined();
    expect(facts('2025-12-25T12:00:00Z', 'CL')).toMatchObject({
      open: false,
      tradeDate: '2025-12-26',
      openAt: '2025-12-25T23:00:00.000Z',
    });
    expect(facts('2025-12-25T23:00:00.000Z', 'CL')).toMatchObject({ open: true, tradeDate: '2025-12-26' });
  });

  it('Independence Day 2025 (Friday): the equity session halts early and nothing reopens until Sunday', () => {
    const july4 = calendar.sessionOf('2025-07-04', 'equity_index');
    expect(july4?.closeMs).toBeLessThan(ms('2025-07-04T21:00:00Z'));
    expect(facts('2025-07-04T21:00:00Z')).toMatchObject({
      open: false,
      tradeDate: '2025-07-07',
      openAt: '2025-07-06T22:00:00.000Z',
    });
  });
});
