// The plain sentences of signal or noise (docs/backtesting.md#signal-or-noise) that the report and the CLI print:
// a decision of one cell against the reference on one metric, and how many traders a question needs.
import { formatUsd } from './usd.js';
import type { BacktestConfig } from '../backtest/config/backtest-config.js';
import type { Decision, Metric, NoiseGuidance } from '../backtest/stats/decisions.js';

export const METRIC_NAMES: Record<Metric, string> = {
  pass_rate: 'pass rate',
  fail_rate: 'failure rate',
  net_per_trader: 'net per trader',
};

/** A difference in its metric's unit, signed: "+1.7 points" or "−$27.66". */
export function signedDifference(metric: Metric, x: number): string {
  const sign = x > 0 ? '+' : x < 0 ? '−' : '±';
  if (metric === 'net_per_trader') return `${sign}${formatUsd(Math.abs(x))}`;
  return `${sign}${(Math.abs(x) * 100).toFixed(1)} points`;
}

/** A p as printed: four places, and "< 0.0001" below them (never "0.0000"). */
export function pText(p: number): string {
  return p < 0.0001 ? '< 0.0001' : p.toFixed(4);
}

/** "99.85%": the confidence of a comparison's interval, 1 − its Holm level, to two places. */
export function confidenceText(level: number): string {
  return `${((1 - level) * 100).toFixed(2)}%`;
}

/**
 * What a difference means, in words: for the net, better or worse for the firm (its money); for a rate, more or fewer
 * traders passing or failing, which the firm may want either way. Undefined when there is no evidence of one.
 */
export function directionWords(
  d: Pick<Decision, 'metric' | 'difference' | 'verdict'>,
  feeIncomeOnly = false,
): string | undefined {
  if (d.verdict !== 'differs') return undefined;
  const up = d.difference > 0;
  // Without payouts the net is fees, which rise as traders fail: more of it is not better for the firm.
  if (d.metric === 'net_per_trader' && feeIncomeOnly) return up ? 'more fee income' : 'less fee income';
  if (d.metric === 'net_per_trader') return up ? 'better for the firm' : 'worse for the firm';
  const who = d.metric === 'pass_rate' ? 'pass' : 'fail';
  return up ? `more traders ${who}` : `fewer traders ${who}`;
}

/** Why a comparison shows no detectable difference, or the smallest it could have seen. */
export function quietWords(d: Decision): string {
  if (d.moved === 0)
    return d.metric === 'net_per_trader'
      ? "no trader's net moved between the two cells"
      : `no trader ${d.metric === 'pass_rate' ? 'passed' : 'failed'} in one cell and not the other`;
  return `this run would detect about ${signedDifference(d.metric, d.detectable ?? 0).slice(1)}`;
}

/** "rests on about 2.4 traders; about 1,000 traders a cell would hold ten", for a net carried by a few traders. */
export function fewTradersWords(d: Decision): string | undefined {
  if (!d.restsOn) return undefined;
  return `it rests on about ${d.restsOn.traders} trader${d.restsOn.traders === 1 ? '' : 's'} (a few large nets carry it); about ${d.restsOn.settle.toLocaleString('en-US')} traders a cell would hold ten`;
}

/**
 * "#3 against #0, net per trader: +$6.60 (99.85% interval +$1.20 to +$12.00, Holm's level for this comparison), p =
 * 0.0012, 0.0380 after Holm's correction for 33 comparisons: differs, better for the firm."
 */
export function decisionSentence(d: Decision, comparisons: number, feeIncomeOnly = false): string {
  const diff = (x: number) => signedDifference(d.metric, x);
  const head =
    `#${d.cell} against #${d.reference}, ${METRIC_NAMES[d.metric]}: ${diff(d.difference)} ` +
    `(${confidenceText(d.level)} interval ${diff(d.low)} to ${diff(d.high)}, Holm's level for this comparison), ` +
    `p ${d.p < 0.0001 ? '' : '= '}${pText(d.p)}, ${pText(d.pAdjusted)} after Holm's correction for ${comparisons} ` +
    `comparison${comparisons === 1 ? '' : 's'}`;
  const few = fewTradersWords(d);
  const tail = few ? `; ${few}.` : '.';
  if (d.verdict === 'differs') return `${head}: differs, ${directionWords(d, feeIncomeOnly)}${tail}`;
  return `${head}: no evidence of a difference; ${quietWords(d)}${tail}`;
}

/**
 * "With 240 traders a cell, 6.3% of them pass in one cell and not in #0 on average, so this run resolves differences
 * in pass rate of about 5.2 points (80% power, at the level Holm's correction sets for 33 comparisons). Traders a
 * cell needed: …"
 */
export function guidanceSentence(
  g: NoiseGuidance,
  reference: number,
  comparisons: number,
  config: Pick<BacktestConfig, 'synthetic'>,
): string {
  if (g.discordance === null || g.detectableDifference === null) return 'One cell: nothing to compare.';
  const points = (x: number) => `${(x * 100).toFixed(1)} points`;
  const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
  const needs = g.tradersFor.map((t) => `${tradersRange(t)} for ${points(t.difference)}`).join(', ');
  return (
    `With ${g.traders.toLocaleString('en-US')} traders a cell, ${(g.discordance * 100).toFixed(1)}% of them pass in ` +
    `one cell and not in #${reference} on average, so this run resolves differences in pass rate of about ` +
    `${points(g.detectableDifference)} (80% power, at the level Holm's correction sets for ${comparisons} ` +
    `comparisons). Traders a cell needed, at the same discordance: ${needs}; each range is what the discordance's ` +
    `95% interval (${percent(g.discordanceRange!.low)} to ${percent(g.discordanceRange!.high)}) gives, since another ` +
    `seed draws other traders (${howToAddTraders(config)}).`
  );
}

/** "1,053 (650 to 1,700)": traders needed, and the range the discordance's interval gives. */
export function tradersRange(t: NoiseGuidance['tradersFor'][number]): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return t.low === t.high ? n(t.traders) : `${n(t.traders)} (${n(t.low)} to ${n(t.high)})`;
}

/** How to run more traders a cell: `--traders N` sets synthetic traders only, and is refused where there are none. */
export function howToAddTraders(config: Pick<BacktestConfig, 'synthetic'>): string {
  if (config.synthetic.length > 0) return "run with --traders N, or set the config's traders.synthetic counts";
  return 'add traders to the fills file, or traders.synthetic blocks to the config; --traders sets only synthetic traders, and this config has none';
}
