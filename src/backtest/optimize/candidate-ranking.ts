// How a stage of the search judges its candidates (docs/optimizing.md#how-the-search-narrows): ranked by the
// objective's 95 % bound that is least flattering (the lower bound of what is maximized, the upper bound of what is
// minimized), so that a candidate measured on few traders does not win on luck; dropped only when its interval lies
// entirely on the wrong side of a constraint (one that straddles it may yet meet it); and kept unless it is clearly
// beaten: a candidate whose interval still reaches the best third's may be as good as them.
import type { Estimate, Metric } from '../stats/decisions.js';
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

/** The objective's most flattering 95 % bound: how good the candidate may yet prove (upper for maximize). */
export function objectiveReach(metrics: Record<Metric, Estimate>, objective: Objective): number {
  const estimate = metrics[objective.metric];
  return objective.direction === 'maximize' ? estimate.high : estimate.low;
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
  /** Every candidate that was not dropped, best first (the last stage's first is the search's choice). */
  ranked: number[];
  /** Candidates the rule kept but the budget could not pay for in the next stage (the lowest ranked of them). */
  overBudget: number[];
}

/** The fewest candidates a stage keeps: a third of those it ran, rounded up. */
export function leastKept(candidates: number): number {
  return Math.ceil(candidates / 3);
}

/**
 * Keeps every candidate not clearly beaten: whose objective interval reaches the k-th best least flattering bound
 * (k = a third of the stage's candidates, rounded up), among the candidates not dropped by the constraints; so the
 * best k are always kept, and so is any whose interval overlaps theirs. When every candidate is outside the
 * constraints, the rule runs over all of them: the search goes on towards the objective, and the confirmation says
 * that no candidate meets the constraints.
 */
export function judgeStage(
  evaluations: readonly Evaluation[],
  objective: Objective,
  constraints: readonly Constraint[],
): StageVerdict {
  const dropped = evaluations.filter((e) => outsideConstraints(e.metrics, constraints)).map((e) => e.candidate);
  const inside = evaluations.filter((e) => !dropped.includes(e.candidate));
  const ranked = rankEvaluations(inside.length > 0 ? inside : evaluations, objective);
  const k = leastKept(evaluations.length);
  const kept = ranked.length <= k ? ranked : ranked.filter((e) => reaches(e, ranked[k - 1]!, objective));
  return { kept: kept.map((e) => e.candidate), dropped, ranked: ranked.map((e) => e.candidate), overBudget: [] };
}

/** Whether `candidate` may yet be as good as `bar`: its flattering bound reaches bar's least flattering one. */
function reaches(candidate: Evaluation, bar: Evaluation, objective: Objective): boolean {
  const reach = objectiveReach(candidate.metrics, objective);
  const bound = objectiveBound(bar.metrics, objective);
  return objective.direction === 'maximize' ? reach >= bound : reach <= bound;
}

/**
 * The verdict with its kept list cut to the `affordable` best when the next stage cannot pay for them all, as long
 * as the least a stage keeps (a third) still fits; otherwise unchanged (and the search stops before the next stage).
 */
export function withinBudget(verdict: StageVerdict, affordable: number, least: number): StageVerdict {
  if (verdict.kept.length <= affordable || affordable < least) return verdict;
  return { ...verdict, kept: verdict.kept.slice(0, affordable), overBudget: verdict.kept.slice(affordable) };
}
