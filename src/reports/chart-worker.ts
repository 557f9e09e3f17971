// The piscina worker entry of ChartWorkers (chart-workers.ts): draws one chart (plain data in, an SVG string out).
// echarts is loaded as the thread starts, so a replay's charts find it loaded when the run ends.
import { loadEcharts, SvgCharts, type ChartRequest } from './svg-chart.js';

loadEcharts();
const charts = new SvgCharts(); // lives as long as the thread; the pool's destroy ends both

export default function drawChart({ width, height, option }: ChartRequest): string {
  return charts.render(width, height, option);
}
