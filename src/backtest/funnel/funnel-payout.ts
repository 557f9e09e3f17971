// The payout rules of a funded account (docs/backtesting.md#the-funnel), as pure arithmetic on cents: whether a
// payout is due at a session roll and for how much, and the trader's share of a withdrawal by the split tiers.
import { Dec } from '../../core/money.js';
import { isConsistent } from '../../core/accounts/consistency.js';
import type { PayoutRules, SplitTier } from '../config/funnel-config.js';

/** What the payout rules look at: the funded account now, and its trade dates since the funded start or last payout. */
export interface PayoutView {
  balanceCents: number;
  startingBalanceCents: number;
  /** The net P&L of each trade date with a fill since the funded start or the last payout. */
  dayPnlCents: readonly number[];
}

/**
 * The withdrawal due now, in cents, or 0 when a condition does not hold: at least min_days trade dates, at least
 * min_winning_days winning days, the consistency bound, and an amount above zero and at least min_amount. The amount is the largest the
 * rules allow: min(cap, max_fraction × (balance − starting), balance − (starting + buffer)), the fraction rounded down
 * to the cent.
 */
export function payoutDue(rules: PayoutRules, view: PayoutView): number {
  const days = view.dayPnlCents;
  if (days.length < rules.minDays) return 0;
  const winning = days.filter((pnl) => pnl >= rules.winningDayCents);
  if (winning.length < rules.minWinningDays) return 0;
  // The best day is the best winning day since the last payout (none: 0); the profit, the days' net since then.
  if (
    rules.consistencyPct !== undefined &&
    !isConsistent(
      rules.consistencyPct,
      winning.length === 0 ? 0 : Math.max(...winning),
      days.reduce((sum, pnl) => sum + pnl, 0),
    )
  )
    return 0;
  const amountCents = withdrawableCents(rules, view);
  // min_amount: a smaller payout is not taken; the trader waits (docs/backtesting.md#payout-cadence).
  return rules.minAmountCents !== undefined && amountCents < rules.minAmountCents ? 0 : amountCents;
}

/**
 * The largest withdrawal the amount rules allow, whatever the day conditions: min(cap, max_fraction × (balance −
 * starting), balance − (starting + buffer)), the fraction rounded down to the cent; 0 when that is not above zero.
 */
export function withdrawableCents(rules: PayoutRules, view: Omit<PayoutView, 'dayPnlCents'>): number {
  const profitCents = view.balanceCents - view.startingBalanceCents;
  const fractionCents = new Dec(profitCents).times(rules.maxFraction).floor().toNumber();
  const aboveBufferCents = profitCents - rules.bufferCents;
  const amount = Math.min(rules.capCents ?? Infinity, fractionCents, aboveBufferCents);
  return amount > 0 ? amount : 0;
}

/**
 * The trader's share of a withdrawal of `amountCents` when `withdrawnBeforeCents` were withdrawn before: each part
 * of the withdrawal falls in the tier of the cumulative withdrawals it lies in and takes that tier's share; the
 * sum is rounded half to even to the cent.
 */
export function traderShareCents(
  split: readonly SplitTier[],
  withdrawnBeforeCents: number,
  amountCents: number,
): number {
  let share = new Dec(0);
  let from = withdrawnBeforeCents;
  const to = withdrawnBeforeCents + amountCents;
  for (const tier of split) {
    const tierEnd = tier.upToCents ?? Infinity;
    if (from >= tierEnd) continue;
    const partEnd = Math.min(to, tierEnd);
    share = share.plus(new Dec(partEnd - from).times(tier.trader));
    from = partEnd;
    if (from >= to) break;
  }
  return share.toDecimalPlaces(0, Dec.ROUND_HALF_EVEN).toNumber();
}
