// Seeded k-means (k-means++ starts, Lloyd's iterations) on small sets of points: a few hundred traders of a handful of
// features. Written here rather than taken from npm because the packages there draw their starts from Math.random,
// and calibration must give the same kinds for the same seed (docs/backtesting.md#calibrating-synthetic-traders).
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

export interface Clustering {
  /** The cluster of each point, numbered from 0 in order of each cluster's first point. */
  assignment: number[];
  k: number;
  /** Sum of squared distances of the points to their cluster's centre. */
  withinSquares: number;
}

const RESTARTS = 10;
const MAX_ITERATIONS = 100;

/** The best of a few seeded k-means runs (least within-cluster squares); k is capped at the number of points. */
export function kMeans(points: readonly number[][], k: number, seed: number): Clustering {
  const rng = xoroshiro128plus(seed);
  const size = Math.min(k, points.length);
  let best: Clustering | undefined;
  for (let run = 0; run < RESTARTS; run++) {
    const result = lloyd(
      points,
      startCentres(points, size, () => uniformInt(rng, 0, 2 ** 30 - 1) / 2 ** 30),
    );
    if (!best || result.withinSquares < best.withinSquares - 1e-9) best = result;
  }
  return renumbered(best!);
}

/**
 * The number of kinds when none is asked for: the smallest k (1 to 6) whose next kind would take less than 30 % off
 * the within-cluster squares. Splitting one round cloud of points takes off far less than that; two real groups, more.
 */
export function chooseK(points: readonly number[][], seed: number, maxK = 6): number {
  const limit = Math.min(maxK, points.length);
  let previous = kMeans(points, 1, seed).withinSquares;
  for (let k = 1; k < limit; k++) {
    const next = kMeans(points, k + 1, seed).withinSquares;
    if (previous === 0 || next > 0.7 * previous) return k;
    previous = next;
  }
  return limit;
}

/** k-means++: the first centre uniformly, each next one with odds in proportion to its squared distance. */
function startCentres(points: readonly number[][], k: number, random: () => number): number[][] {
  const centres = [points[Math.floor(random() * points.length)]!];
  while (centres.length < k) {
    const weights = points.map((p) => Math.min(...centres.map((c) => squaredDistance(p, c))));
    const total = weights.reduce((a, b) => a + b, 0);
    if (total === 0) break; // fewer distinct points than k
    let target = random() * total;
    let index = weights.findIndex((w) => (target -= w) < 0);
    if (index < 0) index = weights.length - 1;
    centres.push(points[index]!);
  }
  return centres.map((c) => [...c]);
}

function lloyd(points: readonly number[][], centres: number[][]): Clustering {
  let assignment = points.map(() => -1);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const next = points.map((p) => nearest(p, centres));
    if (next.every((c, i) => c === assignment[i])) break;
    assignment = next;
    centres = centres.map((centre, c) => {
      const members = points.filter((_, i) => assignment[i] === c);
      return members.length === 0
        ? centre
        : centre.map((_, d) => members.reduce((s, m) => s + m[d]!, 0) / members.length);
    });
  }
  const withinSquares = points.reduce((s, p, i) => s + squaredDistance(p, centres[assignment[i]!]!), 0);
  return { assignment, k: centres.length, withinSquares };
}

/** Clusters numbered by first appearance, empty ones dropped: the same grouping always reads the same. */
function renumbered(result: Clustering): Clustering {
  const numbers = new Map<number, number>();
  const assignment = result.assignment.map((c) => {
    if (!numbers.has(c)) numbers.set(c, numbers.size);
    return numbers.get(c)!;
  });
  return { assignment, k: numbers.size, withinSquares: result.withinSquares };
}

function nearest(point: readonly number[], centres: readonly number[][]): number {
  let best = 0;
  for (let c = 1; c < centres.length; c++)
    if (squaredDistance(point, centres[c]!) < squaredDistance(point, centres[best]!)) best = c;
  return best;
}

function squaredDistance(a: readonly number[], b: readonly number[]): number {
  return a.reduce((s, x, d) => s + (x - b[d]!) ** 2, 0);
}

/** Each feature as z-scores over the points (a feature that does not vary becomes 0). */
export function standardized(points: readonly number[][]): number[][] {
  if (points.length === 0) return [];
  const dims = points[0]!.length;
  const stats = Array.from({ length: dims }, (_, d) => {
    const values = points.map((p) => p[d]!);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
    return { mean, sd };
  });
  return points.map((p) => p.map((v, d) => (stats[d]!.sd === 0 ? 0 : (v - stats[d]!.mean) / stats[d]!.sd)));
}
