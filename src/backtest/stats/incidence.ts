// Cumulative incidence of a first evaluation's pass and fail as competing risks (the Aalen–Johansen estimator):
// for each trade date, the share passed and the share failed by then, with 95 % intervals and the number still at
// risk. Pure. docs/backtesting.md#outcomes-in-time; test/backtest/stats/incidence.test.ts works an example by hand.
import type { Estimate } from './decisions.js';
import { wilsonRateInterval } from './statistics.js';

export type FirstEvent = 'pass' | 'fail' | 'censored';

/** A followed subject: the trade date (1-based) of its event, or for 'censored' the last day it was followed. */
export interface Followed {
  event: FirstEvent;
  day: number;
}

/** A cumulative incidence (a fraction) with its 95 % interval and its delta-method variance. */
export interface Incidence extends Estimate {
  variance: number;
}

export interface IncidencePoint {
  day: number;
  /** Subjects with no event before this day and followed on it. */
  atRisk: number;
  pass: Incidence;
  fail: Incidence;
}

type Outcome = 'pass' | 'fail';

/** A day with at least one event: what the variance sums over. */
interface EventDay {
  atRisk: number;
  events: number;
  byKind: Record<Outcome, number>;
  /** S(j − 1), the share with no event before this day. */
  survivalBefore: number;
  /** F_k(j), the incidence by the end of this day. */
  incidence: Record<Outcome, number>;
}

const NOTHING_YET: Incidence = { value: 0, low: 0, high: 0, variance: 0 };

/**
 * One point per trade date 1..days. With n_j at risk at the start of day j (event or censoring day ≥ j), d_kj
 * events of kind k on day j and d_j all events that day (censoring on day j comes after the day's events):
 *
 *   S(j) = Π_{i≤j} (1 − d_i/n_i), S(0) = 1
 *   F_k(t) = Σ_{j≤t} S(j−1) · d_kj / n_j
 *   Var F_k(t) = Σ_{j≤t} [F_k(t) − F_k(j)]² · d_j / (n_j (n_j − d_j))      (0 when n_j = d_j)
 *                       + S(j−1)² · d_kj (n_j − d_kj) / n_j³
 *                       − 2 [F_k(t) − F_k(j)] · S(j−1) · d_kj / n_j²
 *
 * (the delta-method variance of Marubini & Valsecchi 1995, Pintilie 2006). The interval is Wilson's at 95 % on an
 * effective sample size n_eff = F(1 − F)/Var; when F is 0 or 1, Var is 0, or nobody was censored before day t,
 * n_eff is the subjects not censored before day t. Without censoring before t, Var is exactly F(1 − F)/N, so the
 * formula's n_eff is N; taking N itself keeps the interval bit-identical to the pass rates' wilsonInterval.
 * A day with nobody at risk keeps the previous day's estimates. Throws a RangeError naming the first subject whose
 * day is not a whole number in 1..days.
 */
export function cumulativeIncidence(subjects: readonly Followed[], days: number): IncidencePoint[] {
  if (!Number.isInteger(days) || days < 0) throw new RangeError(`days must be a whole number ≥ 0, got ${days}`);
  const tally = Array.from({ length: days + 1 }, () => ({ pass: 0, fail: 0, censored: 0 }));
  subjects.forEach(({ event, day }, index) => {
    if (!Number.isInteger(day) || day < 1 || day > days)
      throw new RangeError(`subject ${index}: day ${day} is not a trade date in 1..${days}`);
    tally[day]![event]++;
  });

  const total = subjects.length;
  const eventDays: EventDay[] = [];
  // S(j − 1)/n_j is carried as weight/N: the weight starts at 1 and grows only when someone is censored with
  // subjects left (S(j−1)/n_j = (1/N) Π over censoring days i < j of (n_i − d_i)/(n_i − d_i − c_i)). Without
  // censoring the weighted counts stay whole, so F is exactly count/N, as the pass rates print it.
  let weight = 1;
  const weighted: Record<Outcome, number> = { pass: 0, fail: 0 };
  let atRisk = total;
  let censoredBefore = 0;
  let latest: Record<Outcome, Incidence> = { pass: NOTHING_YET, fail: NOTHING_YET };
  const points: IncidencePoint[] = [];
  for (let day = 1; day <= days; day++) {
    const { pass, fail, censored } = tally[day]!;
    const events = pass + fail;
    if (atRisk > 0) {
      if (events > 0) {
        const survivalBefore = (weight * atRisk) / total;
        weighted.pass += weight * pass;
        weighted.fail += weight * fail;
        const incidence = { pass: weighted.pass / total, fail: weighted.fail / total };
        eventDays.push({ atRisk, events, byKind: { pass, fail }, survivalBefore, incidence });
      }
      const followed = total - censoredBefore;
      latest = {
        pass: estimate(eventDays, 'pass', followed, censoredBefore > 0),
        fail: estimate(eventDays, 'fail', followed, censoredBefore > 0),
      };
    }
    points.push({ day, atRisk, ...latest });
    const left = atRisk - events;
    if (censored > 0 && left > censored) weight *= left / (left - censored);
    atRisk = left - censored;
    censoredBefore += censored;
  }
  return points;
}

function estimate(eventDays: readonly EventDay[], kind: Outcome, followed: number, censoredBefore: boolean): Incidence {
  const value = Math.min(1, eventDays.at(-1)?.incidence[kind] ?? 0);
  let variance = 0;
  for (const { atRisk: n, events: d, byKind, survivalBefore: s, incidence } of eventDays) {
    const later = value - incidence[kind];
    const own = byKind[kind];
    if (n > d) variance += (later * later * d) / (n * (n - d));
    variance += (s * s * own * (n - own)) / n ** 3 - (2 * later * s * own) / (n * n);
  }
  // The sum is never negative; rounding can leave it a hair under 0.
  variance = Math.max(0, variance);
  const effectiveN =
    !censoredBefore || value === 0 || value === 1 || variance === 0 ? followed : (value * (1 - value)) / variance;
  return { value, variance, ...wilsonRateInterval(value, effectiveN) };
}
