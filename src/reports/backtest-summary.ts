// What `propsim backtest` and the demo print when a back-test is done: the grid, the pass rates, the best net,
// which differences are beyond noise, the speed and where the report is.
import type { BacktestRun } from '../backtest/run-backtest.js';
import { feesOnly, highestNetCell } from '../backtest/stats/cell-ranking.js';
import { runWarnings } from './run-warnings.js';
import { summarizeValidation } from '../backtest/validation/compare-records.js';
import { cellLabelIn } from './decision-table.js';
import { gridSize } from '../backtest/config/cell-subset.js';
import { METRICS, noiseGuidance, type Decision, type Metric } from '../backtest/stats/decisions.js';
import {
  directionWords,
  fewTradersWords,
  howToAddTraders,
  METRIC_NAMES,
  pText,
  quietWords,
  signedDifference,
  tradersRange,
} from './signal-or-noise.js';
import { formatUsd } from './usd.js';

/**
 * Per metric, which cells differ from the reference after Holm's correction and which way (better or worse for the
 * firm on net; more or fewer traders passing or failing), and what the rest could have shown
 * (docs/backtesting.md#signal-or-noise).
 */
function decisionLines(run: BacktestRun): string[] {
  const { decisions, reference } = run.statistics;
  if (decisions.length === 0) return [];
  const feeIncomeOnly = feesOnly(run.config, run.cells);
  const lines = METRICS.map((metric) => {
    const own = decisions.filter((d) => d.metric === metric);
    const name =
      metric === 'net_per_trader' && feeIncomeOnly ? 'net per trader (fee income only)' : METRIC_NAMES[metric];
    const differing = own.filter((d) => d.verdict === 'differs');
    const ways = [...new Set(differing.map((d) => directionWords(d, feeIncomeOnly)!))].map((way) => {
      const cells = differing.filter((d) => directionWords(d, feeIncomeOnly) === way);
      return `${way}: ${cells.map((d) => `#${d.cell} (${signedDifference(metric, d.difference)})`).join(', ')}`;
    });
    const quiet = own.filter((d) => d.verdict === 'no_evidence');
    const still = quiet.filter((d) => d.moved === 0).map((d) => `#${d.cell}`);
    const detectable = quiet.filter((d) => d.moved > 0).map((d) => d.detectable!);
    const rest = [
      ...(detectable.length > 0
        ? [`${differing.length === 0 && still.length === 0 ? 'all' : 'the rest'}: ${noEvidence(metric, detectable)}`]
        : []),
      ...(still.length > 0 ? [`${still.join(', ')}: ${quietWords(quiet.find((d) => d.moved === 0)!)}`] : []),
    ];
    const restText = rest.map((part) => `; ${part}`).join('');
    return `${name} against cell #${reference}: ${differing.length} of ${own.length} cells differ${ways.length > 0 ? ` (${ways.join('; ')})` : ''}${restText}`;
  });
  const few = fewTradersLine(decisions.filter((d) => d.restsOn));
  const g = noiseGuidance(run.cells, run.statistics);
  const needs = g.tradersFor.find((t) => t.difference === 0.02);
  // --traders N is the evident way to more traders, and is refused without synthetic traders: then say what works.
  const how = run.config.synthetic.length === 0 ? ` (${howToAddTraders(run.config)})` : '';
  return [
    ...lines,
    ...(few ? [`  ${few}`] : []),
    `paired by trader, p Holm-adjusted over ${decisions.length} comparisons, "differs" when under 0.05${needs ? `; 2 points of pass rate need about ${tradersRange(needs)} traders a cell${how}` : ''}; see report.html "Signal or noise"`,
  ];
}

/**
 * "net differences resting on fewer than ten traders: #1 (2), #6 (1.8); about 904 to 1,017 traders a cell would hold
 * ten": a few large nets (payouts) carry them (docs/backtesting.md#the-test-of-a-mean-in-money).
 */
function fewTradersLine(few: readonly Decision[]): string | undefined {
  if (few.length === 0) return undefined;
  if (few.length === 1) return `#${few[0]!.cell}'s difference in net ${fewTradersWords(few[0]!)!.replace(/^it /, '')}`;
  const settle = few.map((d) => d.restsOn!.settle);
  const [least, most] = [Math.min(...settle), Math.max(...settle)].map((x) => x.toLocaleString('en-US'));
  return `net differences resting on fewer than ten traders (a few large nets carry them): ${few.map((d) => `#${d.cell} (${d.restsOn!.traders})`).join(', ')}; about ${least === most ? least : `${least} to ${most}`} traders a cell would hold ten`;
}

/** "no evidence (this run would detect about 4.1 to 6.0 points)", over one or more cells' detectable differences. */
function noEvidence(metric: Metric, detectable: readonly number[]): string {
  const detect = (x: number) => signedDifference(metric, x).slice(1);
  const [least, most] = [detect(Math.min(...detectable)), detect(Math.max(...detectable))];
  return `no evidence (this run would detect about ${least}${most === least ? '' : ` to ${most}`})`;
}

/**
 * The cell with the highest net, and what its paired comparison with the reference says: the one rule the report's
 * headline follows (docs/backtesting.md#signal-or-noise). A run of one cell compares nothing, and says so.
 */
function netLine(run: BacktestRun, best: BacktestRun['cells'][number]): string {
  if (feesOnly(run.config, run.cells))
    return 'net per trader: fee income only, since no cell paid a payout (the warning above); the cells are not ranked on it';
  const { reference, decisions } = run.statistics;
  const top = run.statistics.cells.find((c) => c.cell === best.cell.index)!.metrics.net_per_trader;
  const net = `${formatUsd(top.value)} a trader (95% interval ${formatUsd(top.low)} to ${formatUsd(top.high)})`;
  if (run.cells.length < 2) return `net: ${net}; one cell, so no comparison`;
  const head = `highest net: cell #${best.cell.index} (${cellLabelIn(run, best)}) at ${net}`;
  if (best.cell.index === reference)
    return `${head}, the reference cell: see how each other cell compares with it below`;
  const d = decisions.find((x) => x.cell === best.cell.index && x.metric === 'net_per_trader')!;
  const against = `against #${reference} ${signedDifference('net_per_trader', d.difference)} a trader`;
  if (d.verdict === 'differs') return `${head}; ${against}, ${directionWords(d)} (adjusted p ${pText(d.pAdjusted)})`;
  return `${head}; ${against}: no evidence it differs from #${reference} (adjusted p ${pText(d.pAdjusted)})`;
}

/** "validation: cell #0 agrees with the records on the outcome of 85.0% of 20 traders, on its date for 70.0%". */
function validationLine(run: BacktestRun): string[] {
  const rows = run.cells.find((c) => c.cell.index === run.statistics.reference)?.validation;
  if (!rows) return [];
  const v = summarizeValidation(rows);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const parted = rows.filter((r) => r.divergence).length;
  return [
    `validation: cell #${run.statistics.reference} (the plan the traders traded) agrees with the records on the outcome of ${pct(v.outcomeAgreement)} of ${v.traders} traders, on its date for ${pct(v.dateAgreement)}; ${parted} part from them (validation.csv: the first divergence of each)`,
  ];
}

/** "2 of 12 cells (0, 5; --cells)" for a subset, else "12 cells". */
function cellCount(run: BacktestRun): string {
  const { cells } = run.config;
  if (cells === undefined) return `${run.cells.length} cells`;
  return `${cells.length} of ${gridSize(run.config)} cells (${cells.join(', ')}; a subset, --cells)`;
}

/** " on a synthetic tape: …" when the period was resampled (docs/backtesting.md#long-horizons-a-resampled-tape). */
export function tapeNote(run: BacktestRun): string {
  const tape = run.cells[0]?.tape;
  if (!tape) return '';
  return ` on a synthetic tape: ${tape.source.sessions} whole sessions of ${tape.source.from} to ${tape.source.to} resampled in blocks of ${tape.block_sessions}`;
}

/** The lines printed after a back-test (docs/backtesting.md#outputs), without their newlines. */
export function backtestSummaryLines(run: BacktestRun, folder: string, seconds: number, workers: number): string[] {
  const cells = run.cells;
  const accounts = cells.reduce((n, c) => n + c.summary.accounts, 0);
  const rates = cells.map((c) => Number(c.summary.passRate) * 100);
  const best = highestNetCell(cells)!;
  const sessionDays = cells.reduce((n, c) => n + c.accountSessionDays, 0);
  return [
    ...runWarnings(run).map((w) => `warning (${w.code}): ${w.message}`),
    `${run.config.name}: ${cellCount(run)} × ${cells[0]?.summary.accounts ?? 0} traders = ${accounts.toLocaleString('en-US')} accounts, ${run.config.period.from} to ${run.config.period.to}${tapeNote(run)}`,
    cells.length === 1
      ? `pass rate ${rates[0]!.toFixed(1)}%`
      : `pass rate from ${Math.min(...rates).toFixed(1)}% to ${Math.max(...rates).toFixed(1)}% across the grid`,
    netLine(run, best),
    ...validationLine(run),
    ...decisionLines(run),
    `${seconds.toFixed(1)} s on ${workers} worker${workers === 1 ? '' : 's'}: ${Math.round(sessionDays / seconds).toLocaleString('en-US')} account-session-days/s`,
    `report: ${folder}/report.html (and cells.csv, traders.csv, summary.json)`,
  ];
}
