// How stable the search's choice is (docs/optimizing.md#how-stable-the-choice-is): the share of bootstrap resamples of
// the last stage's traders in which the chosen plan still ranks first among that stage's candidates. Every candidate
// ran on the same traders, so one draw of traders serves them all (paired): a resample asks "had the search drawn
// these traders instead, would it have chosen the same plan?". A share near 1 says the choice does not rest on which
// traders the search happened to run; a low one says it is close to a coin toss among the top candidates.
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import type { CellResult } from '../cells/cell-runner.js';
import type { Metric } from '../stats/decisions.js';
import type { Objective } from './candidate-ranking.js';
import type { Constraint } from './optimize-config.js';

/** Resamples of the search's traders behind `chosen.stability`. */
export const STABILITY_RESAMPLES = 1_000;

/**
 * The resamples' generator: xoroshiro128+ from the run's seed, started from a state that xoroshiro128plus(n) gives for
 * no n (its last word is −1, a seeded one's 0), so it never starts a trader's stream (seed × 1,000,003 + place).
 * Traders draw from their seeded state jumped on 2⁶⁴ steps; that one of those is this state is a chance of ~2⁻⁹⁵.
 */
export function stabilityRandom(seed: number): ReturnType<typeof xoroshiro128plusFromState> {
  return xoroshiro128plusFromState([seed | 0, Math.floor(seed / 2 ** 32) | 0, 0x5eed, -1]);
}

/** Per trader, in roster order: the figure each metric sums (1 for a pass or a failure, else 0; the net in cents). */
function perTrader(cell: CellResult): Record<Metric, number[]> {
  return {
    pass_rate: cell.traders.map((t) => (t.outcome === 'passed' ? 1 : 0)),
    fail_rate: cell.traders.map((t) => (t.outcome === 'failed' ? 1 : 0)),
    net_per_trader: cell.traders.map((t) => t.netCents),
  };
}

/**
 * The share of `resamples` resamples of the traders (with replacement, the same draw for every candidate) in which
 * `chosen` ranks first among `cells` by the objective's plain value (pass or failure rate, mean net per trader),
 * among the candidates whose values meet every constraint's bound (all of them when none does, as a stage ranks).
 * A first place shared by k candidates counts 1/k. Null when there is nothing to resample: no traders.
 */
export function choiceStability(
  cells: readonly CellResult[],
  chosen: number,
  objective: Objective,
  constraints: readonly Constraint[],
  seed: number,
  resamples = STABILITY_RESAMPLES,
): number | null {
  const n = cells[0]?.traders.length ?? 0;
  if (n === 0) return null;
  const figures = cells.map(perTrader);
  const rng = stabilityRandom(seed);
  const times = new Array<number>(n);
  let held = 0;
  for (let r = 0; r < resamples; r++) {
    times.fill(0);
    for (let i = 0; i < n; i++) times[uniformInt(rng, 0, n - 1)]!++;
    const sums = figures.map((f) => sumsOf(f, times));
    held += shareOfFirst(
      sums,
      cells.map((c) => c.cell.index),
      chosen,
      objective,
      constraints,
      n,
    );
  }
  return held / resamples;
}

function sumsOf(figures: Record<Metric, number[]>, times: readonly number[]): Record<Metric, number> {
  const sum = (values: readonly number[]) => values.reduce((s, x, i) => s + x * times[i]!, 0);
  return {
    pass_rate: sum(figures.pass_rate),
    fail_rate: sum(figures.fail_rate),
    net_per_trader: sum(figures.net_per_trader),
  };
}

/** 1/k when `chosen` is one of the k best in this resample (sums of n traders), else 0. */
function shareOfFirst(
  sums: readonly Record<Metric, number>[],
  candidates: readonly number[],
  chosen: number,
  objective: Objective,
  constraints: readonly Constraint[],
  n: number,
): number {
  const meets = (s: Record<Metric, number>) =>
    constraints.every(({ metric, min, max }) => {
      const value = s[metric] / n;
      return (min === undefined || value >= min) && (max === undefined || value <= max);
    });
  const inside = sums.map((s, i) => i).filter((i) => meets(sums[i]!));
  const pool = inside.length > 0 ? inside : sums.map((_, i) => i);
  // Sums of the same n traders: comparing them compares the means, exactly.
  const sign = objective.direction === 'maximize' ? 1 : -1;
  const best = Math.max(...pool.map((i) => sign * sums[i]![objective.metric]));
  const first = pool.filter((i) => sign * sums[i]![objective.metric] === best).map((i) => candidates[i]);
  return first.includes(chosen) ? 1 / first.length : 0;
}
