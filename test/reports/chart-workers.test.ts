// ChartWorkers (src/reports/chart-workers.ts): charts drawn on the pool's threads, each answer matched to its chart; a chart echarts cannot draw fails alone and the threads go on.
import { afterAll, describe, expect, it } from 'vitest';
import { ChartWorkers } from '../../src/reports/chart-workers.js';
import { SvgCharts } from '../../src/reports/svg-chart.js';

const line = (y: number) => ({
  xAxis: { type: 'value' },
  yAxis: { type: 'value' },
  series: [
    {
      type: 'line',
      data: [
        [1, y],
        [2, y + 1],
      ],
    },
  ],
});

describe('ChartWorkers', () => {
  const workers = new ChartWorkers(2);
  afterAll(() => workers.close());

  it('answers each chart with its own SVG, the same as drawn in this thread, whichever thread drew it', async () => {
    const drawn = await Promise.all([10, 20, 30, 40, 50].map((y) => workers.render(300, 200, line(y))));
    const here = new SvgCharts();
    try {
      expect(drawn).toEqual([10, 20, 30, 40, 50].map((y) => here.render(300, 200, line(y))));
    } finally {
      here.dispose();
    }
    expect(new Set(drawn).size).toBe(5);
  });

  it('fails a chart echarts cannot draw, naming why, and draws the next', async () => {
    // A line series whose data is a number, not a list: echarts throws while reading it.
    await expect(workers.render(300, 200, { series: [{ type: 'line', data: 5 }] })).rejects.toThrow();
    await expect(workers.render(300, 200, line(1))).resolves.toContain('<svg');
  });
});
