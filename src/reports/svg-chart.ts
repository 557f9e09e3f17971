// Charts as SVG strings, rendered in Node by echarts' server-side renderer: reports stay static files.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as EChartsModule from 'echarts';

type ECharts = typeof EChartsModule;
type Chart = ReturnType<ECharts['init']>;
let loaded: ECharts | undefined;

/**
 * echarts takes a good part of a second to load: only a command that draws a chart pays for it. Its production build:
 * the default one checks each option for the developer writing it, at a cost to every chart, and prints its
 * warnings on the user's terminal (a replay spanning millennia had its time axis's tick limit reported on stderr).
 */
function echarts(): ECharts {
  return (loaded ??= createRequire(import.meta.url)('echarts/dist/echarts.min') as ECharts);
}

/** Loads echarts now (a chart worker, as its thread starts) rather than at the first chart. */
export function loadEcharts(): void {
  echarts();
}

/** A chart to draw: its size in pixels and its echarts option (plain data: it may cross to a worker thread). */
export interface ChartRequest {
  width: number;
  height: number;
  option: Record<string, unknown>;
}

/** Draws a chart as a <figure> of SVG: in this thread (SvgCharts) or on worker threads (ChartWorkers). */
export interface ChartPainter {
  render(width: number, height: number, option: Record<string, unknown>): string | Promise<string>;
}

/** Pixels between a legend's entries. */
const LEGEND_ITEM_GAP = 24;

/**
 * The charts of one report. A chart instance is made once per size and given each option afresh: making and
 * disposing one per chart was about half of a chart's cost (a replay report draws two dozen). Dispose when done:
 * an instance holds a timer that keeps the process alive.
 */
export class SvgCharts implements ChartPainter {
  private readonly charts = new Map<string, Chart>();

  render(width: number, height: number, option: Record<string, unknown>): string {
    const chart = this.chartOf(width, height);
    // useUTC: times reach the chart already shifted to the wall clock they should read in.
    const base = { animation: false, useUTC: true, textStyle: { fontFamily: 'system-ui, sans-serif' } };
    // A legend's entries are spaced for a browser's sans-serif, which can be wider than echarts' server-side estimate
    // of it (DejaVu: the entries overlapped).
    const legend = option.legend && { itemGap: LEGEND_ITEM_GAP, ...(option.legend as object) };
    chart.setOption({ ...base, ...option, ...(legend ? { legend } : {}) }, { notMerge: true });
    return `<figure class="chart">${stableIds(chart.renderToSVGString(), option)}</figure>`;
  }

  dispose(): void {
    for (const chart of this.charts.values()) chart.dispose();
    this.charts.clear();
  }

  private chartOf(width: number, height: number): Chart {
    const size = `${width}x${height}`;
    let chart = this.charts.get(size);
    if (!chart) {
      chart = echarts().init(null, null, { renderer: 'svg', ssr: true, width, height });
      this.charts.set(size, chart);
    }
    return chart;
  }
}

/**
 * zrender names its SVG ids (`zr3-cls-41`, `zr3-c7`) with counters that run on across the charts an instance and
 * the process drew. A report must be byte-identical however many charts came before it, and its ids unique within
 * the page: each id is renamed from the chart's own content (a hash of its option) and its order of appearance.
 */
function stableIds(svg: string, option: Record<string, unknown>): string {
  const prefix = createHash('sha256').update(JSON.stringify(option)).digest('hex').slice(0, 10);
  const renamed = new Map<string, string>();
  const counts = new Map<string, number>();
  return svg.replace(/\bzr\d+-([a-z]+-?)(\d+)\b/g, (id: string, kind: string) => {
    let name = renamed.get(id);
    if (name === undefined) {
      const count = counts.get(kind) ?? 0;
      counts.set(kind, count + 1);
      name = `c${prefix}-${kind}${count}`;
      renamed.set(id, name);
    }
    return name;
  });
}
