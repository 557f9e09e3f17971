// One trader's way through the firm's funnel in a cell (docs/backtesting.md#the-funnel): evaluation accounts (bought,
// billed monthly, reset after a failure by any rule), the pass and its activation fee, the funded account and its
// payouts, with their cadence (docs/backtesting.md#payout-cadence), up to a move to a live account. The cell runner
// calls `atSessionOpen` at every session open, after the kernel's roll, and `atEnd` after the last roll; the trader
// trades into `accountId`, whichever account is current, while `trading` holds.
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { addDays } from '../../core/calendar/dates.js';
import type { Session } from '../../core/calendar/index.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import { Dec, formatCents } from '../../core/money.js';
import type { Funnel } from '../config/funnel-config.js';
import { payoutDue, traderShareCents, withdrawableCents } from './funnel-payout.js';
import { asksAt, spacedEnough, type PayoutMoment } from './payout-cadence.js';

/** live: moved to a live account after payout.max_count payouts; the back-test follows it no further. */
export type FundedOutcome = 'none' | 'active' | 'failed' | 'passed' | 'live';

/** A trader's path through the funnel, as traders.csv reports it. */
export interface FunnelPath {
  /** The first purchase and every monthly renewal. */
  evaluationsBought: number;
  resets: number;
  /** The last trade date of the evaluation that passed. */
  passDate: string | null;
  /** Trade dates of the period with the funded account open (up to its failure). */
  fundedDays: number;
  payouts: number;
  /** The trader's share of every withdrawal. */
  payoutsCents: number;
  fundedOutcome: FundedOutcome;
  evaluationFeesCents: number;
  resetFeesCents: number;
  activationFeesCents: number;
  /**
   * A funded account still open at the end: the trader's share of what it could withdraw then were its day conditions
   * met (docs/backtesting.md#what-the-firm-still-owes); 0 otherwise.
   */
  openLiabilityCents: number;
}

/** Calendar days between evaluation bills when billing is monthly. */
export const BILLING_DAYS = 30;

/** Whether a trader resets after a failure (by any rule): drawn at `rate`, or as the firm's records say. */
export interface ResetDecision {
  resets(rate: string): boolean;
}

/**
 * The resets a trader really bought, from the firm's records (docs/backtesting.md#validation-against-the-firms-records):
 * the first `count` failures reset, whatever the rate; later ones do not.
 */
export class RecordedResets implements ResetDecision {
  private used = 0;

  constructor(private readonly count: number) {}

  resets(): boolean {
    if (this.used >= this.count) return false;
    this.used++;
    return true;
  }
}

/** The reset draws of one trader: their own stream, so a trader decides the same way in every cell. */
export class ResetDraws implements ResetDecision {
  private readonly rng;

  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed);
    // Two jumps: a stream apart from the synthetic strategy's, which jumps once from the same seed.
    this.rng.jump();
    this.rng.jump();
  }

  /** True with probability `rate` (at most 4 places): a draw in 0..9999 below rate × 10,000. */
  resets(rate: string): boolean {
    return uniformInt(this.rng, 0, 9999) < new Dec(rate).times(10_000).toNumber();
  }
}

export class TraderFunnel {
  readonly path: FunnelPath = {
    evaluationsBought: 0,
    resets: 0,
    passDate: null,
    fundedDays: 0,
    payouts: 0,
    payoutsCents: 0,
    fundedOutcome: 'none',
    evaluationFeesCents: 0,
    resetFeesCents: 0,
    activationFeesCents: 0,
    openLiabilityCents: 0,
  };
  /** The account the trader trades into now. */
  accountId: string;
  /** Evaluation accounts in order; the last is the trader's evaluation outcome (docs/backtesting.md#the-funnel). */
  readonly evaluationAccounts: string[] = [];
  /**
   * evaluation: in an evaluation account; out: failed it and did not reset (no more draws or bills); passed: passed,
   * with no funded account (yet); funded: trading funded; live: moved to a live account after max_count payouts.
   */
  private stage: 'evaluation' | 'out' | 'passed' | 'funded' | 'live' = 'evaluation';
  private fundedFromSession = 0;
  /** The session index at whose open the funded account opened or the last payout was taken (every_days). */
  private payoutCycleFrom = 0;
  /** The session index at whose open the trader moved to a live account. */
  private liveFromSession = 0;
  /** Payout counters count trade dates from this one on (the funded start, then each payout's). */
  private countFromTradeDate = '';
  private withdrawnCents = 0;
  private readonly firstTradeDate: string;

  constructor(
    private readonly funnel: Funnel,
    private readonly kernel: Kernel,
    private readonly alias: string,
    private readonly plans: { evaluation: unknown; funded: unknown },
    private readonly draws: ResetDecision,
    firstSession: Session,
    /** The trader quits after a failure (quit_after_failure): no reset draw, out. */
    private readonly quitsAfterFailure = false,
  ) {
    this.firstTradeDate = firstSession.tradeDate;
    this.accountId = this.openEvaluation();
    this.bill();
  }

  /**
   * The session `session` (index `index` in the period) opens; the kernel has rolled. In order: a reset after a
   * failure, the activation after a pass, a payout from the funded account, the monthly bill while in evaluation.
   */
  atSessionOpen(session: Session, index: number, previous: Session): void {
    const status = this.kernel.read.accountHistory(this.accountId).status;
    if (this.stage === 'evaluation' && status === 'failed') this.maybeReset();
    else if (this.stage === 'evaluation' && status === 'passed') this.activate(previous.tradeDate, session, index);
    else if (this.stage === 'funded')
      this.maybePayout({ tradeDate: session.tradeDate, previousTradeDate: previous.tradeDate, index });
    if (this.stage === 'evaluation' && this.billsDue(session.tradeDate) > this.path.evaluationsBought) this.bill();
  }

  /** Whether the trader still trades in the cell: not once it has moved to a live account. */
  get trading(): boolean {
    return this.stage !== 'live';
  }

  /**
   * After the last roll of the period (`nextTradeDate` is the trade date it opens): a pass is activated (no session is
   * left to open the funded account in), and a payout is taken as at any open.
   */
  atEnd(
    lastSession: Session,
    sessionsInPeriod: number,
    failedAtDay: (accountId: string) => number,
    nextTradeDate: string,
  ): void {
    const status = this.kernel.read.accountHistory(this.accountId).status;
    if (this.stage === 'evaluation' && status === 'passed')
      this.activate(lastSession.tradeDate, undefined, sessionsInPeriod);
    else if (this.stage === 'funded')
      this.maybePayout({ tradeDate: nextTradeDate, previousTradeDate: lastSession.tradeDate, index: sessionsInPeriod });
    if (this.stage === 'live') {
      this.path.fundedOutcome = 'live';
      this.path.fundedDays = this.liveFromSession - this.fundedFromSession;
      return;
    }
    if (this.stage !== 'funded') return;
    const funded = this.kernel.read.accountHistory(this.accountId);
    this.path.fundedOutcome = funded.status === 'closed' ? 'active' : funded.status;
    const endDay = funded.status === 'failed' ? failedAtDay(this.accountId) : sessionsInPeriod;
    this.path.fundedDays = endDay - this.fundedFromSession;
    if (funded.status === 'active') {
      const rules = this.funnel.funded!.payout;
      const owedCents = withdrawableCents(rules, funded);
      this.path.openLiabilityCents = traderShareCents(rules.split, this.withdrawnCents, owedCents);
    }
  }

  private openEvaluation(): string {
    const id = this.open(this.plans.evaluation);
    this.evaluationAccounts.push(id);
    return id;
  }

  private open(plan: unknown): string {
    const opened = this.kernel.dispatch({ type: 'open_account', alias: this.alias, plan });
    if (!opened.ok) throw new Error(`${this.alias}: ${opened.body.error}`);
    return opened.body.account_id;
  }

  /** How many evaluation bills are due by this trade date: one at the start, monthly one more per 30 days. */
  private billsDue(tradeDate: string): number {
    if (this.funnel.evaluation.billing === 'one_time') return 1;
    let due = 1;
    while (addDays(this.firstTradeDate, due * BILLING_DAYS) <= tradeDate) due++;
    return due;
  }

  private bill(): void {
    this.path.evaluationsBought++;
    this.path.evaluationFeesCents += this.funnel.evaluation.feeCents;
  }

  private maybeReset(): void {
    const reset = this.funnel.evaluation.reset;
    if (this.quitsAfterFailure || !reset || this.path.resets >= reset.max || !this.draws.resets(reset.rate)) {
      this.stage = 'out';
      return;
    }
    this.path.resets++;
    this.path.resetFeesCents += reset.feeCents;
    this.accountId = this.openEvaluation();
  }

  /** The pass (at the roll that closed `passDate`): the activation fee, and the funded account at `session`'s open. */
  private activate(passDate: string, session: Session | undefined, index: number): void {
    this.path.passDate = passDate;
    this.stage = 'passed';
    const funded = this.funnel.funded;
    if (!funded) return;
    this.path.activationFeesCents += funded.activationFeeCents;
    if (!session) return;
    this.stage = 'funded';
    this.accountId = this.open(this.plans.funded);
    this.fundedFromSession = index;
    this.payoutCycleFrom = index;
    this.countFromTradeDate = session.tradeDate;
  }

  /**
   * A payout when the trader asks at this open (request), the spacing allows it (every_days) and every amount and day
   * rule holds: a withdrawal that leaves the floors where they are; the counters restart. The max_count-th moves the
   * trader to a live account (docs/backtesting.md#payout-cadence).
   */
  private maybePayout(at: PayoutMoment): void {
    const id = this.accountId;
    const funded = this.kernel.read.accountHistory(id);
    if (funded.status !== 'active') return;
    const rules = this.funnel.funded!.payout;
    if (!asksAt(rules.request, at) || !spacedEnough(rules.everyDays, at, this.payoutCycleFrom)) return;
    const dayPnlCents = [...funded.dayPnlCents]
      .filter(([tradeDate]) => tradeDate >= this.countFromTradeDate)
      .map(([, pnl]) => pnl);
    const amountCents = payoutDue(rules, {
      balanceCents: funded.balanceCents,
      startingBalanceCents: funded.startingBalanceCents,
      dayPnlCents,
    });
    if (amountCents === 0) return;
    withdraw(this.kernel, id, amountCents);
    this.path.payouts++;
    this.path.payoutsCents += traderShareCents(rules.split, this.withdrawnCents, amountCents);
    this.withdrawnCents += amountCents;
    this.countFromTradeDate = at.tradeDate;
    this.payoutCycleFrom = at.index;
    if (rules.maxCount !== undefined && this.path.payouts >= rules.maxCount) this.moveLive(at.index);
  }

  /**
   * max_count payouts taken: the trader moves to a live account, which the firm funds outside this simulation. The
   * simulated funded account is locked and flattened (a firm lockout with flatten), the trader trades no more in
   * the cell, and the firm owes it nothing more here (docs/backtesting.md#payout-cadence).
   */
  private moveLive(index: number): void {
    this.stage = 'live';
    this.liveFromSession = index;
    const locked = this.kernel.dispatch({
      type: 'lockout',
      account_id: this.accountId,
      body: { reason_code: 'moved_live', flatten: true },
    });
    if (!locked.ok) throw new Error(`moving ${this.accountId} live: ${locked.body.error}`);
  }
}

/**
 * A payout's withdrawal: the balance falls by the amount with the max-loss floor and its trailing peak where they
 * were (shift_floors false). The daily-loss floor of the new trade date falls with it, so the day keeps its whole
 * allowance: a payout is not a trading loss.
 */
export function withdraw(kernel: Kernel, accountId: string, amountCents: number): void {
  const dailyTrigger = kernel.read.riskNumbers(accountId)!.dailyLossTriggerCents;
  if (dailyTrigger !== null) {
    const lowered = kernel.dispatch({
      type: 'set_daily_loss_trigger',
      account_id: accountId,
      body: { reason_code: 'payout', daily_loss_limit_trigger: formatCents(dailyTrigger - amountCents) },
    });
    if (!lowered.ok) throw new Error(`payout of ${accountId}: ${lowered.body.error}`);
  }
  const adjusted = kernel.dispatch({
    type: 'adjust_balance',
    account_id: accountId,
    body: { amount: formatCents(-amountCents), reason_code: 'payout', shift_floors: false },
  });
  if (!adjusted.ok) throw new Error(`payout of ${accountId}: ${adjusted.body.error}`);
}
