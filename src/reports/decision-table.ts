// The top of report.html (docs/backtesting.md#reading-reporthtml): the decision table, one row per cell with its
// three metrics, their 95 % intervals and each one's difference from the reference with its interval and verdict,
// and the headline, which says from the paired comparisons which cells net the firm more or less than the reference.
import type { BacktestRun } from '../backtest/run-backtest.js';
import type { CellResult } from '../backtest/cells/cell-runner.js';
import { METRICS, noiseGuidance, type Decision, type Estimate, type Metric } from '../backtest/stats/decisions.js';
import { feesOnly, highestNetCell } from '../backtest/stats/cell-ranking.js';
import { escapeHtml } from './html.js';
import {
  directionWords,
  fewTradersWords,
  METRIC_NAMES,
  quietWords,
  signedDifference,
  tradersRange,
} from './signal-or-noise.js';
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

/** The word and colour of a difference: better or worse for the firm on net, a shift of traders on a rate. */
function verdictClass(d: Decision, feeIncomeOnly: boolean): string {
  if (d.verdict !== 'differs') return 'noise';
  if (d.metric !== 'net_per_trader') return 'shift';
  if (feeIncomeOnly) return 'fees-only';
  return d.difference > 0 ? 'better' : 'worse';
}

/**
 * "+$6.60 (+$1.20 to +$12.00) / better for the firm": the difference from the reference with its interval at Holm's
 * level for the comparison (the same test as the verdict, so it excludes 0 exactly when it differs), and the verdict
 * in words; "no evidence" says on hover what the run could have seen. A net that is fee income only differs without
 * the colour of better or worse for the firm.
 */
function versusReference(d: Decision | undefined, feeIncomeOnly: boolean): string {
  if (d === undefined) return td('reference', 0, 'noise');
  const diff = (x: number) => escapeHtml(signedDifference(d.metric, x));
  const figures = `${diff(d.difference)}<br><small>${diff(d.low)} to ${diff(d.high)}</small>`;
  const few = fewTradersWords(d);
  const title = few ? ` title="${escapeHtml(few)}"` : '';
  if (d.verdict === 'differs') {
    const words = d.metric === 'net_per_trader' && feeIncomeOnly ? 'differs (fee income only)' : directionWords(d)!;
    return `<td class="${verdictClass(d, feeIncomeOnly)}" data-sort="${d.difference}"${title}>${figures}<br><b>${escapeHtml(words)}</b>${few ? ' *' : ''}</td>`;
  }
  const quiet = few ? `${quietWords(d)}; ${few}` : quietWords(d);
  return `<td class="noise" data-sort="${d.difference}" title="${escapeHtml(quiet)}">${figures}<br>no evidence${few ? ' *' : ''}</td>`;
}

/**
 * One row per cell: its plain label, then per metric the value with its 95 % interval and the difference from the
 * reference with its interval and verdict, then the traders still active. Sortable by a click on a heading
 * (SORTABLE_TABLES_SCRIPT); without script it reads in cell order.
 */
export function decisionTable(run: BacktestRun): string {
  const { statistics } = run;
  const ref = `#${statistics.reference}`;
  const feeIncomeOnly = feesOnly(run.config, run.cells);
  const header = [
    'cell',
    'plan',
    ...METRICS.flatMap((m) => [
      `${metricHeading(run, m, feeIncomeOnly)} (95% interval, this cell)`,
      `vs ${ref} (interval at Holm's level)`,
    ]),
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
 * The headline: what the paired comparisons with the reference say of the firm's net, cell by cell (better, worse, no
 * evidence), and which cell nets the most; the rule the CLI's summary follows (docs/backtesting.md#reading-reporthtml).
 * A run of one cell compares nothing; a net that is fee income only names no cell better.
 */
export function netHeadline(run: BacktestRun): string {
  if (feesOnly(run.config, run.cells))
    return '<p class="headline"><b>No cell is called better for the firm on net:</b> no cell paid a payout, so net per trader is fee income only, and it rises as more traders fail (the warning above). Run a period long enough for the funded stage to pay out before reading net as the firm\'s money.</p>';
  const best = highestNetCell(run.cells);
  if (best === undefined || run.cells.length < 2) return '';
  const { reference, decisions } = run.statistics;
  const net = decisions.filter((d) => d.metric === 'net_per_trader');
  const listed = (way: 'better' | 'worse') =>
    net
      .filter((d) => d.verdict === 'differs' && d.difference > 0 === (way === 'better'))
      .map((d) => `#${d.cell} (${escapeHtml(signedDifference('net_per_trader', d.difference))} a trader)`);
  const [better, worse] = [listed('better'), listed('worse')];
  const quiet = net.length - better.length - worse.length;
  const refLabel = escapeHtml(
    cellLabelIn(
      run,
      run.cells.find((c) => c.cell.index === reference)!,
    ),
  );
  const parts = [
    better.length > 0 ? `<b>better for the firm</b>: ${better.join(', ')}` : '',
    worse.length > 0 ? `<b>worse for the firm</b>: ${worse.join(', ')}` : '',
    quiet > 0 ? `no evidence either way for ${quiet === net.length ? 'every cell' : `the other ${quiet}`}` : '',
  ].filter(Boolean);
  const top = run.statistics.cells.find((c) => c.cell === best.cell.index)!.metrics.net_per_trader;
  const highest = `The highest net is cell #${best.cell.index} (${escapeHtml(cellLabelIn(run, best))}), ${escapeHtml(formatUsd(top.value))} a trader.`;
  const passGuidance = noiseGuidance(run.cells, run.statistics).tradersFor.find((t) => t.difference === 0.02);
  const pass = passGuidance
    ? ` On pass rate, 2 points would take about ${tradersRange(passGuidance)} traders a cell.`
    : '';
  return `<p class="headline">On net per trader against cell #${reference} (${refLabel}), paired by trader and Holm-adjusted: ${parts.join('; ')}. ${highest}${pass}</p>`;
}
