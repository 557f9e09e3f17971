// Charts as SVG strings, rendered in Node by echarts' server-side renderer: reports stay static files.
import * as echarts from 'echarts';

export function renderSvg(width: number, height: number, option: Record<string, unknown>): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    // useUTC: times reach the chart already shifted to the wall clock they should read in.
    chart.setOption({ animation: false, useUTC: true, textStyle: { fontFamily: 'system-ui, sans-serif' }, ...option });
    return `<figure class="chart">${chart.renderToSVGString()}</figure>`;
  } finally {
    chart.dispose();
  }
}
