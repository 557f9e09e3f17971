// report.html of a back-test: a page a risk analyst can answer "what does this plan change do" from. Static
// HTML with SVG charts rendered in Node (echarts SSR): pass rate over two grid dimensions, failure causes per
// cell, an equity fan with the max-loss and daily-loss floors of sample traders, and the economics table.
import { chicagoChartTime } from './time-axis.js';
import type { BacktestRun } from '../backtest/run-backtest.js';
import { CAUSES } from '../backtest/outcomes.js';
import { escapeHtml, htmlPage, htmlTable } from './html.js';
import { headroomFan } from './headroom-fans.js';
import { formatUsd as money } from './usd.js';
import { highestNetCell, mostPassingCell } from '../backtest/cell-ranking.js';
import { SvgCharts } from './svg-chart.js';
import { withoutFlatRuns } from './chart-budget.js';
import { decisionSentence, guidanceSentence } from './signal-or-noise.js';
import { noiseGuidance } from '../backtest/decisions.js';
import { gridSize } from '../backtest/cell-subset.js';
import { wilsonInterval } from '../backtest/statistics.js';

const CAUSE_COLORS: Record<string, string> = {
  passed: '#2e7d32',
  max_loss_breach: '#c62828',
  profit_target_not_reached: '#9e9e9e',
  min_trading_days_not_met: '#f9a825',
  consistency_not_met: '#6a1b9a',
};

export function backtestReportHtml(run: BacktestRun): string {
  const charts = new SvgCharts();
  try {
    return reportHtml(run, charts);
  } finally {
    charts.dispose();
  }
}

function reportHtml(run: BacktestRun, charts: SvgCharts): string {
  const { config, cells } = run;
  const labels = cells.map((c) => `#${c.cell.index}`);
  const economics = htmlTable(
    [
      'cell',
      ...config.grid.map((a) => a.key.replace('risk_profile.', '')),
      'accounts',
      'passed',
      'failed',
      'pass rate (95% interval)',
      'median days to pass',
      'median days to fail',
      'daily-lock days',
      'mean final balance',
      'revenue',
      'payouts',
      'net',
    ],
    cells.map(({ cell, summary: s }) => [
      `#${cell.index}`,
      ...config.grid.map((a) => String(cell.values[a.key] ?? 'none')),
      count(s.accounts),
      count(s.passed),
      count(s.failedMaxLoss),
      passRateWithInterval(s.passed, s.accounts),
      s.medianDaysToPass ?? '–',
      s.medianDaysToFail ?? '–',
      count(s.dailyLockDays),
      money(s.meanFinalBalanceCents),
      money(s.revenueCents),
      money(s.payoutsCents),
      money(s.netCents),
    ]),
  );
  const best = highestNetCell(cells)!;
  const mostPassing = mostPassingCell(cells)!;
  const sections = [
    `<h1>${escapeHtml(config.name)}</h1>`,
    `<p class="meta">${escapeHtml(config.file)} · period ${config.period.from} to ${config.period.to} · base plan ${escapeHtml(config.basePlanName)} · ${cells[0]?.summary.accounts ?? 0} traders × ${cells.length} cells${config.cells === undefined ? '' : ` (a subset of the grid's ${gridSize(config)}: ${config.cells.join(', ')})`} · seed ${config.seed} · price paid ${money(config.economics.pricePaidCents)}, payout share ${config.economics.payoutShare}</p>`,
    `<p>Highest net for the firm: <b>cell #${best.cell.index}</b> (${escapeHtml(best.cell.label)}): ${money(best.summary.netCents)}, pass rate ${(Number(best.summary.passRate) * 100).toFixed(1)}%. Highest pass rate: <b>cell #${mostPassing.cell.index}</b> (${escapeHtml(mostPassing.cell.label)}): ${(Number(mostPassing.summary.passRate) * 100).toFixed(1)}%, net ${money(mostPassing.summary.netCents)}.</p>`,
    '<h2>Pass rate across the grid</h2>',
    passRateHeatmap(run, charts),
    '<h2>Outcomes and their causes per cell</h2>',
    charts.render(900, 360, {
      tooltip: {},
      legend: { top: 0, textStyle: { fontSize: 11 } },
      grid: { left: 60, right: 40, top: 52, bottom: 40 },
      xAxis: { type: 'category', data: labels, name: 'cell' },
      yAxis: { type: 'value', name: 'accounts' },
      series: CAUSES.map((cause) => ({
        name: cause,
        type: 'bar',
        stack: 'all',
        itemStyle: { color: CAUSE_COLORS[cause] },
        data: cells.map((c) => c.summary.causes[cause]),
      })),
    }),
    '<h2>Firm economics per cell</h2>',
    charts.render(900, 320, {
      legend: { top: 0 },
      grid: { left: 80, right: 20, top: 40, bottom: 40 },
      xAxis: { type: 'category', data: labels, name: 'cell' },
      yAxis: { type: 'value', name: 'USD' },
      series: [
        {
          name: 'revenue',
          type: 'bar',
          itemStyle: { color: '#1565c0' },
          data: cells.map((c) => c.summary.revenueCents / 100),
        },
        {
          name: 'payouts',
          type: 'bar',
          itemStyle: { color: '#ef6c00' },
          data: cells.map((c) => c.summary.payoutsCents / 100),
        },
        {
          name: 'net',
          type: 'line',
          itemStyle: { color: '#2e7d32' },
          data: cells.map((c) => c.summary.netCents / 100),
        },
      ],
    }),
    `<div class="wide">${economics}</div>`,
    ...signalOrNoise(run),
    ...headroomFans(run, charts),
    ...sampleTraderCharts(run, charts),
    '<h2>How to read this</h2>',
    `<p>Each synthetic trader trades the same way in every cell until the cell's rules (a daily-loss lock, a max-loss breach, a pass) change what it can do, so differences between cells come from the plan parameters. Pass rate = passed / accounts at the end of the period; a cause says why an account did not pass (max_loss_breach: failed; otherwise the first unmet passing criterion). Revenue = accounts × price paid; payouts = payout share × profit of passed accounts; net = revenue − payouts. See docs/backtesting.md for the exact definitions and what the model leaves out.</p>`,
  ];
  return htmlPage(`${config.name}: propsim back-test`, sections.join('\n'));
}

const count = (n: number) => n.toLocaleString('en-US');

/** "4.2% (2.3–7.5%)": the pass rate and its 95 % Wilson interval. */
function passRateWithInterval(passed: number, accounts: number): string {
  const { low, high } = wilsonInterval(passed, accounts);
  const pct = (x: number) => (x * 100).toFixed(1);
  return `${pct(accounts === 0 ? 0 : passed / accounts)}% (${pct(low)}–${pct(high)}%)`;
}

/**
 * Which differences the run can vouch for (docs/backtesting.md#signal-or-noise): each cell against the reference on
 * pass rate, failure rate and net per trader, paired by trader and Holm-adjusted, then how many traders a question
 * needs.
 */
function signalOrNoise(run: BacktestRun): string[] {
  const { decisions, reference } = run.statistics;
  if (decisions.length === 0) return [];
  const differs = decisions.filter((d) => d.verdict === 'differs').length;
  const items = decisions.map(
    (d) =>
      `<li class="${d.verdict === 'differs' ? 'signal' : 'noise'}">${escapeHtml(decisionSentence(d, decisions.length))}</li>`,
  );
  return [
    '<h2>Signal or noise</h2>',
    `<p>The same traders trade in every cell, so each cell is compared with cell #${reference} trader by trader: an exact McNemar test for the pass and failure rates, a sign-flip test for the net per trader. The p-values are adjusted by Holm's method over all ${decisions.length} comparisons, so that "differs" (adjusted p under 0.05) is wrong for any of them at most one time in twenty; otherwise the run shows no evidence either way, and says how large a difference it would have detected. ${differs} of ${decisions.length} comparisons differ.</p>`,
    `<ul class="verdict">${items.join('')}</ul>`,
    `<p>${escapeHtml(guidanceSentence(noiseGuidance(run.cells, run.statistics), reference, decisions.length))}</p>`,
  ];
}

/** Pass rate as a heatmap over the first grid dimension (x) and the rest combined (y). */
function passRateHeatmap(run: BacktestRun, charts: SvgCharts): string {
  const { config, cells } = run;
  if (config.grid.length === 0) return '<p class="none">no grid: one cell</p>';
  const [xAxis, ...rest] = config.grid;
  const xValues = xAxis!.values.map(String);
  const yLabel = (values: Record<string, unknown>) =>
    rest.map((a) => `${a.key.replace('risk_profile.', '')}=${values[a.key] ?? 'none'}`).join(' ') || 'all';
  const yValues = [...new Set(cells.map((c) => yLabel(c.cell.values)))];
  const data = cells.map((c) => [
    xValues.indexOf(String(c.cell.values[xAxis!.key])),
    yValues.indexOf(yLabel(c.cell.values)),
    +(Number(c.summary.passRate) * 100).toFixed(1),
  ]);
  const scaleMax = Math.max(1, ...data.map((d) => d[2]!));
  return charts.render(900, Math.max(220, 60 + yValues.length * 34), {
    grid: { left: 330, right: 90, top: 20, bottom: 50 },
    xAxis: {
      type: 'category',
      data: xValues,
      name: xAxis!.key.replace('risk_profile.', ''),
      nameLocation: 'middle',
      nameGap: 30,
    },
    yAxis: { type: 'category', data: yValues },
    visualMap: {
      min: 0,
      max: scaleMax,
      calculable: false,
      orient: 'vertical',
      right: 0,
      top: 'center',
      text: [`${scaleMax}% pass`, '0%'],
      inRange: { color: ['#fbe9e7', '#81c784', '#1b5e20'] },
    },
    series: [{ type: 'heatmap', data, label: { show: true, formatter: (p: { value: number[] }) => `${p.value[2]}%` } }],
  });
}

/** Cells worth a fan: all of them in a small grid, else cell #0, the highest net and the highest pass rate. */
const FAN_CELLS_MAX = 16;

function headroomFans(run: BacktestRun, charts: SvgCharts): string[] {
  const { cells } = run;
  const shown =
    cells.length <= FAN_CELLS_MAX ? cells : [...new Set([cells[0]!, highestNetCell(cells)!, mostPassingCell(cells)!])];
  const title = (c: (typeof cells)[number]) =>
    `#${c.cell.index}: ${run.config.grid.map((a) => String(c.cell.values[a.key] ?? 'none')).join(' · ')}`;
  const fans = shown.map((c) => headroomFan(charts, title(c), c.fan, money)).filter(Boolean);
  if (fans.length === 0) return [];
  return [
    '<h2>Headroom above the max-loss floor, per cell</h2>',
    `<p class="meta">Every account of the cell, every 30 minutes (CT): the median (black) and the 10th and 90th percentiles (red, green) of equity minus the max-loss trigger, in USD. The dashed line at 0 is the floor: a percentile that reaches it means at least that share of accounts has breached. Titles give the cell's ${escapeHtml(run.config.grid.map((a) => a.key.replace('risk_profile.', '')).join(' · ') || 'values')}. Hover a chart for the values.${cells.length > FAN_CELLS_MAX ? ` ${cells.length} cells: shown are #0, the highest net and the highest pass rate.` : ''}</p>`,
    `<div class="fans">${fans.join('')}</div>`,
  ];
}

/** Equity of sample traders with their floors, for the first cell and the cell with the highest net. */
function sampleTraderCharts(run: BacktestRun, charts: SvgCharts): string[] {
  const best = highestNetCell(run.cells)!;
  const picks = [...new Set([run.cells[0]!, best])];
  return picks.flatMap((cell) => {
    const samples = cell.samples.slice(0, 8);
    if (samples.length === 0) return [];
    const series = samples.flatMap((s, i) => {
      const color = `hsl(${(i * 47) % 360} 60% 42%)`;
      // Times shifted to Chicago wall-clock so the axis reads in CT (the report's zone for sessions).
      const time = chicagoChartTime;
      return [
        {
          name: s.trader,
          type: 'line',
          showSymbol: false,
          lineStyle: { width: 1.4, color },
          data: s.points.map((p) => [time(p[0]), p[1] / 100]),
        },
        {
          name: `${s.trader} max-loss floor`,
          type: 'line',
          showSymbol: false,
          lineStyle: { width: 1, type: 'dashed', color },
          data: withoutFlatRuns(s.points.map((p) => [time(p[0]), p[2] / 100] as const)),
        },
        {
          name: `${s.trader} daily floor`,
          type: 'line',
          showSymbol: false,
          lineStyle: { width: 0.8, type: 'dotted', color },
          data: withoutFlatRuns(s.points.filter((p) => p[3] !== null).map((p) => [time(p[0]), p[3]! / 100] as const)),
        },
      ];
    });
    return [
      `<h2>Sample traders in cell #${cell.cell.index} (${escapeHtml(cell.cell.label)})</h2>`,
      '<p class="meta">Solid: equity every 30 minutes (CT). Dashed: the max-loss floor; dotted: the daily-loss floor, same colour. A failed account\'s lines end at the sample that saw its breach.</p>',
      charts.render(1100, 420, {
        grid: { left: 70, right: 20, top: 20, bottom: 50 },
        xAxis: { type: 'time', axisLabel: { formatter: '{MMM} {d}' } },
        yAxis: { type: 'value', scale: true, name: 'USD' },
        series,
      }),
    ];
  });
}
