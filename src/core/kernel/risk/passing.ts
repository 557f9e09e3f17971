// The passing criteria as numbers (docs/risk-rules.md#passing): what trading earned, and the first criterion an
// account does not meet yet. The risk desk asks them at each roll; the back-test's causes read the same.
import { isConsistent } from '../../accounts/consistency.js';
import type { RiskAccount } from '../accounts.js';

export type PassingCriterion = 'profit_target' | 'min_trading_days' | 'consistency';

/** What trading earned: balance − starting balance − Σ cash adjustments, so a deposit never passes. */
export function tradingProfitCents(account: RiskAccount): number {
  return account.balanceCents - account.plan.startingBalanceCents - account.adjustmentsCents;
}

/** The first passing criterion the account does not meet yet, or undefined when it meets them all
 * (docs/risk-rules.md#passing). */
export function unmetPassingCriterion(account: RiskAccount): PassingCriterion | undefined {
  const { profitTargetCents, minTradingDays, consistencyPct } = account.plan.passingCriteria;
  if (tradingProfitCents(account) < profitTargetCents) return 'profit_target';
  if (minTradingDays !== undefined && account.dayPnlCents.size < minTradingDays) return 'min_trading_days';
  if (consistencyPct !== undefined) {
    // The best day is the best day's net P&L; the profit, the sum of the days' net P&L.
    const days = [...account.dayPnlCents.values()];
    const totalCents = days.reduce((a, b) => a + b, 0);
    if (!isConsistent(consistencyPct, Math.max(...days), totalCents)) return 'consistency';
  }
  return undefined;
}
