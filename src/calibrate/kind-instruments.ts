// The roots a kind trades (docs/backtesting.md#calibrating-synthetic-traders): its traders' round trips per root,
// pooled, as the small whole weights of `instruments:`. A back-test runs one product group's sessions
// (src/backtest/config/block-instruments.ts), so the whole file keeps to the group the firm made most round trips in.
import { instrumentByRoot, type ProductFamily } from '../core/instruments.js';
import type { InstrumentWeight } from '../backtest/traders/strategy.js';
import type { TraderTraits } from './trader-traits.js';

/** A root with less than this share (in %) of a kind's round trips in the group is left out of its weights. */
export const MIN_ROOT_PERCENT = 5;

export interface KindRoots {
  /** Weights: floor(100 × the root's share), divided by their greatest common divisor; one root weighs 1. */
  instruments: InstrumentWeight[];
  /** Roots of the group under MIN_ROOT_PERCENT of the kind's round trips in it, with that share. */
  tooFew: { root: string; percent: number }[];
  /** Round trips in roots of other product groups, left out (none when the kind trades only the group). */
  otherGroups: { root: string; trips: number }[];
}

/** The product group with the most round trips over all traders; on a tie, the one whose root came first. */
export function firmGroup(traders: readonly TraderTraits[]): ProductFamily {
  const trips = new Map<ProductFamily, number>();
  for (const [root, n] of pooledTrips(traders)) {
    const family = instrumentByRoot(root).family;
    trips.set(family, (trips.get(family) ?? 0) + n);
  }
  let best: [ProductFamily, number] | undefined;
  for (const entry of trips) if (!best || entry[1] > best[1]) best = entry;
  return best![0];
}

/** A kind's roots in `group`; undefined when none of its round trips are in that group. */
export function kindRoots(traders: readonly TraderTraits[], group: ProductFamily): KindRoots | undefined {
  const pooled = [...pooledTrips(traders)];
  const inGroup = pooled.filter(([root]) => instrumentByRoot(root).family === group);
  const total = inGroup.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return undefined;
  const percents = inGroup.map(([root, n]) => ({ root, percent: Math.floor((100 * n) / total) }));
  // Over twenty roots could all be under 5 %: then the most traded ones stay.
  const floor = Math.min(MIN_ROOT_PERCENT, Math.max(...percents.map((p) => p.percent)));
  const kept = percents.filter((p) => p.percent >= floor);
  const divisor = kept.reduce((g, p) => gcd(g, p.percent), 0);
  return {
    instruments: kept.map(({ root, percent }) => ({ root, weight: percent / divisor })),
    tooFew: percents.filter((p) => p.percent < floor),
    otherGroups: pooled
      .filter(([root]) => instrumentByRoot(root).family !== group)
      .map(([root, trips]) => ({ root, trips })),
  };
}

/** "ES 75 % / NQ 25 %": each root's share of the round trips, whole percent rounded down, largest first. */
export function rootMix(traders: readonly TraderTraits[]): string {
  const trips = pooledTrips(traders);
  const total = [...trips.values()].reduce((a, b) => a + b, 0);
  return [...trips]
    .sort((a, b) => b[1] - a[1])
    .map(([root, n]) => `${root} ${Math.floor((100 * n) / total)} %`)
    .join(' / ');
}

/** Round trips per root over the traders, in order of each root's first appearance. */
export function pooledTrips(traders: readonly TraderTraits[]): Map<string, number> {
  const trips = new Map<string, number>();
  for (const t of traders)
    for (const [root, n] of Object.entries(t.tripsByRoot)) trips.set(root, (trips.get(root) ?? 0) + n);
  return trips;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
