// The evaluation time limit (docs/risk-rules.md#time-limit): passing_criteria.time_limit_days trade dates, counted
// from the account's first session (1 whether it traded or not), on the roll family's calendar. Trade dates, not
// calendar days: a weekend or a holiday gives no session to trade in, so it does not use up the limit.
import type { RiskAccount } from '../accounts.js';

/** A roll into `newTradeDate` closes one of the account's sessions, unless it opens its first (opened in a halt). */
export function countClosedTradeDate(account: RiskAccount, newTradeDate: string): void {
  if (newTradeDate > account.firstTradeDate) account.tradeDatesClosed++;
}

/** Why the account fails its time limit at this roll, or undefined while it has trade dates left (or no limit). */
export function timeLimitReason(account: RiskAccount): string | undefined {
  const limit = account.plan.passingCriteria.timeLimitDays;
  if (limit === undefined || account.tradeDatesClosed < limit) return undefined;
  return `the time limit of ${limit} trade date${limit === 1 ? '' : 's'} from ${account.firstTradeDate} ended without a pass`;
}
