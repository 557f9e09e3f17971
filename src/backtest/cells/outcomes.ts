// What a back-test reports per trader × cell and per cell (docs/backtesting.md defines each metric). A failure's cause
// is the rule that failed the account (docs/backtesting.md#what-is-measured): the causes list every rule of
// FAILURE_RULES, so a rule added there is a cause here, in traders.csv, summary.json and the report's chart.
import { FAILURE_RULES, JUDGED_AT_ROLL, type FailureRule } from '../../core/accounts/failure-rules.js';
import { divideHalfEven } from '../../core/money.js';
import { Dec } from '../../core/money.js';
import type { AccountHistory } from '../../core/kernel/read/reads.js';
import { addDroppedFills, noDroppedFills, type DroppedFills } from '../fills/dropped-fills.js';
import type { FunnelPath } from '../funnel/trader-funnel.js';

export type Outcome = 'passed' | 'failed' | 'active';
/** How a trader's first evaluation ended; `open` when it was still trading at the period's end (censored). */
export type FirstOutcome = 'passed' | 'failed' | 'open';
/** Why an account still trading at the end has not passed: the first passing criterion unmet. */
export const NOT_PASSED_CAUSES = [
  'profit_target_not_reached',
  'min_trading_days_not_met',
  'consistency_not_met',
] as const;
/** passed; a failure, by the rule that failed the account; not passed yet, by the criterion unmet. */
export const CAUSES = ['passed', ...FAILURE_RULES, ...NOT_PASSED_CAUSES] as const;
export type Cause = (typeof CAUSES)[number];

/**
 * How a failure by `rule` counts its trade date (docs/backtesting.md#what-is-measured): a rule judged at a session roll
 * (the time limit) counts the sessions closed by then, as a pass does; any other, the session it happened in.
 */
export function failureDayCount(rule: FailureRule | undefined): 'in_session' | 'at_roll' {
  return rule !== undefined && JUDGED_AT_ROLL.has(rule) ? 'at_roll' : 'in_session';
}

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
  /** What the trader paid the firm: evaluation, reset and activation fees (price_paid without the funnel). */
  feesCents: number;
  /** What the firm paid the trader: its share of every withdrawal (payout_share × profit of a pass without the funnel). */
  payoutsCents: number;
  /** The firm's net from this trader: feesCents − payoutsCents. */
  netCents: number;
  /** The trader's path through the funnel, when the config has one (docs/backtesting.md#the-funnel). */
  funnel?: FunnelPath;
  /** Its historical fills the engine dropped, by why (docs/backtesting.md#fills-the-engine-dropped). */
  droppedFills: DroppedFills;
  /** Positions its account opened that its own fills never had (the same section). */
  positionsNeverHad: number;
  /** Its first evaluation account's outcome (before any reset): docs/backtesting.md#outcomes-in-time. */
  firstOutcome: FirstOutcome;
  /** The trade date (1-based in the period) it passed or failed on; null while open. */
  firstOutcomeDay: number | null;
}

/** A trader's evaluation, before the economics are applied. */
export type EvaluationOutcome = Omit<
  TraderOutcome,
  | 'feesCents'
  | 'payoutsCents'
  | 'netCents'
  | 'funnel'
  | 'droppedFills'
  | 'positionsNeverHad'
  | 'firstOutcome'
  | 'firstOutcomeDay'
>;

/** Per cell, with the funnel: each kind of fee, the payouts and the net (docs/backtesting.md#the-funnel). */
export interface FunnelEconomics {
  evaluationFeesCents: number;
  resetFeesCents: number;
  activationFeesCents: number;
  payoutsCents: number;
  netCents: number;
  /** Traders whose funded account is still open at the end, and what the firm owes them (docs/backtesting.md#what-the-firm-still-owes). */
  openFunded: number;
  openLiabilityCents: number;
  /** Traders moved to a live account after payout.max_count payouts (docs/backtesting.md#payout-cadence). */
  movedLive: number;
}

export interface CellSummary {
  accounts: number;
  passed: number;
  /** Accounts failed by a max-loss breach only (summary.json's failed_max_loss, as it always meant). */
  failedMaxLoss: number;
  /** Accounts failed by any rule (docs/backtesting.md#per-cell-cellscsv-summaryjson). */
  failed: number;
  active: number;
  dailyLockDays: number;
  /** The traders' historical fills the engine dropped, by why. */
  droppedFills: DroppedFills;
  /** The traders' positions their accounts opened that their own fills never had. */
  positionsNeverHad: number;
  /** passed / accounts, as a decimal string with 4 places. */
  passRate: string;
  medianDaysToPass: number | null;
  medianDaysToFail: number | null;
  meanFinalBalanceCents: number;
  revenueCents: number;
  payoutsCents: number;
  netCents: number;
  causes: Record<Cause, number>;
  /** With the funnel only. */
  economics: FunnelEconomics;
}

/**
 * A trader's evaluation at the end of the period: the outcome of its last evaluation account (one account without
 * the funnel; after resets, the last), with trading days and daily-lock days over all of them. `dayIndexOf` counts
 * the period's sessions up to an instant.
 */
export function traderOutcome(
  trader: string,
  strategy: string,
  accounts: readonly AccountHistory[],
  periodDays: number,
  dayIndexOf: (timeMs: number, at: 'in_session' | 'at_roll') => number,
): EvaluationOutcome {
  const account = accounts[accounts.length - 1]!;
  const last = account.statusHistory[account.statusHistory.length - 1]!;
  const outcome: Outcome = account.status === 'passed' ? 'passed' : account.status === 'failed' ? 'failed' : 'active';
  const dailyLockDates = new Set(
    accounts.flatMap((history) =>
      history.lockChanges
        .filter((c) => c.lock === 'daily_loss_breach' && c.change === 'added')
        .map((c) => dayIndexOf(c.occurredAtMs, 'in_session')),
    ),
  );
  return {
    trader,
    strategy,
    outcome,
    cause: causeOf(account, outcome),
    days:
      outcome === 'active'
        ? periodDays
        : Math.min(
            periodDays,
            dayIndexOf(last.occurredAtMs, outcome === 'passed' ? 'at_roll' : failureDayCount(account.failedRule)),
          ),
    tradingDays: accounts.reduce((sum, history) => sum + history.tradingDays, 0),
    dailyLockDays: dailyLockDates.size,
    finalBalanceCents: account.balanceCents,
    startingBalanceCents: account.startingBalanceCents,
  };
}

/** The first evaluation account's outcome and its trade date, counted as `days` is (docs/backtesting.md#outcomes-in-time). */
export function firstOutcomeOf(
  first: AccountHistory,
  periodDays: number,
  dayIndexOf: (timeMs: number, at: 'in_session' | 'at_roll') => number,
): Pick<TraderOutcome, 'firstOutcome' | 'firstOutcomeDay'> {
  const { outcome, days } = traderOutcome('', '', [first], periodDays, dayIndexOf);
  if (outcome === 'active') return { firstOutcome: 'open', firstOutcomeDay: null };
  return { firstOutcome: outcome, firstOutcomeDay: days };
}

function causeOf(account: AccountHistory, outcome: Outcome): Cause {
  if (outcome === 'passed') return 'passed';
  // An account failed before the rules had names has no failedRule: it was a max-loss breach.
  if (outcome === 'failed') return account.failedRule ?? 'max_loss_breach';
  const unmet = account.unmetCriterion;
  if (unmet === 'min_trading_days') return 'min_trading_days_not_met';
  if (unmet === 'consistency') return 'consistency_not_met';
  return 'profit_target_not_reached';
}

/**
 * The economics of the evaluation alone (price_paid, payout_share; no funnel): the trader paid price_paid, and a
 * pass is paid payout_share × profit (final balance − starting balance, when positive), rounded half-even to the cent.
 */
export function evaluationOnlyEconomics(
  outcome: EvaluationOutcome,
  pricePaidCents: number,
  payoutShare: string,
): Pick<TraderOutcome, 'feesCents' | 'payoutsCents' | 'netCents'> {
  const profit = Math.max(0, outcome.finalBalanceCents - outcome.startingBalanceCents);
  const payoutsCents =
    outcome.outcome === 'passed'
      ? new Dec(profit).times(payoutShare).toDecimalPlaces(0, Dec.ROUND_HALF_EVEN).toNumber()
      : 0;
  return { feesCents: pricePaidCents, payoutsCents, netCents: pricePaidCents - payoutsCents };
}

/** The funnel's economics of one trader: every fee it paid, and its share of every withdrawal. */
export function funnelEconomics(path: FunnelPath): Pick<TraderOutcome, 'feesCents' | 'payoutsCents' | 'netCents'> {
  const feesCents = path.evaluationFeesCents + path.resetFeesCents + path.activationFeesCents;
  return { feesCents, payoutsCents: path.payoutsCents, netCents: feesCents - path.payoutsCents };
}

/** Cell metrics: revenue = Σ fees paid, payouts = Σ payouts, net = revenue − payouts, over the traders. */
export function summarizeCell(traders: readonly TraderOutcome[]): CellSummary {
  const passed = traders.filter((t) => t.outcome === 'passed');
  const failed = traders.filter((t) => t.outcome === 'failed');
  const causes = Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number>;
  for (const t of traders) causes[t.cause]++;
  const sum = (of: (t: TraderOutcome) => number) => traders.reduce((total, t) => total + of(t), 0);
  const revenueCents = sum((t) => t.feesCents);
  const payoutsCents = sum((t) => t.payoutsCents);
  const totalBalance = sum((t) => t.finalBalanceCents);
  return {
    accounts: traders.length,
    passed: passed.length,
    failedMaxLoss: causes.max_loss_breach,
    failed: failed.length,
    active: traders.length - passed.length - failed.length,
    dailyLockDays: sum((t) => t.dailyLockDays),
    droppedFills: traders.reduce((total, t) => addDroppedFills(total, t.droppedFills), noDroppedFills()),
    positionsNeverHad: sum((t) => t.positionsNeverHad),
    passRate: traders.length === 0 ? '0.0000' : new Dec(passed.length).dividedBy(traders.length).toFixed(4),
    medianDaysToPass: median(passed.map((t) => t.days)),
    medianDaysToFail: median(failed.map((t) => t.days)),
    meanFinalBalanceCents: traders.length === 0 ? 0 : divideHalfEven(totalBalance, traders.length),
    revenueCents,
    payoutsCents,
    netCents: revenueCents - payoutsCents,
    causes,
    // Without the funnel every fee is the evaluation's price_paid, and payouts are the evaluation's payout share.
    economics: {
      evaluationFeesCents: sum((t) => (t.funnel ? t.funnel.evaluationFeesCents : t.feesCents)),
      resetFeesCents: sum((t) => t.funnel?.resetFeesCents ?? 0),
      activationFeesCents: sum((t) => t.funnel?.activationFeesCents ?? 0),
      payoutsCents,
      netCents: revenueCents - payoutsCents,
      openFunded: traders.filter((t) => t.funnel?.fundedOutcome === 'active').length,
      openLiabilityCents: sum((t) => t.funnel?.openLiabilityCents ?? 0),
      movedLive: traders.filter((t) => t.funnel?.fundedOutcome === 'live').length,
    },
  };
}

/** The median of whole numbers; an even count averages the middle two (a .5 may result). */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
