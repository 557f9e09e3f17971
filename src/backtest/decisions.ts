// The decisions of a back-test (docs/backtesting.md#signal-or-noise): every cell's pass rate, failure rate and net per
// trader with a 95 % interval, and each cell against the reference cell (`compare_to`) on those three, paired by
// trader, with p-values Holm-adjusted over every comparison the run reports. A verdict says `differs` only when the
// adjusted p is under 0.05; otherwise `no_evidence`, with the smallest difference the run could have detected.
import { divideHalfEven } from '../core/money.js';
import type { CellResult } from './cell-runner.js';
import {
  detectableDifference,
  detectableRateDifference,
  fewestDiscordant,
  tradersForDifference,
  zForComparisons,
} from './detectable-difference.js';
import {
  bootstrapSums,
  percentileInterval,
  RESAMPLES,
  signFlipP,
  signFlipsFor,
  statisticsRandom,
} from './paired-resampling.js';
import {
  holmAdjusted,
  mcnemarExactP,
  pairedCounts,
  pairedDifferenceInterval,
  SIGNIFICANCE,
  wilsonInterval,
  type Interval,
} from './statistics.js';

export const METRICS = ['pass_rate', 'fail_rate', 'net_per_trader'] as const;
export type Metric = (typeof METRICS)[number];

/** A rate as a fraction, or money per trader in whole cents (rounded half-even). */
export interface Estimate extends Interval {
  value: number;
}

export interface CellMetrics {
  cell: number;
  metrics: Record<Metric, Estimate>;
}

export type Verdict = 'differs' | 'no_evidence';

export interface Decision extends Interval {
  cell: number;
  reference: number;
  metric: Metric;
  /** Cell − reference: a fraction for rates, cents for the net per trader. */
  difference: number;
  p: number;
  pAdjusted: number;
  verdict: Verdict;
  /** The smallest difference this run would detect with 80 % power at Holm's strictest level (same units). */
  detectable: number;
}

export interface RunStatistics {
  reference: number;
  cells: CellMetrics[];
  decisions: Decision[];
  /** Bootstrap resamples and sign flips used. */
  resamples: number;
  flips: number;
  /** The z of Holm's strictest level for this many comparisons (docs/backtesting.md#signal-or-noise). */
  z: number;
}

const passed = (cell: CellResult) => cell.traders.map((t) => t.outcome === 'passed');
const failed = (cell: CellResult) => cell.traders.map((t) => t.outcome === 'failed');
const nets = (cell: CellResult) => cell.traders.map((t) => t.netCents);

export function runStatistics(cells: readonly CellResult[], reference: number, seed: number): RunStatistics {
  const traders = cells[0]?.traders.length ?? 0;
  const rng = statisticsRandom(seed);
  const sums = bootstrapSums(cells.map(nets), RESAMPLES, rng);
  const perTrader = (sum: number) => (traders === 0 ? 0 : divideHalfEven(sum, traders));
  const metrics = cells.map((cell, i): CellMetrics => {
    const net = percentileInterval(sums[i]!);
    return {
      cell: cell.cell.index,
      metrics: {
        pass_rate: rate(cell.summary.passed, traders),
        fail_rate: rate(cell.summary.failedMaxLoss, traders),
        net_per_trader: {
          value: perTrader(cell.summary.netCents),
          low: perTrader(net.low),
          high: perTrader(net.high),
        },
      },
    };
  });
  const refAt = cells.findIndex((c) => c.cell.index === reference);
  if (refAt < 0) throw new Error(`the reference cell #${reference} is not among the cells run`);
  const others = cells.map((_, i) => i).filter((i) => i !== refAt);
  const comparisons = others.length * METRICS.length;
  const z = zForComparisons(comparisons);
  const flips = signFlipsFor(comparisons);
  const ref = cells[refAt]!;
  const raw = others.flatMap((i) => {
    const cell = cells[i]!;
    const difference = sums[i]!.map((sum, r) => sum - sums[refAt]![r]!);
    return [
      rateComparison(ref, cell, 'pass_rate', passed, comparisons),
      rateComparison(ref, cell, 'fail_rate', failed, comparisons),
      netComparison(ref, cell, percentileInterval(difference), perTrader, { flips, z, comparisons, seed }),
    ];
  });
  const adjusted = holmAdjusted(raw.map((d) => d.p));
  const decisions = raw.map((d, k): Decision => {
    const pAdjusted = adjusted[k]!;
    return { ...d, pAdjusted, verdict: pAdjusted < SIGNIFICANCE ? 'differs' : 'no_evidence' };
  });
  return { reference, cells: metrics, decisions, resamples: RESAMPLES, flips, z };
}

function rate(count: number, n: number): Estimate {
  return { value: n === 0 ? 0 : count / n, ...wilsonInterval(count, n) };
}

type Unadjusted = Omit<Decision, 'pAdjusted' | 'verdict'>;

/**
 * A rate against the reference: exact McNemar, Newcombe's paired interval, and the detectable difference from the
 * discordant traders.
 */
function rateComparison(
  ref: CellResult,
  cell: CellResult,
  metric: Metric,
  outcomeOf: (cell: CellResult) => boolean[],
  comparisons: number,
): Unadjusted {
  const inRef = outcomeOf(ref);
  const inCell = outcomeOf(cell);
  const counts = pairedCounts(inRef, inCell);
  const both = inRef.filter((x, i) => x && inCell[i]).length;
  const n = inRef.length;
  return {
    cell: cell.cell.index,
    reference: ref.cell.index,
    metric,
    difference: n === 0 ? 0 : (counts.onlySecond - counts.onlyFirst) / n,
    ...pairedDifferenceInterval({ ...counts, both }, n),
    p: mcnemarExactP(counts),
    detectable: detectableRateDifference(counts.onlyFirst + counts.onlySecond, n, comparisons),
  };
}

/**
 * The smallest difference in net per trader detectable from the traders' differences dᵢ (cents): (z + Z_POWER_80) ·
 * √(Σ dᵢ²) / N, and never under fewestDiscordant traders moving by the typical move √(Σ dᵢ² / k) of the k that
 * moved: with fewer movers than that, no sign-flip p can reach Holm's strictest level, as for a rate.
 */
export function detectableNetDifference(d: readonly number[], z: number, comparisons: number): number {
  const moved = d.filter((x) => x !== 0).length;
  if (moved === 0) return 0;
  const sumOfSquares = d.reduce((s, x) => s + x * x, 0);
  const typicalMove = Math.sqrt(sumOfSquares / moved);
  return Math.max(
    detectableDifference(sumOfSquares, d.length, z),
    (fewestDiscordant(comparisons) * typicalMove) / d.length,
  );
}

/** The net per trader against the reference: bootstrap interval, sign-flip p, detectable from the dᵢ. */
function netComparison(
  ref: CellResult,
  cell: CellResult,
  interval: Interval,
  perTrader: (sum: number) => number,
  { flips, z, comparisons, seed }: { flips: number; z: number; comparisons: number; seed: number },
): Unadjusted {
  const d = cell.traders.map((t, i) => t.netCents - ref.traders[i]!.netCents);
  return {
    cell: cell.cell.index,
    reference: ref.cell.index,
    metric: 'net_per_trader',
    difference: perTrader(d.reduce((s, x) => s + x, 0)),
    low: perTrader(interval.low),
    high: perTrader(interval.high),
    p: signFlipP(d, flips, flipRandom(seed, cell.cell.index)),
    detectable: Math.round(detectableNetDifference(d, z, comparisons)),
  };
}

/**
 * Cell #k's sign flips draw from the statistics stream jumped k + 1 times more: the same numbers whether the whole
 * grid runs or a subset, so a comparison reads the same in both.
 */
function flipRandom(seed: number, cell: number): ReturnType<typeof statisticsRandom> {
  const rng = statisticsRandom(seed);
  for (let k = 0; k <= cell; k++) rng.jump();
  return rng;
}

export interface NoiseGuidance {
  traders: number;
  /** The mean pass rate over the cells. */
  meanPassRate: number;
  /** Traders whose pass or fail differs from the reference, as a fraction of traders × comparisons; null alone. */
  discordance: number | null;
  /** The smallest difference in pass rate the run resolves (paired, at Holm's strictest level); null alone. */
  detectableDifference: number | null;
  /** Traders per cell needed for a difference of 1, 2 and 5 points. */
  tradersFor: Array<{ difference: number; traders: number }>;
}

/** How many traders a question needs, by the paired formula the decisions use (docs/backtesting.md#signal-or-noise). */
export function noiseGuidance(cells: readonly CellResult[], statistics: RunStatistics): NoiseGuidance {
  const traders = cells[0]?.summary.accounts ?? 0;
  const accounts = cells.reduce((n, c) => n + c.summary.accounts, 0);
  const meanPassRate = accounts === 0 ? 0 : cells.reduce((n, c) => n + c.summary.passed, 0) / accounts;
  const passDecisions = statistics.decisions.filter((d) => d.metric === 'pass_rate');
  if (passDecisions.length === 0 || traders === 0)
    return { traders, meanPassRate, discordance: null, detectableDifference: null, tradersFor: [] };
  const ref = cells.find((c) => c.cell.index === statistics.reference)!;
  const discordant = cells
    .filter((c) => c !== ref)
    .reduce((n, c) => {
      const counts = pairedCounts(passed(ref), passed(c));
      return n + counts.onlyFirst + counts.onlySecond;
    }, 0);
  // At least one discordant trader: none observed does not mean no trader ever would.
  const discordance = Math.max(1, discordant) / (traders * passDecisions.length);
  return {
    traders,
    meanPassRate,
    discordance,
    detectableDifference: detectableRateDifference(discordance * traders, traders, statistics.decisions.length),
    tradersFor: [0.01, 0.02, 0.05].map((difference) => ({
      difference,
      traders: tradersForDifference(difference, discordance, statistics.decisions.length),
    })),
  };
}
