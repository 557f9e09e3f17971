// A thread of ChartWorkers (chart-workers.ts): draws the charts it is sent, in order (plain data in, an SVG string
// out). echarts is loaded as the thread starts, so a replay's charts find it loaded when the run ends.
import { parentPort } from 'node:worker_threads';
import { loadEcharts, SvgCharts, type ChartRequest } from './svg-chart.js';

export interface ChartTask {
  id: number;
  request: ChartRequest;
}

/** A chart's SVG, or why it could not be drawn. */
export interface ChartAnswer {
  id: number;
  svg?: string;
  error?: string;
}

if (parentPort) {
  const port = parentPort;
  loadEcharts();
  const charts = new SvgCharts(); // lives as long as the thread; terminating it ends both
  port.on('message', ({ id, request }: ChartTask) => {
    let answer: ChartAnswer;
    try {
      answer = { id, svg: charts.render(request.width, request.height, request.option) };
    } catch (error) {
      answer = { id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(answer);
  });
}
