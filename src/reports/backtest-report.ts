// report.html of a back-test: a page a risk analyst can answer "what does this plan change do" from. Static
// HTML with SVG charts rendered in Node (echarts SSR): pass rate over two grid dimensions, failure causes per
// cell, an equity fan with the max-loss and daily-loss floors of sample traders, and the economics table.
import { formatCents } from '../core/money.js';
import { chicagoChartTime } from './time-axis.js';
import type { BacktestRun } from '../backtest/run-backtest.js';
import { CAUSES } from '../backtest/outcomes.js';
import { escapeHtml, htmlPage, htmlTable } from './html.js';
import { renderSvg } from './svg-chart.js';

const CAUSE_COLORS: Record<string, string> = {
  passed: '#2e7d32',
  max_loss_breach: '#c62828',
  profit_target_not_reached: '#9e9e9e',
  min_trading_days_not_met: '#f9a825',
  consistency_not_met: '#6a1b9a',
};

export function backtestReportHtml(run: BacktestRun): string {
  const { config, cells } = run;
  const labels = cells.map((c) => `#${c.cell.index}`);
  const money = (cents: number) => (cents < 0 ? `-$${formatCents(-cents)}` : `$${formatCents(cents)}`);
  const economics = htmlTable(
    ['cell', ...config.grid.map((a) => a.key.replace('risk_profile.', '')), 'accounts', 'passed', 'failed', 'pass rate', 'median days to pass', 'median days to fail', 'daily-lock days', 'mean final balance', 'revenue', 'payouts', 'net'],
    cells.map(({ cell, summary: s }) => [
      `#${cell.index}`,
      ...config.grid.map((a) => String(cell.values[a.key] ?? 'none')),
      s.accounts,
      s.passed,
      s.failedMaxLoss,
      `${(Number(s.passRate) * 100).toFixed(1)}%`,
      s.medianDaysToPass ?? '–',
      s.medianDaysToFail ?? '–',
      s.dailyLockDays,
      money(s.meanFinalBalanceCents),
      money(s.revenueCents),
      money(s.payoutsCents),
      money(s.netCents),
    ]),
  );
  const best = [...cells].sort((a, b) => b.summary.netCents - a.summary.netCents || a.cell.index - b.cell.index)[0]!;
  const mostPassing = [...cells].sort((a, b) => Number(b.summary.passRate) - Number(a.summary.passRate) || a.cell.index - b.cell.index)[0]!;
  const sections = [
    `<h1>${escapeHtml(config.name)}</h1>`,
    `<p class="meta">${escapeHtml(config.file)} · period ${config.period.from} to ${config.period.to} · base plan ${escapeHtml(config.basePlanName)} · ${cells[0]?.summary.accounts ?? 0} traders × ${cells.length} cells · seed ${config.seed} · price paid ${'$' + formatCents(config.economics.pricePaidCents)}, payout share ${config.economics.payoutShare}</p>`,
    `<p>Highest net for the firm: <b>cell #${best.cell.index}</b> (${escapeHtml(best.cell.label)}): ${money(best.summary.netCents)}, pass rate ${(Number(best.summary.passRate) * 100).toFixed(1)}%. Highest pass rate: <b>cell #${mostPassing.cell.index}</b> (${escapeHtml(mostPassing.cell.label)}): ${(Number(mostPassing.summary.passRate) * 100).toFixed(1)}%, net ${money(mostPassing.summary.netCents)}.</p>`,
    '<h2>Pass rate across the grid</h2>',
    passRateHeatmap(run),
    '<h2>Outcomes and their causes per cell</h2>',
    renderSvg(900, 360, {
      tooltip: {},
      legend: { top: 0, textStyle: { fontSize: 11 }, itemGap: 8 },
      grid: { left: 60, right: 40, top: 40, bottom: 40 },
      xAxis: { type: 'category', data: labels, name: 'cell' },
      yAxis: { type: 'value', name: 'accounts' },
      series: CAUSES.map((cause) => ({ name: cause, type: 'bar', stack: 'all', itemStyle: { color: CAUSE_COLORS[cause] }, data: cells.map((c) => c.summary.causes[cause]) })),
    }),
    '<h2>Firm economics per cell</h2>',
    renderSvg(900, 320, {
      legend: { top: 0 },
      grid: { left: 80, right: 20, top: 40, bottom: 40 },
      xAxis: { type: 'category', data: labels, name: 'cell' },
      yAxis: { type: 'value', name: 'USD' },
      series: [
        { name: 'revenue', type: 'bar', itemStyle: { color: '#1565c0' }, data: cells.map((c) => c.summary.revenueCents / 100) },
        { name: 'payouts', type: 'bar', itemStyle: { color: '#ef6c00' }, data: cells.map((c) => c.summary.payoutsCents / 100) },
        { name: 'net', type: 'line', itemStyle: { color: '#2e7d32' }, data: cells.map((c) => c.summary.netCents / 100) },
      ],
    }),
    economics,
    ...fanCharts(run),
    '<h2>How to read this</h2>',
    `<p>Each synthetic trader trades the same way in every cell until the cell's rules (a daily-loss lock, a max-loss breach, a pass) change what it can do, so differences between cells come from the plan parameters. Pass rate = passed / accounts at the end of the period; a cause says why an account did not pass (max_loss_breach: failed; otherwise the first unmet passing criterion). Revenue = accounts × price paid; payouts = payout share × profit of passed accounts; net = revenue − payouts. See docs/backtesting.md for the exact definitions and what the model leaves out.</p>`,
  ];
  return htmlPage(`${config.name}: propsim back-test`, sections.join('\n'));
}

/** Pass rate as a heatmap over the first grid dimension (x) and the rest combined (y). */
function passRateHeatmap(run: BacktestRun): string {
  const { config, cells } = run;
  if (config.grid.length === 0) return '<p class="none">no grid: one cell</p>';
  const [xAxis, ...rest] = config.grid;
  const xValues = xAxis!.values.map(String);
  const yLabel = (values: Record<string, unknown>) => rest.map((a) => `${a.key.replace('risk_profile.', '')}=${values[a.key] ?? 'none'}`).join(' ') || 'all';
  const yValues = [...new Set(cells.map((c) => yLabel(c.cell.values)))];
  const data = cells.map((c) => [xValues.indexOf(String(c.cell.values[xAxis!.key])), yValues.indexOf(yLabel(c.cell.values)), +(Number(c.summary.passRate) * 100).toFixed(1)]);
  return renderSvg(900, Math.max(220, 60 + yValues.length * 34), {
    grid: { left: 330, right: 90, top: 20, bottom: 50 },
    xAxis: { type: 'category', data: xValues, name: xAxis!.key.replace('risk_profile.', ''), nameLocation: 'middle', nameGap: 30 },
    yAxis: { type: 'category', data: yValues },
    visualMap: { min: 0, max: Math.max(1, ...data.map((d) => d[2]!)), calculable: false, orient: 'vertical', right: 0, top: 'center', text: ['pass %', ''], inRange: { color: ['#fbe9e7', '#81c784', '#1b5e20'] } },
    series: [{ type: 'heatmap', data, label: { show: true, formatter: (p: { value: number[] }) => `${p.value[2]}%` } }],
  });
}

/** Equity of sample traders with their floors, for the first cell and the cell with the highest net. */
function fanCharts(run: BacktestRun): string[] {
  const best = [...run.cells].sort((a, b) => b.summary.netCents - a.summary.netCents || a.cell.index - b.cell.index)[0]!;
  const picks = [...new Set([run.cells[0]!, best])];
  return picks.flatMap((cell) => {
    const samples = cell.samples.slice(0, 8);
    if (samples.length === 0) return [];
    const series = samples.flatMap((s, i) => {
      const color = `hsl(${(i * 47) % 360} 60% 42%)`;
      // Times shifted to Chicago wall-clock so the axis reads in CT (the report's zone for sessions).
      const time = chicagoChartTime;
      return [
        { name: s.trader, type: 'line', showSymbol: false, lineStyle: { width: 1.4, color }, data: s.points.map((p) => [time(p[0]), p[1] / 100]) },
        { name: `${s.trader} max-loss floor`, type: 'line', showSymbol: false, lineStyle: { width: 1, type: 'dashed', color }, data: s.points.map((p) => [time(p[0]), p[2] / 100]) },
        { name: `${s.trader} daily floor`, type: 'line', showSymbol: false, lineStyle: { width: 0.8, type: 'dotted', color }, data: s.points.filter((p) => p[3] !== null).map((p) => [time(p[0]), p[3]! / 100]) },
      ];
    });
    return [
      `<h2>Sample traders in cell #${cell.cell.index} (${escapeHtml(cell.cell.label)})</h2>`,
      '<p class="meta">Solid: equity every 30 minutes (CT). Dashed: the max-loss floor; dotted: the daily-loss floor, same colour. A line that ends at its floor is a breach.</p>',
      renderSvg(1100, 420, {
        grid: { left: 70, right: 20, top: 20, bottom: 50 },
        xAxis: { type: 'time', axisLabel: { formatter: '{MMM} {d}' } },
        yAxis: { type: 'value', scale: true, name: 'USD' },
        series,
      }),
    ];
  });
}

