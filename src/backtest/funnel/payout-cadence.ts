// When a funded trader's payout is taken (docs/backtesting.md#payout-cadence): the firm's spacing between payouts
// (`payout.every_days`, trade dates) and the day the trader asks (`payout.request`: at every session open, or the
// first trade date of each week or month). Pure functions of trade dates and the period's session indices; the
// amount rules are funnel-payout.ts's, the funnel's moves trader-funnel.ts's.
import { mondayOf } from '../../core/calendar/dates.js';

export const PAYOUT_REQUESTS = ['auto', 'weekly', 'monthly'] as const;
export type PayoutRequest = (typeof PAYOUT_REQUESTS)[number];

/** A session open at which a payout may be taken: its trade date, the one before it, and its index in the period. */
export interface PayoutMoment {
  tradeDate: string;
  previousTradeDate: string;
  /** The opening session's index among the period's sessions (the period's length at the roll after its last). */
  index: number;
}

/**
 * Whether the trader asks at this open: `auto` at every one (as soon as the rules allow); `weekly` at the first trade
 * date of each calendar week (Monday to Sunday, by trade date: usually Monday's session, Tuesday's after a Monday
 * holiday); `monthly` at the first trade date of each calendar month.
 */
export function asksAt(request: PayoutRequest, at: PayoutMoment): boolean {
  switch (request) {
    case 'auto':
      return true;
    case 'weekly':
      return mondayOf(at.tradeDate) !== mondayOf(at.previousTradeDate);
    case 'monthly':
      return at.tradeDate.slice(0, 7) !== at.previousTradeDate.slice(0, 7);
  }
}

/**
 * every_days: at least so many trade dates (sessions of the period, traded or not) since the funded account opened or
 * the last payout was taken, both at a session open: the open of session `index` comes `index − since` trade dates
 * after the one at `since`. Without every_days any open qualifies.
 */
export function spacedEnough(everyDays: number | undefined, at: PayoutMoment, sinceIndex: number): boolean {
  return everyDays === undefined || at.index - sinceIndex >= everyDays;
}
