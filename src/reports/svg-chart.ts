// Charts as SVG strings, rendered in Node by echarts' server-side renderer: reports stay static files.
import * as echarts from 'echarts';

export function renderSvg(width: number, height: number, option: Record<string, unknown>): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: 'system-ui, sans-serif' }, ...option });
    return `<figure class="chart">${chart.renderToSVGString()}</figure>`;
  } finally {
    chart.dispose();
  }
}
