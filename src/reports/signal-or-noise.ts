// The plain sentences of signal or noise (docs/backtesting.md#signal-or-noise) that the report and the CLI print:
// a decision of one cell against the reference on one metric, and how many traders a question needs.
import { formatUsd } from './usd.js';
import type { BacktestConfig } from '../backtest/backtest-config.js';
import type { Decision, Metric, NoiseGuidance } from '../backtest/decisions.js';

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

/**
 * "#3 against #0, pass rate: +1.7 points (95% interval −0.2 points to +3.6 points), p = 0.021, 0.350 after Holm's
 * correction for 33 comparisons: no evidence of a difference; this run would detect about 4.1 points."
 */
export function decisionSentence(d: Decision, comparisons: number): string {
  const diff = (x: number) => signedDifference(d.metric, x);
  const head =
    `#${d.cell} against #${d.reference}, ${METRIC_NAMES[d.metric]}: ${diff(d.difference)} ` +
    `(95% interval ${diff(d.low)} to ${diff(d.high)}), p = ${d.p.toFixed(4)}, ${d.pAdjusted.toFixed(4)} after Holm's ` +
    `correction for ${comparisons} comparison${comparisons === 1 ? '' : 's'}`;
  if (d.verdict === 'differs') return `${head}: differs.`;
  const detectable = signedDifference(d.metric, d.detectable).slice(1);
  return `${head}: no evidence of a difference; this run would detect about ${detectable}.`;
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
  const needs = g.tradersFor.map((t) => `${t.traders.toLocaleString('en-US')} for ${points(t.difference)}`).join(', ');
  return (
    `With ${g.traders.toLocaleString('en-US')} traders a cell, ${(g.discordance * 100).toFixed(1)}% of them pass in ` +
    `one cell and not in #${reference} on average, so this run resolves differences in pass rate of about ` +
    `${points(g.detectableDifference)} (80% power, at the level Holm's correction sets for ${comparisons} ` +
    `comparisons). Traders a cell needed, at the same discordance: ${needs} (${howToAddTraders(config)}).`
  );
}

/** How to run more traders a cell: `--traders N` sets synthetic traders only, and is refused where there are none. */
export function howToAddTraders(config: Pick<BacktestConfig, 'synthetic'>): string {
  if (config.synthetic.length > 0) return "run with --traders N, or set the config's traders.synthetic counts";
  return 'add traders to the fills file, or traders.synthetic blocks to the config; --traders sets only synthetic traders, and this config has none';
}
