// An account's figures in internal units, for drivers that chart or judge accounts rather than answer the API: the
// live risk numbers (equity and the floors, in cents) and the lifecycle and results at the end of a back-test period.
import { failedRuleOf, type AccountStatusRecord, type LockChange } from '../../accounts/account.machine.js';
import type { FailureRule } from '../../accounts/failure-rules.js';
import type { RiskAccount } from '../accounts.js';
import { tradingProfitCents, unmetPassingCriterion, type PassingCriterion } from '../risk/passing.js';

/** An account's live risk figures in cents (internal units). */
export interface RiskNumbers {
  equityCents: number;
  maxLossTriggerCents: number;
  dailyLossTriggerCents: number | null;
  failed: boolean;
  /** The daily-loss lock is on (lifted at the next session roll). */
  dailyLossLocked: boolean;
  /** The day's net P&L so far: equity − start-of-day balance (commissions and open P&L included). */
  dayNetCents: number;
}

/** What a back-test needs of an account at the end of its period (internal units). */
export interface AccountHistory {
  status: RiskAccount['status'];
  statusHistory: readonly AccountStatusRecord[];
  lockChanges: readonly LockChange[];
  tradingDays: number;
  /** Net realized P&L (after commissions) by trade date, for each trade date with a fill, in date order. */
  dayPnlCents: ReadonlyMap<string, number>;
  balanceCents: number;
  startingBalanceCents: number;
  tradingProfitCents: number;
  unmetCriterion: PassingCriterion | undefined;
  /** The rule that failed it (docs/risk-rules.md#statuses-and-locks); undefined unless failed. */
  failedRule: FailureRule | undefined;
}

/** Equity and the two floors in cents, for charts and for traders that react to them. */
export function riskNumbersOf(account: RiskAccount, equityCents: number): RiskNumbers {
  return {
    failed: account.status === 'failed',
    equityCents,
    maxLossTriggerCents: account.floors.maxLossTriggerCents,
    dailyLossTriggerCents: account.floors.dailyLossTriggerCents ?? null,
    dailyLossLocked: account.locks.includes('daily_loss_breach'),
    dayNetCents: equityCents - account.floors.startOfDayBalanceCents,
  };
}

/** An account's lifecycle and figures at the end of a back-test period. */
export function accountHistoryOf(account: RiskAccount): AccountHistory {
  const context = account.lifecycle.context;
  return {
    status: account.status,
    statusHistory: context.statusHistory,
    lockChanges: context.lockChanges,
    tradingDays: account.dayPnlCents.size,
    dayPnlCents: account.dayPnlCents,
    balanceCents: account.balanceCents,
    startingBalanceCents: account.plan.startingBalanceCents,
    tradingProfitCents: tradingProfitCents(account),
    unmetCriterion: unmetPassingCriterion(account),
    failedRule: failedRuleOf(context),
  };
}
