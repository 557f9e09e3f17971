// docs/calendar.md: an instant's Chicago wall date and ISO time with offset (src/core/calendar/dates.ts), read from
// Intl's fields. Hand-worked instants around both 2026 DST changes (CST = UTC−6, CDT = UTC−5), and date-fns-tz's
// formatInTimeZone as the oracle over random instants of 2000–2040.
import fc from 'fast-check';
import { formatInTimeZone } from 'date-fns-tz';
import { describe, expect, it } from 'vitest';
import { chicagoDateOf, chicagoIso } from '../../src/core/calendar/dates.js';

const at = (iso: string) => Date.parse(iso);

describe('Chicago wall time of an instant', () => {
  it.each([
    ['2026-03-08T07:59:59.999Z', '2026-03-08T01:59:59.999-06:00'], // the last CST instant
    ['2026-03-08T08:00:00.000Z', '2026-03-08T03:00:00.000-05:00'], // 02:00 CST is 03:00 CDT
    ['2026-11-01T06:59:59.000Z', '2026-11-01T01:59:59.000-05:00'], // the first 01:59:59, CDT
    ['2026-11-01T07:00:00.000Z', '2026-11-01T01:00:00.000-06:00'], // 01:00 again, CST
    ['2026-03-10T05:00:00.000Z', '2026-03-10T00:00:00.000-05:00'], // midnight is hour 00, not 24
    ['2026-01-01T05:59:59.123Z', '2025-12-31T23:59:59.123-06:00'], // still last year in Chicago
  ])('%s is %s', (utc, chicago) => {
    expect(chicagoIso(at(utc))).toBe(chicago);
    expect(chicagoDateOf(at(utc))).toBe(chicago.slice(0, 10));
  });

  it('agrees with date-fns-tz formatInTimeZone on random instants of 2000–2040', () => {
    fc.assert(
      fc.property(fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2040-01-01T00:00:00Z') }), (timeMs) => {
        expect(chicagoIso(timeMs)).toBe(formatInTimeZone(timeMs, 'America/Chicago', "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"));
        expect(chicagoDateOf(timeMs)).toBe(formatInTimeZone(timeMs, 'America/Chicago', 'yyyy-MM-dd'));
      }),
      { numRuns: 2000 },
    );
  });
});
