// What a back-test reports per trader × cell and per cell (docs/backtesting.md defines each metric).
import { divideHalfEven } from '../core/money.js';
import { Dec } from '../core/money.js';
import type { AccountHistory } from '../core/kernel/reads.js';

export type Outcome = 'passed' | 'failed' | 'active';
export const CAUSES = [
  'passed',
  'max_loss_breach',
  'profit_target_not_reached',
  'min_trading_days_not_met',
  'consistency_not_met',
] as const;
export type Cause = (typeof CAUSES)[number];

export interface TraderOutcome {
  trader: string;
  strategy: string;
  outcome: Outcome;
  cause: Cause;
  /** Trade dates of the period up to the pass or failure (inclusive), or all of them while active. */
  days: number;
  tradingDays: number;
  dailyLockDays: number;
  finalBalanceCents: number;
  startingBalanceCents: number;
  /** The firm's net from this trader (docs/backtesting.md#what-is-measured): what it paid, less its payout. */
  netCents: number;
}

/** The evaluation's economics: what each account pays, and the share of a passer's profit paid out. */
export interface EvaluationEconomics {
  pricePaidCents: number;
  payoutShare: string;
}

export interface CellSummary {
  accounts: number;
  passed: number;
  failedMaxLoss: number;
  active: number;
  dailyLockDays: number;
  /** passed / accounts, as a decimal string with 4 places. */
  passRate: string;
  medianDaysToPass: number | null;
  medianDaysToFail: number | null;
  meanFinalBalanceCents: number;
  revenueCents: number;
  payoutsCents: number;
  netCents: number;
  causes: Record<Cause, number>;
}

/** One account's outcome at the end of the period; `dayIndexOf` counts the period's sessions up to an instant. */
export function traderOutcome(
  trader: string,
  strategy: string,
  account: AccountHistory,
  periodDays: number,
  dayIndexOf: (timeMs: number, at: 'in_session' | 'at_roll') => number,
  economics: EvaluationEconomics,
): TraderOutcome {
  const history = account;
  const last = history.statusHistory[history.statusHistory.length - 1]!;
  const outcome: Outcome = account.status === 'passed' ? 'passed' : account.status === 'failed' ? 'failed' : 'active';
  const dailyLockDates = new Set(
    history.lockChanges
      .filter((c) => c.lock === 'daily_loss_breach' && c.change === 'added')
      .map((c) => dayIndexOf(c.occurredAtMs, 'in_session')),
  );
  const finalBalanceCents = account.balanceCents;
  const startingBalanceCents = account.startingBalanceCents;
  const payout =
    outcome === 'passed' ? payoutCents(finalBalanceCents - startingBalanceCents, economics.payoutShare) : 0;
  return {
    trader,
    strategy,
    outcome,
    cause: causeOf(account, outcome),
    days:
      outcome === 'active'
        ? periodDays
        : Math.min(periodDays, dayIndexOf(last.occurredAtMs, outcome === 'passed' ? 'at_roll' : 'in_session')),
    tradingDays: account.tradingDays,
    dailyLockDays: dailyLockDates.size,
    finalBalanceCents,
    startingBalanceCents,
    netCents: economics.pricePaidCents - payout,
  };
}

function causeOf(account: AccountHistory, outcome: Outcome): Cause {
  if (outcome === 'passed') return 'passed';
  if (outcome === 'failed') return 'max_loss_breach';
  const unmet = account.unmetCriterion;
  if (unmet === 'min_trading_days') return 'min_trading_days_not_met';
  if (unmet === 'consistency') return 'consistency_not_met';
  return 'profit_target_not_reached';
}

/** A passer's payout: payout_share × max(0, profit), rounded half-even to the cent. */
export function payoutCents(profitCents: number, payoutShare: string): number {
  return new Dec(Math.max(0, profitCents)).times(payoutShare).toDecimalPlaces(0, Dec.ROUND_HALF_EVEN).toNumber();
}

/**
 * Cell metrics. revenue = accounts × price_paid; payouts = Σ over passed accounts of payout_share × profit
 * (final balance − starting balance, when positive), each rounded half-even to the cent; net = revenue − payouts.
 */
export function summarizeCell(
  traders: readonly TraderOutcome[],
  pricePaidCents: number,
  payoutShare: string,
): CellSummary {
  const passed = traders.filter((t) => t.outcome === 'passed');
  const failed = traders.filter((t) => t.outcome === 'failed');
  const causes = Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number>;
  for (const t of traders) causes[t.cause]++;
  const payoutsCents = passed.reduce(
    (sum, t) => sum + payoutCents(t.finalBalanceCents - t.startingBalanceCents, payoutShare),
    0,
  );
  const revenueCents = traders.length * pricePaidCents;
  const totalBalance = traders.reduce((sum, t) => sum + t.finalBalanceCents, 0);
  return {
    accounts: traders.length,
    passed: passed.length,
    failedMaxLoss: failed.length,
    active: traders.length - passed.length - failed.length,
    dailyLockDays: traders.reduce((sum, t) => sum + t.dailyLockDays, 0),
    passRate: traders.length === 0 ? '0.0000' : new Dec(passed.length).dividedBy(traders.length).toFixed(4),
    medianDaysToPass: median(passed.map((t) => t.days)),
    medianDaysToFail: median(failed.map((t) => t.days)),
    meanFinalBalanceCents: traders.length === 0 ? 0 : divideHalfEven(totalBalance, traders.length),
    revenueCents,
    payoutsCents,
    netCents: revenueCents - payoutsCents,
    causes,
  };
}

/** The median of whole numbers; an even count averages the middle two (a .5 may result). */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
