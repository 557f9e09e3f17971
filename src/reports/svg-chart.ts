// Charts as SVG strings, rendered in Node by echarts' server-side renderer: reports stay static files.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as EChartsModule from 'echarts';

type ECharts = typeof EChartsModule;
let loaded: ECharts | undefined;

/** echarts takes a good part of a second to load: only a command that draws a chart pays for it. */
function echarts(): ECharts {
  return (loaded ??= createRequire(import.meta.url)('echarts') as ECharts);
}

export function renderSvg(width: number, height: number, option: Record<string, unknown>): string {
  const chart = echarts().init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    // useUTC: times reach the chart already shifted to the wall clock they should read in.
    chart.setOption({ animation: false, useUTC: true, textStyle: { fontFamily: 'system-ui, sans-serif' }, ...option });
    // zrender numbers its SVG ids with a process-wide counter; ids from the chart's own content keep a report
    // byte-identical however many charts the process drew before it, and unique within the page.
    const prefix = createHash('sha256').update(JSON.stringify(option)).digest('hex').slice(0, 10);
    return `<figure class="chart">${chart.renderToSVGString().replace(/\bzr\d+-/g, `c${prefix}-`)}</figure>`;
  } finally {
    chart.dispose();
  }
}
