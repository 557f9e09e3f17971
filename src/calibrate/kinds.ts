// Traders into kinds (docs/backtesting.md#calibrating-synthetic-traders): each trader's measured traits as a point,
// standardized and clustered by seeded k-means, and each cluster written as a random_bracket block whose draws
// match what its traders did: contracts, stop and target ranges, the entry rate, the minutes held and the roots.
import type { SyntheticTraders } from '../backtest/traders/strategy.js';
import { firmGroup, kindRoots, type KindRoots } from './kind-instruments.js';
import { chooseK, kMeans, standardized } from './k-means.js';
import { mean, median, quantile } from './stats.js';
import type { TraderTraits } from './trader-traits.js';

export interface TraderKind {
  block: SyntheticTraders;
  /** The real traders of this kind. */
  traders: TraderTraits[];
  /** Its roots in the firm's product group; undefined when it made no round trip there (calibrate leaves it out). */
  roots: KindRoots | undefined;
}

/** The session random_bracket spreads its checks over (docs/backtesting.md#synthetic-traders): 23 hours. */
const SESSION_MINUTES = 1380;
/** Minutes from 17:00 CT, the Globex open, so that a session's entries do not wrap around midnight. */
const GLOBEX_OPEN_MINUTE = 17 * 60;

/** Kinds of the traders with at least one round trip; `kinds` undefined picks the number (k-means.ts chooseK). */
export function calibrateKinds(traits: readonly TraderTraits[], seed: number, kinds?: number): TraderKind[] {
  const traders = traits.filter((t) => t.roundTrips > 0);
  if (traders.length === 0) return [];
  const points = standardized(featuresOf(traders));
  const k = kinds ?? chooseK(points, seed);
  const { assignment, k: found } = kMeans(points, k, seed);
  const group = firmGroup(traders);
  return Array.from({ length: found }, (_, c) => {
    const members = traders.filter((_, i) => assignment[i] === c);
    const roots = kindRoots(members, group);
    const block = blockOf(members);
    return { block: roots ? { ...block, instruments: roots.instruments } : block, traders: members, roots };
  });
}

/**
 * One point per trader: entries per active day, mean contracts, median stop and target ticks (the median of all
 * traders' when it has no loss or no win), log of the median hold, win rate, median entry time in the session.
 */
function featuresOf(traders: readonly TraderTraits[]): number[][] {
  const allStops = median(traders.flatMap((t) => t.stopTicks)) ?? 0;
  const allTargets = median(traders.flatMap((t) => t.targetTicks)) ?? 0;
  return traders.map((t) => [
    t.roundTrips / t.activeDays,
    mean(t.contracts)!,
    median(t.stopTicks) ?? allStops,
    median(t.targetTicks) ?? allTargets,
    Math.log1p(median(t.holdMinutes)!),
    winRate(t),
    median(t.entryMinutes.map(sessionMinute))!,
  ]);
}

export function winRate(t: TraderTraits): number {
  return t.wins + t.losses === 0 ? 0 : t.wins / (t.wins + t.losses);
}

export function sessionMinute(chicagoMinute: number): number {
  return (chicagoMinute - GLOBEX_OPEN_MINUTE + 1440) % 1440;
}

function blockOf(traders: readonly TraderTraits[]): SyntheticTraders {
  const entries = traders.reduce((s, t) => s + t.roundTrips, 0);
  const days = traders.reduce((s, t) => s + t.activeDays, 0);
  const hours = activeHours(traders.flatMap((t) => t.entryMinutes.map(sessionMinute)));
  const { tradesPerDay, checkEveryMinutes } = entryRate(
    entries / days,
    traders.flatMap((t) => t.entriesPerDay),
    hours ? hours.minutes : SESSION_MINUTES,
  );
  const maxHold = maxHoldMinutes(traders.flatMap((t) => t.holdMinutes));
  return {
    count: traders.length,
    strategy: 'random_bracket',
    params: {
      trades_per_day: tradesPerDay,
      contracts: spread(traders.flatMap((t) => t.contracts)),
      stop_ticks: uniformRange(traders.flatMap((t) => t.stopTicks)),
      target_ticks: uniformRange(traders.flatMap((t) => t.targetTicks)),
      check_every_minutes: checkEveryMinutes,
      ...(maxHold === undefined ? {} : { max_hold_minutes: maxHold }),
      ...(hours ? { active_hours: hours.clock } : {}),
    },
  };
}

/**
 * active_hours: from the 5th to the 95th percentile of the entries' times in the session, widened to whole five
 * minutes; none (the whole session) when that spans 85 % of the session or more, as entries all session long do.
 */
export function activeHours(
  entrySessionMinutes: readonly number[],
): { clock: [string, string]; minutes: number } | undefined {
  const p5 = quantile(entrySessionMinutes, 0.05);
  const p95 = quantile(entrySessionMinutes, 0.95);
  if (p5 === undefined || p95 === undefined) return undefined;
  const from = Math.floor(p5 / 5) * 5;
  const to = Math.min(SESSION_MINUTES, Math.ceil((p95 + 1) / 5) * 5);
  // Entries spread evenly over the whole session put 90 % of the session between p5 and p95.
  if (to - from >= 0.85 * SESSION_MINUTES) return undefined;
  return { clock: [clock(from), clock(to)], minutes: to - from };
}

/** A minute of the Globex session (0 = 17:00 CT) as Chicago HH:MM. */
export function clock(minuteOfSession: number): string {
  const minute = (minuteOfSession + GLOBEX_OPEN_MINUTE) % 1440;
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/**
 * max_hold_minutes: the 90th percentile of the minutes held (each rounded down), plus one, so every round trip at or
 * under that percentile fits. Not the median: a cap there would cut half the trades short of their brackets and
 * shift the stop and target distances; the 90th percentile trims only the long tail a bracket alone lets run (a coin
 * entry with a far stop can sit for hours where the real traders got out). Undefined when it is longer than a
 * session: the close-out comes first.
 */
export function maxHoldMinutes(holdMinutes: readonly number[]): number | undefined {
  const p90 = quantile(holdMinutes, 0.9);
  if (p90 === undefined || p90 + 1 > SESSION_MINUTES) return undefined;
  return p90 + 1;
}

/** The 10th to 90th percentile of whole numbers, as a [low, high] range (at least 1). */
function spread(values: readonly number[]): [number, number] {
  return [Math.max(1, quantile(values, 0.1) ?? 1), Math.max(1, quantile(values, 0.9) ?? 1)];
}

/**
 * The range [lo, hi] a uniform draw would have to give these distances: for a uniform draw the 10th and 90th
 * percentiles sit a tenth of the range inside each end, so the ends are p10 − (p90 − p10) / 8 and p90 + (p90 − p10) / 8.
 * Percentiles, not the extremes, so one gap through a stop does not stretch the range.
 */
export function uniformRange(values: readonly number[]): [number, number] {
  const p10 = quantile(values, 0.1);
  const p90 = quantile(values, 0.9);
  if (p10 === undefined || p90 === undefined) return [8, 40]; // no such exit: the bracket trader's default
  const edge = (p90 - p10) / 8;
  const lo = Math.max(1, Math.round(p10 - edge));
  return [lo, Math.max(lo, Math.round(p90 + edge))];
}

/**
 * trades_per_day and check_every_minutes for random_bracket: trades_per_day caps a day's entries (the 90th percentile
 * of the days' counts), and the check interval sets the odds, max(1, round(100 × cap / (1380 / interval))) % a check.
 * Of the intervals 1–60 minutes, the one whose expected entries a day, E[min(cap, Binomial(checks, odds))], is
 * nearest the measured mean; the nearer to the default 5 on a tie. The checks are those of the active hours.
 */
export function entryRate(
  entriesPerDay: number,
  dayCounts: readonly number[],
  activeMinutes = SESSION_MINUTES,
): { tradesPerDay: number; checkEveryMinutes: number } {
  const cap = Math.max(1, Math.round(quantile(dayCounts, 0.9) ?? 1));
  let best = { checkEveryMinutes: 5, error: Infinity };
  const byNearnessToFive = Array.from({ length: 60 }, (_, i) => i + 1).sort(
    (a, b) => Math.abs(a - 5) - Math.abs(b - 5) || a - b,
  );
  for (const interval of byNearnessToFive) {
    const checks = Math.floor(activeMinutes / interval);
    const odds = Math.max(1, Math.round((100 * cap) / (SESSION_MINUTES / interval))) / 100;
    const error = Math.abs(cappedBinomialMean(checks, odds, cap) - entriesPerDay);
    if (error < best.error - 1e-12) best = { checkEveryMinutes: interval, error };
  }
  return { tradesPerDay: cap, checkEveryMinutes: best.checkEveryMinutes };
}

/** E[min(cap, X)] for X ~ Binomial(n, p). */
export function cappedBinomialMean(n: number, p: number, cap: number): number {
  if (p >= 1) return Math.min(cap, n); // odds of 100 % or more: every check enters
  let probability = (1 - p) ** n; // P(X = 0)
  let sum = 0;
  let below = 0;
  for (let x = 0; x < cap && x <= n; x++) {
    sum += x * probability;
    below += probability;
    probability *= ((n - x) / (x + 1)) * (p / (1 - p));
  }
  return sum + cap * (1 - below);
}
