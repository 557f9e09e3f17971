// How a stage of the search judges its candidates (docs/optimizing.md#the-search): by the objective's 95 % bound
// that is least flattering (the lower bound of what is maximized, the upper bound of what is minimized), so that a
// candidate measured on few traders does not win on luck; and by the constraints, dropping only a candidate whose
// interval lies entirely on the wrong side of a bound (one that straddles it may yet meet it).
import type { Estimate, Metric } from '../decisions.js';
import type { Constraint, OptimizeConfig } from './optimize-config.js';

export interface Evaluation {
  /** The candidate's index in the search's cartesian product (its grid cell). */
  candidate: number;
  metrics: Record<Metric, Estimate>;
}

export type Objective = OptimizeConfig['objective'];

/** The objective's least flattering 95 % bound: the lower for maximize, the upper for minimize. */
export function objectiveBound(metrics: Record<Metric, Estimate>, objective: Objective): number {
  const estimate = metrics[objective.metric];
  return objective.direction === 'maximize' ? estimate.low : estimate.high;
}

/** Best first: by the objective's bound, then its value, then the lower candidate index. */
export function rankEvaluations<E extends Evaluation>(evaluations: readonly E[], objective: Objective): E[] {
  const sign = objective.direction === 'maximize' ? -1 : 1;
  const value = (e: E) => e.metrics[objective.metric].value;
  return [...evaluations].sort(
    (a, b) =>
      sign * (objectiveBound(a.metrics, objective) - objectiveBound(b.metrics, objective)) ||
      sign * (value(a) - value(b)) ||
      a.candidate - b.candidate,
  );
}

/** Whether the candidate's interval lies entirely outside one of the bounds: it cannot meet the constraints. */
export function outsideConstraints(metrics: Record<Metric, Estimate>, constraints: readonly Constraint[]): boolean {
  return constraints.some(({ metric, min, max }) => {
    const { low, high } = metrics[metric];
    return (min !== undefined && high < min) || (max !== undefined && low > max);
  });
}

export interface StageVerdict {
  /** Candidates kept for the next stage, best first. */
  kept: number[];
  /** Candidates whose interval lay outside a constraint. */
  dropped: number[];
  /** Every candidate that was not dropped, best first (the finalists are the first of these). */
  ranked: number[];
}

/**
 * The best third (rounded up) of the candidates not dropped by the constraints. When every candidate is outside them,
 * the best third of all is kept: the search goes on towards the objective, and the confirmation says that no
 * candidate meets the constraints.
 */
export function judgeStage(
  evaluations: readonly Evaluation[],
  objective: Objective,
  constraints: readonly Constraint[],
): StageVerdict {
  const dropped = evaluations.filter((e) => outsideConstraints(e.metrics, constraints)).map((e) => e.candidate);
  const inside = evaluations.filter((e) => !dropped.includes(e.candidate));
  const ranked = rankEvaluations(inside.length > 0 ? inside : evaluations, objective).map((e) => e.candidate);
  return { kept: ranked.slice(0, Math.ceil(evaluations.length / 3)), dropped, ranked };
}
