// The top of report.html (docs/backtesting.md#reading-reporthtml): the decision table, one row per cell with its
// three metrics, their 95 % intervals and each one's difference from the reference with its verdict, and the
// headline, which names the highest net only when the run can tell it from every other cell.
import type { BacktestRun } from '../backtest/run-backtest.js';
import type { CellResult } from '../backtest/cell-runner.js';
import { METRICS, noiseGuidance, type Decision, type Estimate, type Metric } from '../backtest/decisions.js';
import { cellsOverlappingOnNet, feesOnly, highestNetCell } from '../backtest/cell-ranking.js';
import { zForComparisons, Z_POWER_80 } from '../backtest/detectable-difference.js';
import { escapeHtml } from './html.js';
import { METRIC_NAMES, signedDifference } from './signal-or-noise.js';
import { formatUsd } from './usd.js';
import { plainCellLabel } from './cell-labels.js';

/** The cell's plain label (cell-labels.ts), its plans taken from the run's config. */
export function cellLabelIn(run: BacktestRun, cell: CellResult): string {
  const { basePlan, economics } = run.config;
  return plainCellLabel(cell.cell.values, basePlan, economics.funnel?.funded?.plan);
}

/** A metric's value as the table prints it: "4.2%" or "$12.50". */
function figure(metric: Metric, x: number): string {
  return metric === 'net_per_trader' ? formatUsd(x) : `${(x * 100).toFixed(1)}%`;
}

function estimateText(metric: Metric, e: Estimate): string {
  return `${figure(metric, e.value)} (${figure(metric, e.low)} to ${figure(metric, e.high)})`;
}

/** A table cell whose sort key (data-sort) is a number, so rows sort by the figure, not by its text. */
const td = (html: string, sortKey?: number, className?: string) =>
  `<td${className ? ` class="${className}"` : ''}${sortKey === undefined ? '' : ` data-sort="${sortKey}"`}>${html}</td>`;

/**
 * "+1.7 points / differs", or "−0.4 points / no evidence" with what the run would have detected on hover. A net that
 * is fee income only differs without the green that reads as better for the firm.
 */
function versusReference(d: Decision | undefined, feeIncomeOnly: boolean): string {
  if (d === undefined) return td('reference', 0, 'noise');
  const difference = escapeHtml(signedDifference(d.metric, d.difference));
  if (d.verdict === 'differs' && d.metric === 'net_per_trader' && feeIncomeOnly)
    return td(`${difference}<br>differs (fee income only)`, d.difference, 'fees-only');
  if (d.verdict === 'differs') return td(`${difference}<br><b>differs</b>`, d.difference, 'signal');
  const detectable = escapeHtml(signedDifference(d.metric, d.detectable).slice(1));
  return `<td class="noise" data-sort="${d.difference}" title="this run would detect about ${detectable}">${difference}<br>no evidence</td>`;
}

/**
 * One row per cell: its plain label, then per metric the value with its 95 % interval and the difference from the
 * reference with its verdict, then the traders still active. Sortable by a click on a heading (SORTABLE_TABLES_SCRIPT);
 * without script it reads in cell order.
 */
export function decisionTable(run: BacktestRun): string {
  const { statistics } = run;
  const ref = `#${statistics.reference}`;
  const feeIncomeOnly = feesOnly(run.config, run.cells);
  const header = [
    'cell',
    'plan',
    ...METRICS.flatMap((m) => [`${metricHeading(run, m, feeIncomeOnly)} (95% interval)`, `vs ${ref}`]),
    'still active',
  ];
  const rows = run.cells.map((cell, i) => {
    const metrics = statistics.cells[i]!.metrics;
    const decisionOf = (m: Metric) => statistics.decisions.find((d) => d.cell === cell.cell.index && d.metric === m);
    const columns = [
      td(`#${cell.cell.index}`, cell.cell.index),
      td(escapeHtml(cellLabelIn(run, cell))),
      ...METRICS.flatMap((m) => [
        td(escapeHtml(estimateText(m, metrics[m])), metrics[m].value),
        versusReference(decisionOf(m), feeIncomeOnly),
      ]),
      td(cell.summary.active.toLocaleString('en-US'), cell.summary.active),
    ];
    const reference = cell.cell.index === statistics.reference ? ' class="reference"' : '';
    return `<tr${reference}>${columns.join('')}</tr>`;
  });
  const head = `<tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  return `<table class="sortable decisions" data-figures="3 5 7 9">\n${head}\n${rows.join('\n')}\n</table>`;
}

/** "pass rate by day 22": rates are as of the period's last trade date; a net without payouts says it is fees. */
function metricHeading(run: BacktestRun, metric: Metric, feeIncomeOnly: boolean): string {
  if (metric === 'net_per_trader') return feeIncomeOnly ? 'net per trader, fee income only' : METRIC_NAMES[metric];
  return `${METRIC_NAMES[metric]} by day ${run.cells[0]?.periodDays ?? 0}`;
}

/**
 * The headline: the highest net for the firm, only when its net per trader's 95 % interval lies above every other
 * cell's; otherwise that the run cannot rank the cells on net, and how many traders would.
 */
export function netHeadline(run: BacktestRun): string {
  if (feesOnly(run.config, run.cells))
    return '<p class="headline"><b>No cell is called better for the firm on net:</b> no cell paid a payout, so net per trader is fee income only, and it rises as more traders fail (the warning above). Run a period long enough for the funded stage to pay out before reading net as the firm\'s money.</p>';
  const best = highestNetCell(run.cells);
  if (best === undefined || run.cells.length < 2) return '';
  const index = best.cell.index;
  const top = run.statistics.cells.find((c) => c.cell === index)!.metrics.net_per_trader;
  const interval = `${formatUsd(top.value)} per trader (95% interval ${formatUsd(top.low)} to ${formatUsd(top.high)})`;
  const label = escapeHtml(cellLabelIn(run, best));
  const overlapping = cellsOverlappingOnNet(run.statistics, index);
  if (overlapping.length === 0)
    return `<p class="headline">Highest net for the firm: <b>cell #${index}</b> (${label}), ${escapeHtml(interval)}, above every other cell's interval.</p>`;
  const runnerUp = overlapping.reduce((a, b) =>
    b.metrics.net_per_trader.value > a.metrics.net_per_trader.value ? b : a,
  );
  const needed = tradersToRank(run, best, runnerUp.cell);
  const cells = `${overlapping.length} other cell${overlapping.length === 1 ? "'s" : "s'"}`;
  const traders = run.cells[0]!.summary.accounts.toLocaleString('en-US');
  const runnerUpNet = escapeHtml(formatUsd(runnerUp.metrics.net_per_trader.value));
  const would =
    needed === null
      ? `The runner-up, cell #${runnerUp.cell}, nets exactly the same per trader: no number of traders would rank the two.`
      : `Telling it from the runner-up, cell #${runnerUp.cell} (${runnerUpNet} per trader), would take about ${needed.toLocaleString('en-US')} traders a cell.`;
  const passGuidance = noiseGuidance(run.cells, run.statistics).tradersFor.find((t) => t.difference === 0.02);
  const pass = passGuidance
    ? ` On pass rate, 2 points would take about ${passGuidance.traders.toLocaleString('en-US')} traders a cell.`
    : '';
  return `<p class="headline"><b>This run cannot rank the cells on net for the firm.</b> The highest, cell #${index} (${label}), ${escapeHtml(interval)}, overlaps ${cells} intervals with ${traders} traders a cell. ${would}${pass}</p>`;
}

/**
 * Traders a cell needed to resolve the gap in net per trader between two cells, by the paired formula the decisions
 * use (src/backtest/detectable-difference.ts): N = ⌈(z + Z_POWER_80)² · (Σ dᵢ² / n) / gap²⌉, dᵢ each trader's net in
 * one cell less in the other, at the level Holm's correction sets for the run's comparisons. Null when the gap is 0.
 */
export function tradersToRank(run: BacktestRun, first: CellResult, second: number): number | null {
  const other = run.cells.find((c) => c.cell.index === second)!;
  const d = first.traders.map((t, i) => t.netCents - other.traders[i]!.netCents);
  const n = d.length;
  const gap = Math.abs(d.reduce((s, x) => s + x, 0)) / n;
  if (n === 0 || gap === 0) return null;
  const meanSquare = d.reduce((s, x) => s + x * x, 0) / n;
  const z = zForComparisons(run.statistics.decisions.length);
  return Math.ceil(((z + Z_POWER_80) ** 2 * meanSquare) / (gap * gap));
}
