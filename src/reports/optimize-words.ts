// The sentences of `propsim optimize` that stdout, summary.json and report.html share (docs/optimizing.md#outputs):
// the chosen plan against the current (base) plan, how stable the search's choice is, and what the confirmation says
// of the constraints.
import type { Decision } from '../backtest/stats/decisions.js';
import { METRICS } from '../backtest/stats/decisions.js';
import type { OptimizeRun } from '../backtest/optimize/run-optimize.js';
import { confidenceText, METRIC_NAMES, pText, signedDifference } from './signal-or-noise.js';
import { formatCents } from '../core/money.js';
import { fourPlaces } from '../backtest/stats/statistics.js';
import type { Metric } from '../backtest/stats/decisions.js';

/**
 * "better than the current plan" when the paired test finds a difference in the objective's favour (a larger value
 * of what is maximized, a smaller one of what is minimized), "worse" when against it, else "no better than the
 * current plan (no evidence of a difference on net per trader)".
 */
export function versusBaseVerdict(run: OptimizeRun): string {
  const d = run.confirmation.versusBase;
  const metric = METRIC_NAMES[d.metric];
  if (d.verdict === 'no_evidence') return `no better than the current plan (no evidence of a difference on ${metric})`;
  const better = (run.config.objective.direction === 'maximize') === d.difference > 0;
  return `${better ? 'better' : 'worse'} than the current plan on ${metric}`;
}

/** "+$1.99 (98.33% interval −$20.00 to +$25.00), p = 0.4321, 1.0000 after Holm's correction for 3 comparisons". */
export function versusBaseFigures(d: Decision): string {
  const diff = (x: number) => signedDifference(d.metric, x);
  return (
    `${diff(d.difference)} (${confidenceText(d.level)} interval ${diff(d.low)} to ${diff(d.high)}), ` +
    `p ${d.p < 0.0001 ? '' : '= '}${pText(d.p)}, ${pText(d.pAdjusted)} after Holm's correction for ` +
    `${METRICS.length} comparisons (the three metrics)`
  );
}

/** A share as a whole percent, never rounded to 0 % or 100 % unless it is exactly that. */
function percent(share: number): string {
  if (share === 0 || share === 1) return `${share * 100}%`;
  return `${Math.min(99, Math.max(1, Math.round(share * 100)))}%`;
}

/** "the choice holds in 62% of resamples of the search's traders", and what that means. */
export function stabilityWords(run: OptimizeRun, resamples: number): string {
  const { stability } = run.choice;
  const last = run.stages[run.stages.length - 1];
  if (stability === null || !last) return 'one candidate: nothing was searched, so nothing to resample';
  const among =
    run.config.constraints.length > 0
      ? ', among the candidates whose values meet the constraints (all when none does)'
      : '';
  return (
    `the choice holds in ${percent(stability)} of resamples of the search's traders ` +
    `(${resamples.toLocaleString('en-US')} resamples of stage ${last.stage}'s ${last.traders} traders with replacement, ` +
    `the same for every candidate: how often #${run.choice.candidate} still ranks first of ${last.evaluations.length} ` +
    `by ${METRIC_NAMES[run.config.objective.metric]}${among}; a low share means the search's choice is close to a ` +
    `coin toss among its top candidates)`
  );
}

/** What the confirmation says of the chosen plan's constraints, Bonferroni-corrected over its bounds. */
export function constraintsVerdict(run: OptimizeRun): string {
  const c = run.confirmation;
  if (run.config.constraints.length === 0) return 'no constraints';
  const checks = `Bonferroni over ${c.comparisons} check${c.comparisons === 1 ? '' : 's'}`;
  if (c.constraintsMet) return `the chosen plan meets every constraint with 95 % confidence (${checks})`;
  if (c.checks.some((check) => check.verdict === 'fails'))
    return `the chosen plan fails a constraint with 95 % confidence (${checks})`;
  return `the confirmation cannot show that the chosen plan meets every constraint (${checks})`;
}

/** The search's own caveat when its last stage had no candidate that could meet the constraints. */
export function outsideConstraintsWords(run: OptimizeRun): string | undefined {
  if (!run.choice.outsideConstraints) return undefined;
  const last = run.stages[run.stages.length - 1]!;
  return `every candidate of stage ${last.stage} lay outside a constraint on the search's traders: the plan was chosen on the objective alone`;
}

/** A metric's value or bound as written in the outputs: a rate with four places, money per trader in dollars. */
export function metricText(metric: Metric, value: number): string {
  return metric === 'net_per_trader' ? formatCents(value) : fourPlaces(value);
}
