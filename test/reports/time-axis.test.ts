// Chart times in Chicago wall-clock (src/reports/time-axis.ts), across the 2026 changes of offset: CST is UTC-6 and CDT
// UTC-5; the clocks change at 02:00 wall time, 08:00 UTC on 2026-03-08 and 07:00 UTC on 2026-11-01.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chicagoChartTime } from '../../src/reports/time-axis.js';

const iso = (timeMs: number) => new Date(chicagoChartTime(timeMs)).toISOString();

describe('chicagoChartTime', () => {
  it('shows the Chicago wall clock on either side of each change of offset, in any order asked', () => {
    const cases: Array<[string, string]> = [
      ['2026-03-08T07:59:59.999Z', '2026-03-08T01:59:59.999Z'], // CST, the last instant before the change
      ['2026-03-08T08:00:00.000Z', '2026-03-08T03:00:00.000Z'], // CDT from 03:00
      ['2026-11-01T06:59:59.999Z', '2026-11-01T01:59:59.999Z'], // CDT
      ['2026-11-01T07:00:00.000Z', '2026-11-01T01:00:00.000Z'], // CST: 01:00 again
    ];
    for (const [utc, wall] of [...cases, ...[...cases].reverse()]) expect(iso(Date.parse(utc)), utc).toBe(wall);
  });

  it('agrees with Intl for any instants of 1990-2040, asked in any order', () => {
    const offset = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', timeZoneName: 'longOffset' });
    const shiftMs = (timeMs: number) => {
      const name = offset.formatToParts(timeMs).find((p) => p.type === 'timeZoneName')!.value; // GMT-05:00
      const [hours, minutes] = name.slice(3).split(':').map(Number);
      return Math.sign(hours!) * (Math.abs(hours!) * 60 + minutes!) * 60_000;
    };
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) }), { minLength: 1 }),
        (times) => {
          for (const timeMs of times) expect(chicagoChartTime(timeMs)).toBe(timeMs + shiftMs(timeMs));
        },
      ),
    );
  });
});
