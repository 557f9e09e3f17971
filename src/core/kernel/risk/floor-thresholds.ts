// The prices at which an account holding one instrument breaches a floor or reaches a new equity peak.
// Equity at price p is B + halfEven(sign × (p × Q − T) × tickValueMills / 10), exactly as the position book
// computes it (Q lots' quantity, T Σ lot ticks × quantity), so the thresholds are exact to the tick: a guess
// from the straight line, then a walk of a tick or two against the exact function.
import { divideHalfEven } from '../../money.js';
import type { Position } from '../../positions/positions.js';
import type { RiskAccount } from '../accounts.js';
import type { FloorEntry } from './floor-index.js';

export function thresholdEntry(account: RiskAccount, position: Position): FloorEntry {
  const { floors } = account;
  const long = position.netQuantity > 0;
  const sign = long ? 1 : -1;
  const quantity = position.lots.quantity;
  const ticksTimesQuantity = position.lots.ticksTimesQuantity;
  const tickValueMills = position.mark.pricing.tickValueMills;
  const balance = account.balanceCents;
  const equityAt = (p: number) =>
    balance + divideHalfEven(sign * (p * quantity - ticksTimesQuantity) * tickValueMills, 10);
  /** The straight-line price where equity would equal `cents`. */
  const guess = (cents: number) =>
    Math.round((ticksTimesQuantity + (sign * (cents - balance) * 10) / tickValueMills) / quantity);

  let floorCents = floors.maxLossTriggerCents;
  if (floors.dailyLossTriggerCents !== undefined && !account.locks.includes('daily_loss_breach')) {
    floorCents = Math.max(floorCents, floors.dailyLossTriggerCents);
  }
  const breachTicks = boundary(equityAt, guess(floorCents), (e) => e <= floorCents, long ? 'highest' : 'lowest');
  const upTicks = followsEquityHighs(account)
    ? boundary(equityAt, guess(floors.peakCents), (e) => e > floors.peakCents, long ? 'lowest' : 'highest')
    : undefined;
  return { kind: 'threshold', symbol: position.symbol, long, breachTicks, upTicks };
}

/**
 * realtime_equity follows equity highs for as long as it lives: even once its trigger sits at the ceiling,
 * highest_realized_balance keeps reporting the peak, and a later max-loss-limit change starts from it.
 */
function followsEquityHighs(account: RiskAccount): boolean {
  return account.floors.mode === 'realtime_equity';
}

/**
 * The highest (or lowest) price whose equity satisfies `holds`, for a monotone equity: long positions hold the
 * floor test below a price and the peak test above one; short positions the other way round.
 */
function boundary(
  equityAt: (p: number) => number,
  start: number,
  holds: (equity: number) => boolean,
  want: 'highest' | 'lowest',
): number {
  const inward = want === 'highest' ? -1 : 1; // the direction in which `holds` becomes true
  let p = start;
  while (!holds(equityAt(p))) p += inward;
  while (holds(equityAt(p - inward))) p -= inward;
  return p;
}
