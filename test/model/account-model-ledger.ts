// The model of one account for account.model.test.ts, written from docs/risk-rules.md (not from floors.ts): a FIFO
// ledger per instrument fed with the fills the kernel published, the cash sums, the trailing peak, both floors, the
// status and the lock set; equity marks every instrument at its last print. The kernel must agree with it after every
// step (docs/architecture.md#xstate-models-lifecycles-not-ticks: the floors run on plain numbers in the fast path,
// statuses and locks in the account machine).
import { STARTING_BALANCE_CENTS, type AccountSetup, type Side } from './account-model-commands.js';
import { instrumentOf } from './model-instruments.js';

/** The last print of each instrument, in ticks: what open positions are marked at. */
export type Marks = ReadonlyMap<string, number>;

export type Status = 'active' | 'failed' | 'passed';
export type Lock = 'max_loss_breach' | 'daily_loss_breach' | 'firm_lockout' | 'evaluation_passed';
/** Most severe first (docs/risk-rules.md#statuses-and-locks). */
export const SEVERITY: readonly Lock[] = ['max_loss_breach', 'daily_loss_breach', 'firm_lockout', 'evaluation_passed'];

interface Lot {
  sign: 1 | -1;
  quantity: number;
  ticks: number;
}

export class ModelAccount {
  /** Open FIFO lots per instrument. */
  readonly lots = new Map<string, Lot[]>();
  /** Net position per instrument. */
  readonly net = new Map<string, number>();
  realizedCents = 0;
  commissionCents = 0;
  adjustmentsCents = 0;
  balanceCents = STARTING_BALANCE_CENTS;
  /** The peak the trailing mode follows (static: the highest balance), shifted by floor-shifting adjustments. */
  peakCents = STARTING_BALANCE_CENTS;
  /** Σ floor-shifting adjustments: they move the ceiling too. */
  shiftCents = 0;
  /** The current cap offset: the plan's, then whatever setMaxLossLimit set (never for static). */
  limitCents: number | undefined;
  startOfDayCents = STARTING_BALANCE_CENTS;
  dailyTriggerCents: number | undefined;
  dayCents = 0;
  weekCents = 0;
  /** Σ adjustments made with shift_floors false since the last roll or reanchor (they move balance, not the anchor). */
  unshiftedSinceAnchorCents = 0;
  status: Status = 'active';
  readonly locks = new Set<Lock>();
  /** Fills of the kernel's position book already taken into the model. */
  fillsSeen = 0;

  constructor(
    readonly id: string,
    readonly setup: AccountSetup,
  ) {
    this.limitCents = setup.mode === 'static' ? undefined : setup.limitCents;
    this.dailyTriggerCents = setup.dailyCents === undefined ? undefined : STARTING_BALANCE_CENTS - setup.dailyCents;
  }

  /** max_drawdown_lock_ceiling: only for a capped trailing mode (docs/risk-rules.md#the-ceiling). */
  ceilingCents(): number | undefined {
    return this.limitCents === undefined ? undefined : STARTING_BALANCE_CENTS + this.limitCents + this.shiftCents;
  }

  /** max_loss_limit_trigger: static is fixed (but for shifts); trailing = min(peak − value, ceiling). */
  triggerCents(): number {
    if (this.setup.mode === 'static') return STARTING_BALANCE_CENTS - this.setup.valueCents + this.shiftCents;
    const trailing = this.peakCents - this.setup.valueCents;
    const ceiling = this.ceilingCents();
    return ceiling === undefined ? trailing : Math.min(trailing, ceiling);
  }

  netOf(symbol: string): number {
    return this.net.get(symbol) ?? 0;
  }

  isFlat(): boolean {
    return [...this.net.values()].every((n) => n === 0);
  }

  unrealizedCents(marks: Marks): number {
    let total = 0;
    for (const [symbol, lots] of this.lots) {
      const tickValueCents = instrumentOf(symbol).tickValueCents;
      for (const lot of lots) total += (marks.get(symbol)! - lot.ticks) * lot.quantity * lot.sign * tickValueCents;
    }
    return total;
  }

  equityCents(marks: Marks): number {
    return this.balanceCents + this.unrealizedCents(marks);
  }

  lockoutReason(): Lock | undefined {
    return SEVERITY.find((lock) => this.locks.has(lock));
  }

  /** Books one fill FIFO and its cash (docs/risk-rules.md#balance-and-equity); answers the realized P&L of its lots. */
  fill(symbol: string, side: Side, quantity: number, ticks: number): number {
    const sign = side === 'buy' ? 1 : -1;
    const tickValueCents = instrumentOf(symbol).tickValueCents;
    let lots = this.lots.get(symbol);
    if (!lots) this.lots.set(symbol, (lots = []));
    let remaining = quantity;
    let realized = 0;
    while (remaining > 0 && lots.length > 0 && lots[0]!.sign !== sign) {
      const lot = lots[0]!;
      const closed = Math.min(lot.quantity, remaining);
      realized += (ticks - lot.ticks) * closed * lot.sign * tickValueCents;
      lot.quantity -= closed;
      remaining -= closed;
      if (lot.quantity === 0) lots.shift();
    }
    if (remaining > 0) lots.push({ sign, quantity: remaining, ticks });
    this.net.set(symbol, this.netOf(symbol) + sign * quantity);
    const commission = this.setup.commissionCents * quantity;
    this.realizedCents += realized;
    this.commissionCents += commission;
    this.balanceCents += realized - commission;
    this.dayCents += realized - commission;
    this.weekCents += realized - commission;
    // realtime_balance follows the balance when a fill realizes P&L (docs/risk-rules.md#drawdown-modes), so an
    // opening fill after a deposit does not raise it; static reports the highest balance the same way.
    if (realized !== 0 && (this.setup.mode === 'realtime_balance' || this.setup.mode === 'static'))
      this.peakCents = Math.max(this.peakCents, this.balanceCents);
    return realized;
  }

  /**
   * A mark (docs/risk-rules.md#breach-on-touch): realtime_equity follows equity's highs; touching the max-loss floor
   * fails the account, touching the daily floor adds daily_loss_breach (once); when both are crossed max loss wins.
   * Inactive accounts are not marked. Answers the breach, if this mark made one (the kernel then flattens).
   */
  mark(marks: Marks): 'max_loss' | 'daily_loss' | undefined {
    if (this.status !== 'active') return undefined;
    const equity = this.equityCents(marks);
    if (this.setup.mode === 'realtime_equity') this.peakCents = Math.max(this.peakCents, equity);
    if (equity <= this.triggerCents()) {
      this.status = 'failed';
      this.locks.add('max_loss_breach');
      return 'max_loss';
    }
    if (
      this.dailyTriggerCents !== undefined &&
      equity <= this.dailyTriggerCents &&
      !this.locks.has('daily_loss_breach')
    ) {
      this.locks.add('daily_loss_breach');
      return 'daily_loss';
    }
    return undefined;
  }

  /** The session roll (docs/risk-rules.md#session-rolls) for an active account; inactive accounts keep everything. */
  roll(weekly: boolean, marks: Marks): 'passed' | 'max_loss' | 'daily_loss' | undefined {
    if (this.status !== 'active') return undefined;
    if (this.setup.mode === 'eod_balance') this.peakCents = Math.max(this.peakCents, this.equityCents(marks));
    this.startOfDayCents = this.balanceCents;
    if (this.setup.dailyCents !== undefined) this.dailyTriggerCents = this.balanceCents - this.setup.dailyCents;
    this.dayCents = 0;
    if (weekly) this.weekCents = 0;
    this.unshiftedSinceAnchorCents = 0;
    this.locks.delete('daily_loss_breach');
    // Passing counts trading profit (adjustments aside) and waits for a flat account without a firm lock.
    const tradingProfitCents = this.balanceCents - STARTING_BALANCE_CENTS - this.adjustmentsCents;
    if (this.isFlat() && !this.locks.has('firm_lockout') && tradingProfitCents >= this.setup.targetCents) {
      this.status = 'passed';
      this.locks.add('evaluation_passed');
      return 'passed';
    }
    return this.mark(marks);
  }

  /** Cash adjust (docs/risk-rules.md#cash-adjust): shifted, anchor, peak, both triggers and ceiling move with the
   * balance. */
  adjust(amountCents: number, shift: boolean): void {
    this.balanceCents += amountCents;
    this.adjustmentsCents += amountCents;
    if (!shift) {
      this.unshiftedSinceAnchorCents += amountCents;
      return;
    }
    this.shiftCents += amountCents;
    this.peakCents += amountCents;
    this.startOfDayCents += amountCents;
    if (this.dailyTriggerCents !== undefined) this.dailyTriggerCents += amountCents;
  }

  /** reanchor (docs/risk-rules.md#reanchordailyloss): keeps the allowance, moves the anchor to the balance; false =
   * 409. */
  reanchor(): boolean {
    if (this.dailyTriggerCents === undefined) return false;
    const allowance = this.startOfDayCents - this.dailyTriggerCents;
    if (allowance <= 0) return false;
    this.startOfDayCents = this.balanceCents;
    this.dailyTriggerCents = this.balanceCents - allowance;
    this.dayCents = 0;
    this.unshiftedSinceAnchorCents = 0;
    return true;
  }
}
