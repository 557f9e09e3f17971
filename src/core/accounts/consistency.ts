// The consistency rule, once (docs/risk-rules.md#passing): a best day may be at most pct % of the profit, exactly,
// best × 100 ≤ pct × profit, and there must be a profit. Each caller says what its best day and profit are: passing
// takes the best day's net P&L over the whole evaluation; a funded payout takes the best winning day since the last
// payout (docs/backtesting.md#the-funnel).
import { Dec } from '../money.js';

/** Whether `bestDayCents` is within `pct` % of `profitCents` (a decimal string, 0 < pct ≤ 100), profit above 0. */
export function isConsistent(pct: string, bestDayCents: number, profitCents: number): boolean {
  return profitCents > 0 && new Dec(bestDayCents).times(100).lessThanOrEqualTo(new Dec(pct).times(profitCents));
}
