// The Pareto front of an optimize run (docs/optimizing.md#outputs): each candidate's last evaluation, and those no
// other beats on both pass rate and net per trader. Domain logic the report, front.csv and the CLI share.
import type { Evaluation } from './candidate-ranking.js';
import type { OptimizeRun } from './run-optimize.js';

/** Each candidate's last search evaluation (the confirmation's, when nothing was searched), by candidate. */
export function lastEvaluations(
  run: OptimizeRun,
): Array<Evaluation & { stage: number | 'confirmation'; traders: number }> {
  const last = new Map<number, Evaluation & { stage: number | 'confirmation'; traders: number }>();
  for (const stage of run.stages)
    for (const e of stage.evaluations) last.set(e.candidate, { ...e, stage: stage.stage, traders: stage.traders });
  const { evaluation, traders } = run.confirmation;
  if (last.size === 0) last.set(evaluation.candidate, { ...evaluation, stage: 'confirmation', traders });
  return [...last.values()].sort((a, b) => a.candidate - b.candidate);
}

/**
 * The Pareto front of pass rate against net per trader: the candidates no other beats on both (at least as high on
 * each and higher on one), from each one's last evaluation, by pass rate.
 */
export function paretoFront<E extends Evaluation>(evaluations: readonly E[]): E[] {
  const pass = (e: E) => e.metrics.pass_rate.value;
  const net = (e: E) => e.metrics.net_per_trader.value;
  const beats = (a: E, b: E) => pass(a) >= pass(b) && net(a) >= net(b) && (pass(a) > pass(b) || net(a) > net(b));
  return evaluations
    .filter((e) => !evaluations.some((other) => beats(other, e)))
    .sort((a, b) => pass(a) - pass(b) || net(b) - net(a) || a.candidate - b.candidate);
}
