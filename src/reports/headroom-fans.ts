// The back-test report's fan charts (docs/backtesting.md#reading-reporthtml): per cell, the p10/p50/p90 of every
// account's headroom (equity − max-loss trigger) over the period, with the floor at 0. Percentiles instead of one
// line per trader keep a chart readable at any number of traders. Hover values come from an overlay of
// transparent columns with SVG <title>s, one per time bucket, so the page stays static.
import type { FanPoint } from '../backtest/cells/cell-samples.js';
import { escapeHtml } from './html.js';
import type { SvgCharts } from './svg-chart.js';
import { chicagoChartTime } from './time-axis.js';

const WIDTH = 560;
const HEIGHT = 240;
const GRID = { left: 70, right: 16, top: 24, bottom: 34 };
/** Hover columns per chart: enough to read a day at a time over a month, few enough to keep the page small. */
const HOVER_COLUMNS = 60;

/** A y-axis range in dollars, the same for every fan of a report so that their heights compare. */
export interface HeadroomRange {
  min: number;
  max: number;
}

/**
 * The range that holds every fan's p10 and p90 and the floor at 0, widened to a round step (1, 2 or 5 × 10ᵏ
 * dollars, about five of them) so that the axis labels are round.
 */
export function sharedHeadroomRange(fans: ReadonlyArray<readonly FanPoint[]>): HeadroomRange {
  const points = fans.flat();
  const low = Math.min(0, ...points.map((p) => p[1] / 100));
  const high = Math.max(0, ...points.map((p) => p[3] / 100));
  const raw = (high - low) / 5 || 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  return { min: Math.floor(low / step) * step, max: Math.ceil(high / step) * step };
}

export function headroomFan(
  charts: SvgCharts,
  title: string,
  fan: readonly FanPoint[],
  usd: (cents: number) => string,
  range: HeadroomRange,
): string {
  if (fan.length < 2) return '';
  const times = fan.map((p) => chicagoChartTime(p[0]));
  const [first, last] = [times[0]!, times[times.length - 1]!];
  const line = (index: 1 | 2 | 3) => fan.map((p, i) => [times[i], p[index] / 100]);
  const chart = charts.render(WIDTH, HEIGHT, {
    title: { text: title, left: 'center', top: 0, textStyle: { fontSize: 12, fontWeight: 600 } },
    grid: GRID,
    xAxis: { type: 'time', min: first, max: last, axisLabel: { formatter: '{MMM} {d}', fontSize: 10 } },
    yAxis: { type: 'value', min: range.min, max: range.max, axisLabel: { fontSize: 10 } },
    series: [
      { name: 'p10', type: 'line', showSymbol: false, lineStyle: { width: 1, color: '#c62828' }, data: line(1) },
      { name: 'median', type: 'line', showSymbol: false, lineStyle: { width: 1.8, color: '#1d2433' }, data: line(2) },
      { name: 'p90', type: 'line', showSymbol: false, lineStyle: { width: 1, color: '#2e7d32' }, data: line(3) },
      {
        name: 'floor',
        type: 'line',
        showSymbol: false,
        lineStyle: { width: 1, type: 'dashed', color: '#8e1c1c' },
        data: [
          [first, 0],
          [last, 0],
        ],
      },
    ],
  });
  return chart
    .replace('<figure class="chart">', `<figure class="chart" data-y-range="${range.min} ${range.max}">`)
    .replace('</figure>', `${hoverColumns(fan, times, usd)}</figure>`);
}

/** Transparent columns over the plot area, each titled with the percentiles at its middle sample. */
function hoverColumns(fan: readonly FanPoint[], times: readonly number[], usd: (cents: number) => string): string {
  const [first, last] = [times[0]!, times[times.length - 1]!];
  const plotWidth = WIDTH - GRID.left - GRID.right;
  const plotHeight = HEIGHT - GRID.top - GRID.bottom;
  const columns = Math.min(HOVER_COLUMNS, fan.length);
  const rects: string[] = [];
  for (let c = 0; c < columns; c++) {
    const x0 = GRID.left + (c / columns) * plotWidth;
    const middleTime = first + ((c + 0.5) / columns) * (last - first);
    const i = nearestIndex(times, middleTime);
    const [, p10, p50, p90] = fan[i]!;
    const when = new Date(times[i]!).toISOString().slice(5, 16).replace('T', ' ');
    const text = `${when} CT: p10 ${usd(p10)} · median ${usd(p50)} · p90 ${usd(p90)} above the max-loss floor`;
    rects.push(
      `<rect x="${x0.toFixed(1)}" y="${GRID.top}" width="${(plotWidth / columns).toFixed(1)}" height="${plotHeight}"><title>${escapeHtml(text)}</title></rect>`,
    );
  }
  return `<svg class="hover" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${rects.join('')}</svg>`;
}

function nearestIndex(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && value - sorted[lo - 1]! < sorted[lo]! - value ? lo - 1 : lo;
}
