// Chart times in Chicago wall-clock (src/reports/time-axis.ts), across the 2026 changes of offset: CST is UTC-6 and CDT
// UTC-5; the clocks change at 02:00 wall time, 08:00 UTC on 2026-03-08 and 07:00 UTC on 2026-11-01.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SvgCharts } from '../../src/reports/svg-chart.js';
import { CHICAGO_TIME_AXIS_LABEL, chicagoChartTime } from '../../src/reports/time-axis.js';

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

describe('CHICAGO_TIME_AXIS_LABEL', () => {
  /** The x axis labels of an equity chart's size (1100 x 320, as replay-report.ts draws it) over [start, end]. */
  function axisLabels(startIso: string, endIso: string): Array<{ x: number; text: string }> {
    const [start, end] = [Date.parse(startIso), Date.parse(endIso)];
    const charts = new SvgCharts();
    try {
      const svg = charts.render(1100, 320, {
        grid: { left: 80, right: 110, top: 36, bottom: 40 },
        xAxis: { type: 'time', axisLabel: CHICAGO_TIME_AXIS_LABEL },
        yAxis: { type: 'value', axisLabel: { show: false } },
        series: [
          {
            type: 'line',
            data: [
              [start, 1],
              [end, 2],
            ],
          },
        ],
      });
      return [...svg.matchAll(/<text[^>]*translate\(([\d.]+) 288\)[^>]*>([^<]*)<\/text>/g)]
        .map((m) => ({ x: Number(m[1]), text: m[2]! }))
        .sort((a, b) => a.x - b.x);
    } finally {
      charts.dispose();
    }
  }

  /** Neighbouring labels (centred on x) at least 8 px apart, at 7 px a character (12 px sans-serif digits are ~6.7). */
  function expectApart(labels: Array<{ x: number; text: string }>): void {
    for (let i = 1; i < labels.length; i++) {
      const [a, b] = [labels[i - 1]!, labels[i]!];
      const room = b.x - a.x - ((a.text.length + b.text.length) / 2) * 7;
      expect(room, `${a.text} at ${a.x} and ${b.text} at ${b.x}`).toBeGreaterThanOrEqual(8);
    }
  }

  it('an hour (real-6e-bars): hours and minutes, labels apart (a date on each, 76 px apart, overlapped)', () => {
    // 12 labels of 5 minutes over 910 px: 75.8 px apart; "01-02 08:05" is 11 x 7 = 77 px wide, "08:05" 35 px.
    const labels = axisLabels('2024-01-02T08:00:00Z', '2024-01-02T09:00:00Z');
    expect(labels.map((l) => l.text)).toContain('08:30');
    expect(labels.length).toBeGreaterThanOrEqual(6);
    expectApart(labels);
  });

  it('several days: the date where a day starts, the time between, labels apart', () => {
    const labels = axisLabels('2026-03-10T08:00:00Z', '2026-03-13T08:00:00Z');
    expect(labels.map((l) => l.text)).toEqual(expect.arrayContaining(['03-11', '03-12', '12:00']));
    expectApart(labels);
  });
});
