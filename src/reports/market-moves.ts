// An account's equity between its samples, from the prints that moved it (docs/scenarios.md#outputs-of-propsim-replay).
// A sample is taken at every fill and balance change, so between two samples an account's positions and balance stay
// as they were, and its equity moves only with the marks of what it holds: by quantity x the price's move in ticks x
// the tick's value, from the price its sample was marked at. A sample names the prints applied before it
// (TimelinePoint[4]): the venue matches first and the print marks after (docs/risk-rules.md#order-of-work-at-one-print),
// so a sample taken at a fill comes before its own print, which is then the first move drawn after it.
import { parsePrint } from '../core/kernel/write/print-input.js';
import { pricingOf } from '../core/positions/instrument-pricing.js';
import type { FillJson } from '../core/shapes/fill.js';
import type { TimelinePoint } from '../scenario/account-timeline.js';
import { lastAtOrBefore, type KeptPrint, type PricePaths } from '../scenario/price-paths.js';

interface Holding {
  quantity: number;
  /** The last fill's price: the mark of an instrument that has not printed yet. */
  fillTicks: number;
}

/**
 * The samples with, between each two, the account's equity at each kept print of an instrument it held then.
 * `fills` are the account's, in the order applied: a sample's sixth number says how many it had seen.
 */
export function withMarketMoves(
  samples: readonly TimelinePoint[],
  fills: readonly FillJson[],
  prices: PricePaths,
): TimelinePoint[] {
  const points: TimelinePoint[] = [];
  const holdings = new Map<string, Holding>();
  let nextFill = 0;
  for (let i = 0; i < samples.length; i++) {
    const sample = samples[i]!;
    points.push(sample);
    for (; nextFill < (sample[5] ?? 0); nextFill++) {
      const fill = fills[nextFill]!;
      const holding = holdings.get(fill.instrument_id) ?? { quantity: 0, fillTicks: 0 };
      holding.quantity += fill.side === 'buy' ? fill.quantity : -fill.quantity;
      holding.fillTicks = parsePrint(fill.instrument_id, fill.price).priceTicks;
      holdings.set(fill.instrument_id, holding);
    }
    const following = samples[i + 1];
    if (following) points.push(...movesBetween(sample, following, holdings, prices));
  }
  return points;
}

/**
 * The account's equity at each kept print after `sample`'s and up to `following`'s, of the instruments held, and at
 * the last print `following` saw of each (kept or not: the print a breach or a fill came after).
 */
function movesBetween(
  sample: TimelinePoint,
  following: TimelinePoint,
  holdings: ReadonlyMap<string, Holding>,
  prices: PricePaths,
): TimelinePoint[] {
  const [, equityCents, maxLossCents, dailyLossCents, seenBefore] = sample;
  const seenAfter = following[4];
  if (seenBefore === undefined || seenAfter === undefined || seenAfter === seenBefore) return [];
  const prints: Array<KeptPrint & { holding: number }> = [];
  const held: Array<{ quantity: number; markTicks: number; centsPerTick: number }> = [];
  for (const [symbol, holding] of holdings) {
    const path = holding.quantity === 0 ? undefined : prices.of(symbol);
    if (!path) continue;
    const k = held.length;
    held.push({
      quantity: holding.quantity,
      markTicks: prices.printAsOf(symbol, seenBefore)?.ticks ?? holding.fillTicks,
      centsPerTick: pricingOf(symbol).tickValueMills / 10,
    });
    let i = lastAtOrBefore(path.seqs, seenBefore) + 1;
    for (; i < path.seqs.length && path.seqs[i]! <= seenAfter; i++)
      prints.push({ seq: path.seqs[i]!, timeMs: path.times[i]!, ticks: path.ticks[i]!, holding: k });
    const last = prices.printAsOf(symbol, seenAfter);
    if (last && last.seq > seenBefore && path.seqs[i - 1] !== last.seq) prints.push({ ...last, holding: k });
  }
  prints.sort((x, y) => x.seq - y.seq);
  const change = held.map(() => 0);
  return prints.map((print) => {
    const h = held[print.holding]!;
    change[print.holding] = h.quantity * (print.ticks - h.markTicks) * h.centsPerTick;
    return [print.timeMs, equityCents + change.reduce((sum, c) => sum + c, 0), maxLossCents, dailyLossCents];
  });
}
