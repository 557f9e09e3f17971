// Charts drawn by one SvgCharts (src/reports/svg-chart.ts) reuse an echarts instance per size, whose SVG id counters
// run on from chart to chart: a chart must come out the same whatever was drawn before it.
import { describe, expect, it, vi } from 'vitest';
import { SvgCharts } from '../../src/reports/svg-chart.js';

const line = (values: number[]) => ({
  xAxis: { type: 'category', data: values.map((_, i) => `t${i}`) },
  yAxis: { type: 'value' },
  series: [{ type: 'line', data: values, areaStyle: {} }],
});

function drawAlone(option: Record<string, unknown>): string {
  const charts = new SvgCharts();
  try {
    return charts.render(400, 200, option);
  } finally {
    charts.dispose();
  }
}

describe('SvgCharts', () => {
  it('draws a chart the same after other charts as alone, with ids named from its content', () => {
    const first = line([3, 1, 4, 1, 5]);
    const second = line([9, 2, 6]);
    const charts = new SvgCharts();
    let drawn: string[];
    try {
      drawn = [charts.render(400, 200, first), charts.render(400, 200, second), charts.render(400, 200, first)];
    } finally {
      charts.dispose();
    }
    expect(drawn[1]).toBe(drawAlone(second));
    expect(drawn[2]).toBe(drawn[0]);
    expect(drawn[0]).toBe(drawAlone(first));
    expect(drawn[0]).not.toMatch(/\bzr\d+-/);
    // Each chart's ids carry its own prefix, so two charts on one page never share an id.
    const ids = (svg: string) => new Set([...svg.matchAll(/id="([^"]+)"/g)].map((m) => m[1]!.slice(0, 12)));
    expect([...ids(drawn[0]!)].some((prefix) => ids(drawn[1]!).has(prefix))).toBe(false);
  });

  it('draws a time axis spanning millennia without the chart library writing to the console', () => {
    // echarts' development build reported its tick limit on stderr (a replay that advanced 999999d).
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    try {
      const start = Date.UTC(2026, 2, 10);
      const svg = drawAlone({
        xAxis: { type: 'time' },
        yAxis: { type: 'value' },
        series: [
          {
            type: 'line',
            data: [
              [start, 1],
              [start + 3000 * 365.25 * 86_400_000, 2],
            ],
          },
        ],
      });
      expect(svg).toContain('<svg');
      expect([...warn.mock.calls, ...error.mock.calls]).toEqual([]);
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });
});
