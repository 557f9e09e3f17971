// report.html's "Outcomes in time" (docs/backtesting.md#outcomes-in-time): in words, how many first evaluations were
// still open at the end; then, per cell against the reference, the cumulative incidence of pass and of fail by trade
// date with the cell's 95 % intervals shaded. One y-scale for every chart, so that their heights compare.
import type { BacktestRun } from '../backtest/run-backtest.js';
import type { CellResult } from '../backtest/cells/cell-runner.js';
import { cellIncidence, openAtEnd } from '../backtest/stats/first-outcomes.js';
import type { IncidencePoint } from '../backtest/stats/incidence.js';
import { escapeHtml } from './html.js';
import type { SvgCharts } from './svg-chart.js';
import { cellLabelIn } from './decision-table.js';

const WIDTH = 560;
const HEIGHT = 240;
/** Charts drawn at most: beyond, the first cells of the grid. */
const CHARTS_MAX = 16;
const PASS = '#2e7d32';
const FAIL = '#c62828';

export function incidenceSection(run: BacktestRun, charts: SvgCharts): string[] {
  const { cells } = run;
  const reference = cells.find((c) => c.cell.index === run.statistics.reference) ?? cells[0];
  if (!reference) return [];
  const curves = new Map(cells.map((c) => [c, cellIncidence(c)]));
  const others = cells.filter((c) => c !== reference);
  const shown = (others.length === 0 ? [reference] : others).slice(0, CHARTS_MAX);
  const top = Math.max(
    ...[...curves.values()].flatMap((points) => points.map((p) => Math.max(p.pass.high, p.fail.high))),
  );
  const yMax = Math.min(100, Math.ceil((top * 100) / 10) * 10 || 10);
  const drawn = shown.map((cell) =>
    incidenceChart(charts, run, cell, curves.get(cell)!, cell === reference ? undefined : curves.get(reference)!, yMax),
  );
  return [
    '<h2>Outcomes in time</h2>',
    `<p>${escapeHtml(openInWords(run, reference))}</p>`,
    `<p class="meta">Each chart: the share of the traders whose first evaluation had passed (green) or failed (red) by each trade date, the cumulative incidence of two competing outcomes; shaded, the cell's 95% intervals; dashed, the reference cell #${reference.cell.index}. An evaluation still open at the end counts as followed to the end, neither passed nor failed. A plan that fails traders later has a red curve that rises later: by the last day it may look safer than it is.${others.length > CHARTS_MAX ? ` ${others.length} cells: shown are the first ${CHARTS_MAX} after the reference.` : ''}</p>`,
    `<div class="fans">${drawn.join('')}</div>`,
  ];
}

/** "By day 22, the last trade date, 80 of 240 first evaluations (33.3%) in cell #0 were still open; …" */
function openInWords(run: BacktestRun, reference: CellResult): string {
  const days = reference.periodDays;
  const share = (c: CellResult) => (c.summary.accounts === 0 ? 0 : openAtEnd(c) / c.summary.accounts);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const shares = run.cells.map(share);
  const range =
    run.cells.length < 2
      ? ''
      : ` Across the ${run.cells.length} cells, ${pct(Math.min(...shares))} to ${pct(Math.max(...shares))} were still open.`;
  return (
    `By day ${days}, the period's last trade date, ${openAtEnd(reference).toLocaleString('en-US')} of ${reference.summary.accounts.toLocaleString('en-US')} first evaluations (${pct(share(reference))}) in cell #${reference.cell.index} were still open: ` +
    `their outcome is not known, and the pass and failure rates above are rates by day ${days}.${range}`
  );
}

function incidenceChart(
  charts: SvgCharts,
  run: BacktestRun,
  cell: CellResult,
  points: readonly IncidencePoint[],
  reference: readonly IncidencePoint[] | undefined,
  yMax: number,
): string {
  const days = points.map((p) => String(p.day));
  const pct = (x: number) => +(x * 100).toFixed(2);
  const band = (kind: 'pass' | 'fail', color: string) => [
    { type: 'line', stack: kind, symbol: 'none', lineStyle: { opacity: 0 }, data: points.map((p) => pct(p[kind].low)) },
    {
      type: 'line',
      stack: kind,
      symbol: 'none',
      lineStyle: { opacity: 0 },
      areaStyle: { color, opacity: 0.15 },
      data: points.map((p) => pct(p[kind].high - p[kind].low)),
    },
  ];
  const line = (
    name: string,
    of: readonly IncidencePoint[],
    kind: 'pass' | 'fail',
    color: string,
    dashed: boolean,
  ) => ({
    name,
    type: 'line',
    showSymbol: false,
    lineStyle: { width: dashed ? 1 : 1.8, color, ...(dashed ? { type: 'dashed' } : {}) },
    itemStyle: { color },
    data: of.map((p) => pct(p[kind].value)),
  });
  const ref = run.statistics.reference;
  return charts.render(WIDTH, HEIGHT, {
    title: {
      text: `#${cell.cell.index}: ${cellLabelIn(run, cell)}`,
      left: 'center',
      top: 0,
      textStyle: { fontSize: 12, fontWeight: 600 },
    },
    tooltip: { trigger: 'axis' },
    grid: { left: 50, right: 16, top: 26, bottom: 40 },
    xAxis: { type: 'category', data: days, name: 'trade date', nameLocation: 'middle', nameGap: 24 },
    yAxis: { type: 'value', min: 0, max: yMax, axisLabel: { formatter: '{value}%', fontSize: 10 } },
    series: [
      ...band('pass', PASS),
      ...band('fail', FAIL),
      line(`#${cell.cell.index} passed`, points, 'pass', PASS, false),
      line(`#${cell.cell.index} failed`, points, 'fail', FAIL, false),
      ...(reference
        ? [line(`#${ref} passed`, reference, 'pass', PASS, true), line(`#${ref} failed`, reference, 'fail', FAIL, true)]
        : []),
    ],
  });
}
