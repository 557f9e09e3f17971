// The decisions of a back-test (docs/backtesting.md#signal-or-noise): every cell's pass rate, failure rate and net per
// trader with a 95 % interval, and each cell against the reference cell (`compare_to`) on those three, paired by
// trader, with p-values Holm-adjusted over every comparison the run reports. A verdict says `differs` only when the
// adjusted p is under 0.05; otherwise `no_evidence`, with the smallest difference the run could have detected. Each
// comparison's interval is its own test inverted at the level Holm gives that comparison, so it excludes 0 exactly
// when the verdict is `differs`. Nothing is resampled: the same cells give the same decisions, with no Monte Carlo error.
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';
import { divideHalfEven } from '../../core/money.js';
import type { CellResult } from '../cells/cell-runner.js';
import {
  detectableDifference,
  detectableRateDifference,
  fewestDiscordant,
  tradersForDifference,
  zForComparisons,
} from './detectable-difference.js';
import { differenceInterval, FEW_TRADERS, meanInterval, meanTest } from './mean-test.js';
import {
  holmAdjusted,
  mcnemarExactP,
  pairedCounts,
  SIGNIFICANCE,
  wilsonInterval,
  wilsonRateInterval,
  type Interval,
  type PairedCounts,
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
  /** The two-sided level of the interval: 0.05 · p / p_adjusted, the level Holm's step holds this comparison to. */
  level: number;
  /** Traders whose figure differs between the two cells (for a rate, the discordant ones). */
  moved: number;
  /**
   * The smallest difference this run would detect with 80 % power at Holm's strictest level (same units); null for
   * the net when no trader's net moved, where the run says so instead.
   */
  detectable: number | null;
  /**
   * The net only, when fewer than ten traders carry the differences (their effective number, mean-test.ts): how many,
   * and how many traders a cell would hold ten of them.
   */
  restsOn?: { traders: number; settle: number };
}

export interface RunStatistics {
  reference: number;
  cells: CellMetrics[];
  decisions: Decision[];
  /** The z of Holm's strictest level for this many comparisons (docs/backtesting.md#signal-or-noise). */
  z: number;
}

const passed = (cell: CellResult) => cell.traders.map((t) => t.outcome === 'passed');
const failed = (cell: CellResult) => cell.traders.map((t) => t.outcome === 'failed');
const nets = (cell: CellResult) => cell.traders.map((t) => t.netCents);

export function runStatistics(cells: readonly CellResult[], reference: number): RunStatistics {
  const traders = cells[0]?.traders.length ?? 0;
  const perTrader = (sum: number) => (traders === 0 ? 0 : divideHalfEven(sum, traders));
  const metrics = cells.map((cell): CellMetrics => ({
    cell: cell.cell.index,
    metrics: {
      pass_rate: rate(cell.summary.passed, traders),
      fail_rate: rate(cell.summary.failed, traders),
      net_per_trader: {
        value: perTrader(cell.summary.netCents),
        ...outwardCents(meanInterval(nets(cell), SIGNIFICANCE)),
      },
    },
  }));
  const refAt = cells.findIndex((c) => c.cell.index === reference);
  if (refAt < 0) throw new Error(`the reference cell #${reference} is not among the cells run`);
  const others = cells.map((_, i) => i).filter((i) => i !== refAt);
  const comparisons = others.length * METRICS.length;
  const z = zForComparisons(comparisons);
  const ref = cells[refAt]!;
  const raw = others.flatMap((i) => {
    const cell = cells[i]!;
    return [
      rateComparison(ref, cell, 'pass_rate', passed, comparisons),
      rateComparison(ref, cell, 'fail_rate', failed, comparisons),
      netComparison(ref, cell, z, comparisons),
    ];
  });
  const adjusted = holmAdjusted(raw.map((c) => c.p));
  const decisions = raw.map((c, k): Decision => {
    const pAdjusted = adjusted[k]!;
    const verdict: Verdict = pAdjusted < SIGNIFICANCE ? 'differs' : 'no_evidence';
    // Holm holds the k-th smallest p to 0.05 / (m − k + 1), kept non-decreasing: its interval is at that level.
    const level = pAdjusted === 0 ? SIGNIFICANCE / comparisons : (SIGNIFICANCE * c.p) / pAdjusted;
    const interval = consistent(c.interval(level), c.p >= level, c.metric);
    return { ...c.decision, p: c.p, pAdjusted, verdict, level, ...interval };
  });
  return { reference, cells: metrics, decisions, z };
}

function rate(count: number, n: number): Estimate {
  return { value: n === 0 ? 0 : count / n, ...wilsonInterval(count, n) };
}

/** A comparison before Holm's adjustment: its p, and its interval at any level. */
interface Unadjusted {
  metric: Metric;
  p: number;
  decision: Omit<Decision, 'p' | 'pAdjusted' | 'verdict' | 'level' | 'low' | 'high'>;
  interval: (level: number) => Interval;
}

/** A rate against the reference: exact McNemar, and the exact interval that inverts it. */
function rateComparison(
  ref: CellResult,
  cell: CellResult,
  metric: Metric,
  outcomeOf: (cell: CellResult) => boolean[],
  comparisons: number,
): Unadjusted {
  const counts = pairedCounts(outcomeOf(ref), outcomeOf(cell));
  const n = ref.traders.length;
  const moved = counts.onlyFirst + counts.onlySecond;
  return {
    metric,
    p: mcnemarExactP(counts),
    decision: {
      cell: cell.cell.index,
      reference: ref.cell.index,
      metric,
      difference: n === 0 ? 0 : (counts.onlySecond - counts.onlyFirst) / n,
      moved,
      detectable: detectableRateDifference(moved, n, comparisons),
    },
    interval: (level) => discordantInterval(counts, n, level),
  };
}

/**
 * The difference in rates, cell − reference, that the exact McNemar test does not reject at `level`: given the b + c
 * discordant traders, the share θ of them that favour the cell has Clopper–Pearson's exact interval, and the
 * difference is (b + c)(2θ − 1)/N. It excludes 0 (θ = ½) exactly when McNemar's p is under `level`.
 */
export function discordantInterval({ onlyFirst, onlySecond }: PairedCounts, traders: number, level: number): Interval {
  const discordant = onlyFirst + onlySecond;
  if (discordant === 0 || traders === 0) return { low: 0, high: 0 };
  const low = onlySecond === 0 ? 0 : betaQuantile(level / 2, onlySecond, onlyFirst + 1);
  const high = onlyFirst === 0 ? 1 : betaQuantile(1 - level / 2, onlySecond + 1, onlyFirst);
  return { low: (discordant * (2 * low - 1)) / traders, high: (discordant * (2 * high - 1)) / traders };
}

/**
 * The smallest difference in net per trader detectable from the traders' differences dᵢ (cents): (z + Z_POWER_80) ·
 * √(Σ dᵢ²) / N, and never under fewestDiscordant traders moving by the typical move √(Σ dᵢ² / k) of the k that
 * moved, as for a rate. Null when nobody's net moved.
 */
export function detectableNetDifference(d: readonly number[], z: number, comparisons: number): number | null {
  const moved = d.filter((x) => x !== 0).length;
  if (moved === 0) return null;
  const sumOfSquares = d.reduce((s, x) => s + x * x, 0);
  const typicalMove = Math.sqrt(sumOfSquares / moved);
  return Math.max(
    detectableDifference(sumOfSquares, d.length, z),
    (fewestDiscordant(comparisons) * typicalMove) / d.length,
  );
}

/** The net per trader against the reference: the mean test of the traders' differences (mean-test.ts). */
function netComparison(ref: CellResult, cell: CellResult, z: number, comparisons: number): Unadjusted {
  const d = cell.traders.map((t, i) => t.netCents - ref.traders[i]!.netCents);
  const n = d.length;
  const test = meanTest(d);
  const moved = d.filter((x) => x !== 0).length;
  const detectable = detectableNetDifference(d, z, comparisons);
  return {
    metric: 'net_per_trader',
    p: test.p,
    decision: {
      cell: cell.cell.index,
      reference: ref.cell.index,
      metric: 'net_per_trader',
      difference:
        n === 0
          ? 0
          : divideHalfEven(
              d.reduce((s, x) => s + x, 0),
              n,
            ),
      moved,
      detectable: detectable === null ? null : Math.round(detectable),
      ...(test.restsOnFew && moved > 0
        ? {
            restsOn: {
              traders: Math.round(test.effectiveTraders * 10) / 10,
              settle: Math.ceil((FEW_TRADERS * n) / Math.max(1, test.effectiveTraders)),
            },
          }
        : {}),
    },
    interval: (level) => differenceInterval(d, level),
  };
}

/**
 * The interval as printed (rates to 4 places, money to the cent), rounded so that it still says what its test said:
 * holding 0 when the test at its level did not reject, and not holding it when it did.
 */
function consistent(interval: Interval, holdsZero: boolean, metric: Metric): Interval {
  const unit = metric === 'net_per_trader' ? 1 : 1e-4;
  const down = (x: number) => Math.floor(x / unit + 1e-9) * unit;
  const up = (x: number) => Math.ceil(x / unit - 1e-9) * unit;
  const fix = (x: number) => (metric === 'net_per_trader' ? x : +x.toFixed(4));
  if (holdsZero) return { low: fix(Math.min(0, down(interval.low))), high: fix(Math.max(0, up(interval.high))) };
  // Not holding 0: the bound nearest 0 rounds away from it.
  if (interval.low > 0) return { low: fix(Math.max(unit, up(interval.low))), high: fix(up(interval.high)) };
  return { low: fix(down(interval.low)), high: fix(Math.min(-unit, down(interval.high))) };
}

/** A money interval in whole cents, rounded outward. */
function outwardCents({ low, high }: Interval): Interval {
  return { low: Math.floor(low), high: Math.ceil(high) };
}

export interface NoiseGuidance {
  traders: number;
  /** The mean pass rate over the cells. */
  meanPassRate: number;
  /** Traders whose pass or fail differs from the reference, as a fraction of traders × comparisons; null alone. */
  discordance: number | null;
  /** Its 95 % interval: the guidance rests on this one run's discordance, itself an estimate. */
  discordanceRange: Interval | null;
  /** The smallest difference in pass rate the run resolves (paired, at Holm's strictest level); null alone. */
  detectableDifference: number | null;
  /** Traders per cell needed for a difference of 1, 2 and 5 points, and the range the discordance's interval gives. */
  tradersFor: Array<{ difference: number; traders: number; low: number; high: number }>;
}

/** How many traders a question needs, by the paired formula the decisions use (docs/backtesting.md#signal-or-noise). */
export function noiseGuidance(cells: readonly CellResult[], statistics: RunStatistics): NoiseGuidance {
  const traders = cells[0]?.summary.accounts ?? 0;
  const accounts = cells.reduce((n, c) => n + c.summary.accounts, 0);
  const meanPassRate = accounts === 0 ? 0 : cells.reduce((n, c) => n + c.summary.passed, 0) / accounts;
  const passDecisions = statistics.decisions.filter((d) => d.metric === 'pass_rate');
  if (passDecisions.length === 0 || traders === 0)
    return {
      traders,
      meanPassRate,
      discordance: null,
      discordanceRange: null,
      detectableDifference: null,
      tradersFor: [],
    };
  const ref = cells.find((c) => c.cell.index === statistics.reference)!;
  const discordant = cells
    .filter((c) => c !== ref)
    .reduce((n, c) => {
      const counts = pairedCounts(passed(ref), passed(c));
      return n + counts.onlyFirst + counts.onlySecond;
    }, 0);
  // At least one discordant trader: none observed does not mean no trader ever would.
  const discordance = Math.max(1, discordant) / (traders * passDecisions.length);
  // Its interval as a share of one cell's traders: the cells' discordances are of the same traders, not independent.
  const discordanceRange = wilsonRateInterval(discordance, traders);
  const needed = (difference: number, psi: number) =>
    tradersForDifference(difference, Math.max(psi, 1 / (traders * passDecisions.length)), statistics.decisions.length);
  return {
    traders,
    meanPassRate,
    discordance,
    discordanceRange,
    detectableDifference: detectableRateDifference(discordance * traders, traders, statistics.decisions.length),
    tradersFor: [0.01, 0.02, 0.05].map((difference) => ({
      difference,
      traders: needed(difference, discordance),
      low: needed(difference, discordanceRange.low),
      high: needed(difference, discordanceRange.high),
    })),
  };
}
