// Broker export times: with an offset they stand alone; without one they are wall-clock times in --tz.
import { describe, expect, it } from 'vitest';
import { hasOffset, isKnownZone, parseExportTime, slashDateReadings } from '../../src/import/export-time.js';

const utc = (iso: string): number => Date.parse(iso);

describe('parseExportTime', () => {
  it('reads 12-hour US times: 12:05 AM is 00:05, 12:05 PM is 12:05', () => {
    // Chicago in January is CST, UTC-6: 00:05 → 06:05Z, 12:05 → 18:05Z, 9:31:05 PM → 03:31:05Z the next day.
    expect(parseExportTime('1/2/2024 12:05:00 AM', 'America/Chicago', 'mdy')).toBe(utc('2024-01-02T06:05:00Z'));
    expect(parseExportTime('1/2/2024 12:05:00 PM', 'America/Chicago', 'mdy')).toBe(utc('2024-01-02T18:05:00Z'));
    expect(parseExportTime('1/2/2024 9:31:05 PM', 'America/Chicago', 'mdy')).toBe(utc('2024-01-03T03:31:05Z'));
  });

  it('follows the zone across a daylight saving switch', () => {
    // New York switched to EDT (UTC-4) at 2:00 on 2024-03-10: 1:30 AM is EST (06:30Z), 3:30 AM is EDT (07:30Z).
    expect(parseExportTime('3/10/2024 1:30:00 AM', 'America/New_York', 'mdy')).toBe(utc('2024-03-10T06:30:00Z'));
    expect(parseExportTime('3/10/2024 3:30:00 AM', 'America/New_York', 'mdy')).toBe(utc('2024-03-10T07:30:00Z'));
  });

  it('takes an offset or Z as written, ignoring the zone, and cuts fractions past the millisecond', () => {
    expect(parseExportTime('2024-01-02T14:31:05.123456Z', 'America/Chicago', 'mdy')).toBe(
      utc('2024-01-02T14:31:05.123Z'),
    );
    expect(parseExportTime('2024-01-02 09:31:05-0500', undefined, 'mdy')).toBe(utc('2024-01-02T14:31:05Z'));
    expect(hasOffset('2024-01-02T14:31:05Z')).toBe(true);
    expect(hasOffset('2024-01-02 09:31:05')).toBe(false);
  });

  it('is NaN for a time without an offset and no zone, an impossible date, or 13 PM', () => {
    expect(parseExportTime('2024-01-02 09:31:05', undefined, 'mdy')).toBeNaN();
    expect(parseExportTime('2/30/2024 9:31:05 AM', 'UTC', 'mdy')).toBeNaN();
    expect(parseExportTime('1/2/2024 13:05:00 PM', 'UTC', 'mdy')).toBeNaN();
  });

  it('reads a slash date in the order given: 02/01/2024 is 1 February as mdy, 2 January as dmy', () => {
    expect(parseExportTime('02/01/2024 09:31:05', 'UTC', 'mdy')).toBe(utc('2024-02-01T09:31:05Z'));
    expect(parseExportTime('02/01/2024 09:31:05', 'UTC', 'dmy')).toBe(utc('2024-01-02T09:31:05Z'));
    expect(parseExportTime('15/01/2024 09:31:05', 'UTC', 'dmy')).toBe(utc('2024-01-15T09:31:05Z'));
    // ISO dates have one order whatever is given.
    expect(parseExportTime('2024-01-02 09:31:05', 'UTC', 'dmy')).toBe(utc('2024-01-02T09:31:05Z'));
  });

  it('is NaN for a slash date impossible in the order given: no month 15, no 30 February', () => {
    expect(parseExportTime('15/01/2024 09:31:05', 'UTC', 'mdy')).toBeNaN();
    expect(parseExportTime('01/15/2024 09:31:05', 'UTC', 'dmy')).toBeNaN();
    expect(parseExportTime('30/02/2024 09:31:05', 'UTC', 'dmy')).toBeNaN();
  });

  it('gives the date a slash time is in each order, and nothing for an ISO time', () => {
    expect(slashDateReadings('02/01/2024 09:31:05')).toEqual({ mdy: '2024-02-01', dmy: '2024-01-02' });
    expect(slashDateReadings('1/2/2024 9:31:05 AM')).toEqual({ mdy: '2024-01-02', dmy: '2024-02-01' });
    expect(slashDateReadings('15/01/2024 09:31:05')).toEqual({ mdy: undefined, dmy: '2024-01-15' });
    expect(slashDateReadings('01/15/2024 09:31:05')).toEqual({ mdy: '2024-01-15', dmy: undefined });
    expect(slashDateReadings('13/13/2024 09:31:05')).toEqual({ mdy: undefined, dmy: undefined });
    expect(slashDateReadings('2024-01-02 09:31:05')).toBeUndefined();
  });

  it('knows IANA zones and refuses others', () => {
    expect(isKnownZone('America/Chicago')).toBe(true);
    expect(isKnownZone('Mars/Olympus')).toBe(false);
  });
});
