// report.html of a back-test: a page a risk analyst can answer "what does this plan change do" from. Static
// HTML with SVG charts rendered in Node (echarts SSR): pass rate over two grid dimensions, failure causes per
// cell, an equity fan with the max-loss and daily-loss floors of sample traders, and the economics table.
import { chicagoChartTime } from './time-axis.js';
import type { BacktestRun } from '../backtest/run-backtest.js';
import { causesChart } from './cause-chart.js';
import { funnelCounts } from './backtest-funnel.js';
import { escapeHtml, htmlPage, htmlTable, SORTABLE_TABLES_SCRIPT } from './html.js';
import { cellLabelIn, decisionTable, netHeadline } from './decision-table.js';
import { headroomFan, sharedHeadroomRange } from './headroom-fans.js';
import { formatUsd as money } from './usd.js';
import { feesOnly, highestNetCell, mostPassingCell } from '../backtest/stats/cell-ranking.js';
import { SvgCharts } from './svg-chart.js';
import { withoutFlatRuns } from './chart-budget.js';
import { decisionSentence, guidanceSentence } from './signal-or-noise.js';
import { noiseGuidance } from '../backtest/stats/decisions.js';
import { gridSize } from '../backtest/config/cell-subset.js';
import { gridValueText } from '../backtest/config/grid.js';
import { wilsonInterval } from '../backtest/stats/statistics.js';
import type { DroppedFills } from '../backtest/fills/dropped-fills.js';
import { missingPrintsOf, missingPrintsSentence } from './missing-prints.js';
import { tapeNote } from './backtest-summary.js';
import { incidenceSection } from './incidence-charts.js';
import { runWarnings } from './run-warnings.js';
import { validationSection } from './validation-outputs.js';
import { summarizeValidation } from '../backtest/validation/compare-records.js';
import { offMarketSection } from './off-market-fills.js';

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
  // Only historical fills can be dropped (docs/backtesting.md#fills-the-engine-dropped).
  const hasFills = config.fills !== undefined;
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
      ...(hasFills ? ['fills dropped: locked · failed · passed', 'positions never had'] : []),
    ],
    cells.map(({ cell, summary: s }) => [
      `#${cell.index}`,
      ...config.grid.map((a) => gridValueText(cell.values[a.key])),
      count(s.accounts),
      count(s.passed),
      count(s.failed),
      passRateWithInterval(s.passed, s.accounts),
      s.medianDaysToPass ?? '–',
      s.medianDaysToFail ?? '–',
      count(s.dailyLockDays),
      money(s.meanFinalBalanceCents),
      money(s.revenueCents),
      money(s.payoutsCents),
      money(s.netCents),
      ...(hasFills ? [droppedFillsText(s.droppedFills), count(s.positionsNeverHad)] : []),
    ]),
  );
  const sections = [
    `<h1>${escapeHtml(config.name)}</h1>`,
    `<p class="meta">${escapeHtml(config.file)} · period ${config.period.from} to ${config.period.to}${escapeHtml(tapeNote(run))} · base plan ${escapeHtml(config.basePlanName)} · ${cells[0]?.summary.accounts ?? 0} traders × ${cells.length} cells${config.cells === undefined ? '' : ` (a subset of the grid's ${gridSize(config)}: ${config.cells.join(', ')})`} · seed ${config.seed} · ${economicsMeta(run)}</p>`,
    ...missingPrintsNote(run),
    ...warningNotes(run),
    '<h2>How to read this</h2>',
    `<p>${escapeHtml(howToRead(run))}</p>`,
    '<h2>Decision</h2>',
    netHeadline(run),
    decisionTable(run),
    ...validationPart(run),
    '<h2>Pass rate across the grid</h2>',
    passRateHeatmap(run, charts),
    '<h2>Outcomes and their causes per cell</h2>',
    causesChart(run, charts),
    ...incidenceSection(run, charts),
    '<h2>The funnel per cell</h2>',
    funnelChart(run, charts),
    '<h2>Firm economics per cell</h2>',
    feesAgainstPayouts(run, charts),
    `<div class="wide">${economics}</div>`,
    ...offMarketSection(run),
    ...signalOrNoise(run),
    ...headroomFans(run, charts),
    ...sampleTraderCharts(run, charts),
  ];
  return htmlPage(`${config.name}: propsim back-test`, sections.join('\n') + SORTABLE_TABLES_SCRIPT);
}

const count = (n: number) => n.toLocaleString('en-US');
const droppedFillsText = (d: DroppedFills) => [d.locked, d.failed, d.passed].map(count).join(' · ');

const FUNNEL_STEPS = [
  ['evaluations', 'evaluations', '#90a4ae'],
  ['passes', 'passes', '#2e7d32'],
  ['funded', 'funded', '#1565c0'],
  ['paid', 'paid at least once', '#ef6c00'],
] as const;

/** Per cell, the traders at each step: evaluations → passes → funded → paid (docs/backtesting.md#the-funnel). */
function funnelChart(run: BacktestRun, charts: SvgCharts): string {
  const counts = run.cells.map((c) => funnelCounts(c.traders));
  const note = run.config.economics.funnel?.funded
    ? ''
    : '<p class="meta">This config has no funded stage (economics.funded): no trader is funded or paid.</p>';
  return (
    note +
    charts.render(900, 320, {
      legend: { top: 0 },
      grid: { left: 60, right: 20, top: 40, bottom: 40 },
      xAxis: { type: 'category', data: run.cells.map((c) => `#${c.cell.index}`), name: 'cell' },
      yAxis: { type: 'value', name: 'traders', minInterval: 1 },
      series: FUNNEL_STEPS.map(([key, name, color]) => ({
        name,
        type: 'bar',
        itemStyle: { color },
        label: { show: run.cells.length <= 12, position: 'top', fontSize: 10 },
        data: counts.map((c) => c[key]),
      })),
    })
  );
}

/** Per cell, the fees the firm took (by kind, stacked) against the payouts it made, and the net between them. */
function feesAgainstPayouts(run: BacktestRun, charts: SvgCharts): string {
  const economics = run.cells.map((c) => c.summary.economics);
  const dollars = (of: (e: (typeof economics)[number]) => number) => economics.map((e) => of(e) / 100);
  const fee = (name: string, color: string, of: (e: (typeof economics)[number]) => number) => ({
    name,
    type: 'bar',
    stack: 'fees',
    itemStyle: { color },
    data: dollars(of),
  });
  return charts.render(900, 320, {
    legend: { top: 0 },
    grid: { left: 80, right: 20, top: 40, bottom: 40 },
    xAxis: { type: 'category', data: run.cells.map((c) => `#${c.cell.index}`), name: 'cell' },
    yAxis: { type: 'value', name: 'USD' },
    series: [
      fee('evaluation fees', '#1565c0', (e) => e.evaluationFeesCents),
      fee('reset fees', '#5e92f3', (e) => e.resetFeesCents),
      fee('activation fees', '#90caf9', (e) => e.activationFeesCents),
      { name: 'payouts', type: 'bar', itemStyle: { color: '#ef6c00' }, data: dollars((e) => e.payoutsCents) },
      { name: 'net', type: 'line', itemStyle: { color: '#2e7d32' }, data: dollars((e) => e.netCents) },
    ],
  });
}

/** A warning under the title when a traded contract printed nothing in a session. */
function missingPrintsNote(run: BacktestRun): string[] {
  const sentence = missingPrintsSentence(missingPrintsOf(run));
  return sentence === undefined ? [] : [`<p class="warning" style="color:#b71c1c">${escapeHtml(sentence)}.</p>`];
}

/** The reference cell against the firm's records, right after the decision it qualifies (with records only). */
function validationPart(run: BacktestRun): string[] {
  const rows = run.cells.find((c) => c.cell.index === run.statistics.reference)?.validation;
  if (!rows) return [];
  return validationSection(rows, summarizeValidation(rows), run.statistics.reference, run.cells.length);
}

/** The run's warnings (run-warnings.ts), above everything they qualify. */
function warningNotes(run: BacktestRun): string[] {
  return runWarnings(run).map(
    (w) =>
      `<p class="warning" data-code="${w.code}" style="color:#b71c1c"><b>Warning:</b> ${escapeHtml(w.message)}</p>`,
  );
}

/** What the firm's net counts in this run: the funnel's fees and payouts, or price paid and payout share. */
function economicsMeta(run: BacktestRun): string {
  const { economics } = run.config;
  if (economics.funnel) return 'economics: the funnel (evaluation, reset and activation fees less payouts)';
  return `price paid ${money(economics.pricePaidCents)}, payout share ${economics.payoutShare}`;
}

/** The three sentences the page opens with. */
function howToRead(run: BacktestRun): string {
  const { reference, decisions } = run.statistics;
  const net = run.config.economics.funnel
    ? 'the fees the firm takes (evaluations, resets, activations) less the payouts it makes to funded traders'
    : "the price paid less the payout share of a pass's profit";
  return (
    (decisions.length === 0
      ? 'The decision table has one row: this run is one cell of the grid, so it compares nothing. '
      : `Each row of the decision table is one cell of the grid, a variant of the plan, and the same traders trade in every cell, so the differences between rows come from the plan; cell #${reference} is the reference every other cell is compared with, trader by trader. `) +
    (decisions.length === 0
      ? 'Each figure has a 95% interval; with one cell there is no difference to judge. '
      : `Each cell's figure has a 95% interval of its own, and a difference from #${reference} says "differs" only when its p-value, adjusted by Holm's method over all ${decisions.length} comparisons, is under 0.05 (its interval, at the level Holm holds that comparison to, then excludes 0; on net it says whether the cell is better or worse for the firm), while "no evidence" means this run is too small to tell, not that the cells are the same. `) +
    `Net per trader is ${net}, divided by the traders; docs/backtesting.md defines every figure and what the model leaves out.`
  );
}

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
  // A net that is fee income only (no payouts anywhere) differs without the green that reads as better for the firm.
  const feeIncomeOnly = feesOnly(run.config, run.cells);
  const verdictClass = (d: (typeof decisions)[number]) =>
    d.verdict !== 'differs'
      ? 'noise'
      : d.metric !== 'net_per_trader'
        ? 'shift'
        : feeIncomeOnly
          ? 'fees-only'
          : d.difference > 0
            ? 'better'
            : 'worse';
  const items = decisions.map(
    (d) => `<li class="${verdictClass(d)}">${escapeHtml(decisionSentence(d, decisions.length, feeIncomeOnly))}</li>`,
  );
  return [
    '<h2>Signal or noise</h2>',
    `<p>The same traders trade in every cell, so each cell is compared with cell #${reference} trader by trader: an exact McNemar test for the pass and failure rates; for the net per trader, an empirical likelihood test of the mean difference, which holds its level when a few traders' payouts carry it (with the t-test's agreement required when fewer than ten traders do). The p-values are adjusted by Holm's method over all ${decisions.length} comparisons, so that "differs" (adjusted p under 0.05) is wrong for any of them at most one time in twenty; otherwise the run shows no evidence either way, and says how large a difference it would have detected. Each interval is its test's at the level Holm holds that comparison to, so it excludes 0 exactly when the comparison differs. Nothing is resampled: the same run gives the same p-values. ${differs} of ${decisions.length} comparisons differ.</p>`,
    `<ul class="verdict">${items.join('')}</ul>`,
    `<p>${escapeHtml(guidanceSentence(noiseGuidance(run.cells, run.statistics), reference, decisions.length, run.config))}</p>`,
  ];
}

/** Pass rate as a heatmap over the first grid dimension (x) and the rest combined (y). */
function passRateHeatmap(run: BacktestRun, charts: SvgCharts): string {
  const { config, cells } = run;
  if (config.grid.length === 0) return '<p class="none">no grid: one cell</p>';
  const [xAxis, ...rest] = config.grid;
  const xValues = xAxis!.values.map(gridValueText);
  const yLabel = (values: Record<string, unknown>) =>
    rest.map((a) => `${a.key.replace('risk_profile.', '')}=${gridValueText(values[a.key])}`).join(' ') || 'all';
  const yValues = [...new Set(cells.map((c) => yLabel(c.cell.values)))];
  const { reference, decisions } = run.statistics;
  // Only the metric the heatmap maps: a cell that differs on failure rate or net is not marked here.
  const differing = new Set(
    decisions.filter((d) => d.metric === 'pass_rate' && d.verdict === 'differs').map((d) => d.cell),
  );
  const data = cells.map((c) => {
    // One decimal on every label (4.0% beside 3.5%, not 4%): the value is a number, the label its fixed text.
    const percent = (Number(c.summary.passRate) * 100).toFixed(1);
    const value = [
      xValues.indexOf(gridValueText(c.cell.values[xAxis!.key])),
      yValues.indexOf(yLabel(c.cell.values)),
      +percent,
    ];
    const mark = c.cell.index === reference ? ' ref' : differing.has(c.cell.index) ? ' ◆' : '';
    return {
      value,
      label: { formatter: `${percent}%${mark}` },
      ...(differing.has(c.cell.index) ? { itemStyle: { borderColor: '#1d2433', borderWidth: 3 } } : {}),
    };
  });
  const scaleMax = Math.max(1, ...data.map((d) => d.value[2]!));
  const legend = `<p class="meta">◆ and a dark border: the cell's pass rate differs from #${reference}'s (ref), paired by trader and Holm-adjusted p under 0.05. ${differing.size} of ${cells.length - 1} cells differ on pass rate; the decision table has the failure rate and the net.</p>`;
  return (
    legend +
    charts.render(900, Math.max(220, 60 + yValues.length * 34), {
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
        text: [`${scaleMax.toFixed(1)}% pass`, '0.0%'],
        inRange: { color: ['#fbe9e7', '#81c784', '#1b5e20'] },
      },
      series: [{ type: 'heatmap', data, label: { show: true } }],
    })
  );
}

/** Cells worth a fan: all of them in a small grid, else cell #0, the highest net and the highest pass rate. */
const FAN_CELLS_MAX = 16;

function headroomFans(run: BacktestRun, charts: SvgCharts): string[] {
  const { cells } = run;
  const shown =
    cells.length <= FAN_CELLS_MAX ? cells : [...new Set([cells[0]!, highestNetCell(cells)!, mostPassingCell(cells)!])];
  const title = (c: (typeof cells)[number]) => `#${c.cell.index}: ${cellLabelIn(run, c)}`;
  // One y-scale for every fan, so that a taller fan means more headroom, not a different axis.
  const range = sharedHeadroomRange(shown.map((c) => c.fan));
  const fans = shown.map((c) => headroomFan(charts, title(c), c.fan, money, range)).filter(Boolean);
  if (fans.length === 0) return [];
  return [
    '<h2>Headroom above the max-loss floor, per cell</h2>',
    `<p class="meta">Every account of the cell, every 30 minutes (CT): the median (black) and the 10th and 90th percentiles (red, green) of equity minus the max-loss trigger, in USD, on one scale for every cell. The dashed line at 0 is the floor: a percentile that reaches it means at least that share of accounts has breached. Titles give the cell and its plan. Hover a chart for the values.${cells.length > FAN_CELLS_MAX ? ` ${cells.length} cells: shown are #0, the highest net and the highest pass rate.` : ''}</p>`,
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
          itemStyle: { color }, // the legend's swatch
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
      `<h2>Sample traders in cell #${cell.cell.index} (${escapeHtml(cellLabelIn(run, cell))})</h2>`,
      '<p class="meta">The legend names each trader and its colour. Solid: equity every 30 minutes (CT). Dashed: the max-loss floor; dotted: the daily-loss floor, same colour. A failed account\'s lines end at the sample that saw its breach.</p>',
      charts.render(1100, 480, {
        // The legend names the traders (their equity lines); the floors share each trader's colour.
        legend: { top: 0, left: 60, right: 20, data: samples.map((s) => s.trader), textStyle: { fontSize: 11 } },
        // Room for two rows of legend (eight long trader names) above the axis name.
        grid: { left: 70, right: 20, top: 92, bottom: 50 },
        xAxis: { type: 'time', axisLabel: { formatter: '{MMM} {d}' } },
        yAxis: { type: 'value', scale: true, name: 'USD' },
        series,
      }),
    ];
  });
}
