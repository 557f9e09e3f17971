// The risk engine's work inside the kernel: marking accounts after prints and fills, breaches (lock, cancel,
// flatten through the venue until flat), session rolls (daily window, EOD peak, weekly reset, passing), and
// the account-level refusals orders meet at the venue (docs/risk-rules.md). Only accounts holding an instrument
// are marked when it prints.
import { breachAt, onBalance, onEquityMark, onSessionRoll, type Breach } from '../../accounts/floors.js';
import {
  failedRuleOf,
  lockoutReasonOf,
  type AccountLifecycleEvent,
  type LockChange,
} from '../../accounts/account.machine.js';
import type { PlanRule } from '../../accounts/failure-rules.js';
import { parseSymbol, type InstrumentSpec, type ProductFamily } from '../../instruments.js';
import { rootsCover } from '../../accounts/news-rule.js';
import { formatCents } from '../../money.js';
import type { OrderError, Order } from '../../orders/order-types.js';
import type { PositionBook } from '../../positions/index.js';
import { sendAccountEvent, type AccountBook, type RiskAccount } from '../accounts.js';
import { tradingProfitCents, unmetPassingCriterion } from './passing.js';
import type { KernelContext } from '../context.js';
import type { OrderDesk } from '../write/order-desk.js';
import { FloorIndex } from './floor-index.js';
import { thresholdEntry } from './floor-thresholds.js';
import { balanceObjectJson } from '../read/risk-json.js';
import { contractLimitRefusal } from './contract-limits.js';
import { newsRefusal, newsViolation } from './news-blackout.js';
import { declareSnapshot } from '../../snapshot/snapshot-fields.js';
import { countClosedTradeDate, timeLimitReason } from './time-limit.js';

export interface FlattenCounts {
  cancelledOrders: number;
  closingOrders: number;
}

export class RiskDesk {
  /** Price thresholds of accounts' floors and peaks per instrument: what a print of it has to mark. */
  private readonly index = new FloorIndex();
  private readonly crossed: RiskAccount[] = [];
  /** Numbers the prints that cross something, so an account crossed twice by one print is marked once. */
  private crossingSeq = 0;
  /** Product families a firm has switched off (PUT /v1/firm-control/offerings). */
  readonly disabledFamilies = new Map<string, Set<ProductFamily>>();
  /** News violations found at fills, by account id, judged once the account is marked (always empty between inputs). */
  private readonly newsViolations = new Map<string, string>();

  constructor(
    private readonly ctx: KernelContext,
    private readonly accounts: AccountBook,
    private readonly positions: PositionBook,
    private readonly desk: OrderDesk,
    private readonly familyOf: (symbol: string) => ProductFamily,
  ) {}

  equityCents(account: RiskAccount): number {
    return account.balanceCents + this.positions.unrealizedCents(account.id);
  }

  /** Marks the accounts whose floor or peak thresholds a print of `symbol` crosses (and multi-instrument holders). */
  markCrossings(symbol: string, priceTicks: number): void {
    const crossed = this.crossed;
    this.index.crossings(symbol, priceTicks, crossed);
    if (crossed.length === 0) return;
    const seq = ++this.crossingSeq;
    const accounts = crossed.splice(0, crossed.length);
    for (const account of accounts) {
      if (account.markedAtCrossing === seq) continue;
      account.markedAtCrossing = seq;
      this.mark(account);
    }
  }

  /** Equity at the last prints, the trailing peak, and a breach check: touching a floor breaches it. */
  mark(account: RiskAccount): void {
    if (account.status === 'active') {
      const equity = this.equityCents(account);
      onEquityMark(account.floors, equity);
      const breach = breachAt(account.floors, equity);
      if (breach && !(breach === 'daily_loss' && account.locks.includes('daily_loss_breach')))
        this.breach(account, breach, equity);
    }
    this.reindex(account);
  }

  /** Re-files the account's thresholds after anything that moves its equity curve, floors or peak. */
  reindex(account: RiskAccount): void {
    if (account.status !== 'active') return this.index.set(account, undefined);
    const open = this.positions.openPositions(account.id);
    if (open.length === 0) return this.index.set(account, undefined);
    if (open.length > 1) return this.index.set(account, { kind: 'direct', symbols: open.map((p) => p.symbol) });
    this.index.set(account, thresholdEntry(account, open[0]!));
  }

  private breach(account: RiskAccount, breach: Breach, equityCents: number): void {
    const trigger = breach === 'max_loss' ? account.floors.maxLossTriggerCents : account.floors.dailyLossTriggerCents!;
    const reason = `equity ${formatCents(equityCents)} at or below the ${breach === 'max_loss' ? 'max-loss' : 'daily-loss'} trigger ${formatCents(trigger)}`;
    // daily_loss_action fail: the breach fails the evaluation instead of locking it (docs/risk-rules.md#daily-loss-that-fails).
    if (breach === 'daily_loss' && account.plan.riskProfile.dailyLossAction === 'fail') {
      this.failByRule(account, 'daily_loss_failure', reason);
      return;
    }
    const type = breach === 'max_loss' ? 'MAX_LOSS_BREACH' : 'DAILY_LOSS_BREACH';
    if (this.send(account, { type, reason, occurredAtMs: this.ctx.clock.nowMs }).length > 0) {
      this.cancelAndFlatten(account, breach === 'max_loss' ? 'max_loss_breach' : 'daily_loss_breach');
    }
  }

  /**
   * Fails an active account by a rule of its plan other than max loss (docs/risk-rules.md#statuses-and-locks):
   * status failed, lock evaluation_failed, the rule as failed_rule; its working orders are cancelled (reason: the
   * rule) and its positions flattened through the venue, as a breach does. Every such rule fails an account here.
   * False when the account could not fail (not active).
   */
  failByRule(account: RiskAccount, rule: PlanRule, reason: string): boolean {
    if (this.send(account, { type: 'RULE_FAILURE', rule, reason, occurredAtMs: this.ctx.clock.nowMs }).length === 0)
      return false;
    this.cancelAndFlatten(account, rule);
    this.reindex(account);
    return true;
  }

  /**
   * A fill of the account took a position from `netBefore` to `netAfter` at `atMs`: under news action fail, an entry in
   * a blackout of its root is noted, and judged when the account has been marked (judgeFills).
   */
  noteFill(
    account: RiskAccount,
    symbol: string,
    spec: InstrumentSpec,
    netBefore: number,
    netAfter: number,
    atMs: number,
  ): void {
    const news = account.plan.riskProfile.news;
    if (news === undefined || news.action !== 'fail' || this.newsViolations.has(account.id)) return;
    const violation = newsViolation(news, spec, symbol, netBefore, netAfter, atMs);
    if (violation !== undefined) this.newsViolations.set(account.id, violation);
  }

  /** After an account's fills and its mark: a news violation noted at one of them fails it, unless the mark did. */
  judgeFills(account: RiskAccount): void {
    const violation = this.newsViolations.get(account.id);
    if (violation === undefined) return;
    this.newsViolations.delete(account.id);
    if (account.status === 'active') this.failByRule(account, 'news_violation', violation);
  }

  /** Books a fill's cash: balance, day and week P&L net of commissions, the balance-following peak. */
  bookFill(account: RiskAccount, realizedCents: number, commissionCents: number, tradeDate: string): void {
    const net = realizedCents - commissionCents;
    account.realizedCents += realizedCents;
    account.commissionCents += commissionCents;
    account.balanceCents += net;
    account.realizedDayCents += net;
    account.realizedWeekCents += net;
    account.dayPnlCents.set(tradeDate, (account.dayPnlCents.get(tradeDate) ?? 0) + net);
    account.updatedAtMs = this.ctx.clock.nowMs;
    // realtime_balance follows the balance when a fill realizes P&L (docs/risk-rules.md#drawdown-modes), not a deposit
    // an opening fill follows.
    if (realizedCents !== 0) onBalance(account.floors, account.balanceCents);
    this.ctx.emit('balance.updated', () => balanceObjectJson(account));
  }

  /**
   * A breached or flattened account keeps sending offsetting market orders until it is flat: one working
   * risk order per open position at a time, sized to what is still open. Returns how many it sent.
   */
  ensureFlattening(account: RiskAccount): number {
    if (!account.flattening) return 0;
    let sent = 0;
    let open = false;
    // A closing order that no longer matches the position (another fill changed it) is withdrawn and resent.
    for (const order of this.desk.workingOrdersOf(account.id)) {
      if (order.origin !== 'risk') continue;
      const net = this.positions.livePositionQuantity(account.id, order.symbol);
      const fits =
        net !== 0 && (order.side === 'sell') === net > 0 && order.quantity - order.filledQuantity === Math.abs(net);
      if (!fits)
        this.desk.finish(order, { type: 'CANCEL', reason: 'flatten_resized', occurredAtMs: this.ctx.clock.nowMs });
    }
    const working = this.desk.workingOrdersOf(account.id).filter((o) => o.origin === 'risk');
    const roots = account.flattenRoots;
    for (const position of this.positions.openPositions(account.id)) {
      if (roots !== undefined && !coversSymbol(roots, position.symbol)) continue;
      open = true;
      if (working.some((o) => o.symbol === position.symbol)) continue;
      this.desk.placeRiskOrder(
        account.id,
        position.symbol,
        position.netQuantity > 0 ? 'sell' : 'buy',
        Math.abs(position.netQuantity),
      );
      sent++;
    }
    if (!open) {
      account.flattening = false;
      account.flattenRoots = undefined;
    }
    return sent;
  }

  /** Cancels every working client order (at once, venue-side), then sends offsetting market orders. */
  cancelAndFlatten(account: RiskAccount, reason: string): FlattenCounts {
    const cancelledOrders = this.cancelAll(account, reason);
    account.flattening = true;
    account.flattenRoots = undefined;
    return { cancelledOrders, closingOrders: this.ensureFlattening(account) };
  }

  /**
   * A news flatten (docs/risk-rules.md#news-blackouts): the working client orders and the positions of the roots
   * given (empty: every root) only, cancelled and flattened as a breach does; other roots are left alone. An account
   * already flattening everything goes on doing so.
   */
  flattenRoots(account: RiskAccount, roots: readonly string[], reason: string): FlattenCounts {
    if (roots.length === 0) return this.cancelAndFlatten(account, reason);
    const working = this.desk
      .workingOrdersOf(account.id)
      .filter((o) => o.origin === 'client' && coversSymbol(roots, o.symbol));
    for (const order of working)
      this.desk.finish(order, { type: 'CANCEL', reason, occurredAtMs: this.ctx.clock.nowMs });
    if (!account.flattening) account.flattenRoots = [...roots];
    else if (account.flattenRoots !== undefined)
      account.flattenRoots = [...new Set([...account.flattenRoots, ...roots])];
    account.flattening = true;
    return { cancelledOrders: working.length, closingOrders: this.ensureFlattening(account) };
  }

  cancelAll(account: RiskAccount, reason: string): number {
    const working = this.desk.workingOrdersOf(account.id).filter((o) => o.origin === 'client');
    for (const order of working)
      this.desk.finish(order, { type: 'CANCEL', reason, occurredAtMs: this.ctx.clock.nowMs });
    return working.length;
  }

  /** The session roll for every account into the session of `tradeDate` (docs/risk-rules.md#session-rolls). */
  roll(weekly: boolean, tradeDate: string): void {
    for (const account of this.accounts.all()) this.rollAccount(account, weekly, tradeDate);
  }

  private rollAccount(account: RiskAccount, weekly: boolean, tradeDate: string): void {
    if (account.status !== 'active') return;
    const nowMs = this.ctx.clock.nowMs;
    countClosedTradeDate(account, tradeDate);
    onSessionRoll(account.floors, account.balanceCents, this.equityCents(account));
    // The scaling tier follows the profit as of the session open, not intraday (docs/risk-rules.md#scaling-plan).
    account.rollProfitCents = tradingProfitCents(account);
    account.realizedDayCents = 0;
    if (weekly) account.realizedWeekCents = 0;
    account.updatedAtMs = nowMs;
    this.send(account, { type: 'SESSION_ROLL', reason: 'session roll', occurredAtMs: nowMs });
    // The next session opens: a flat-by lock ends (docs/risk-rules.md#flat-by-a-time).
    this.send(account, { type: 'FLAT_BY_END', reason: 'session roll', occurredAtMs: nowMs });
    this.ctx.emit('balance.updated', () => balanceObjectJson(account));
    const passed = this.passingReason(account);
    if (passed && this.send(account, { type: 'PASS', reason: passed, occurredAtMs: nowMs }).length > 0) {
      this.cancelAndFlatten(account, 'evaluation_passed');
      this.reindex(account);
      return;
    }
    this.mark(account);
    // After the pass and the mark: a pass at this roll wins, and so does a breach the mark found at it.
    const overdue = account.status === 'active' ? timeLimitReason(account) : undefined;
    if (overdue !== undefined) this.failByRule(account, 'time_limit', overdue);
  }

  /**
   * Why the account passes at this roll, or undefined. An account still holding a position, or under a firm
   * lockout, is judged again at the next roll (docs/risk-rules.md#passing).
   */
  private passingReason(account: RiskAccount): string | undefined {
    if (account.locks.includes('firm_lockout') || this.positions.openPositions(account.id).length > 0) return undefined;
    if (unmetPassingCriterion(account) !== undefined) return undefined;
    return `trading profit ${formatCents(tradingProfitCents(account))} over ${account.dayPnlCents.size} trading days meets the passing criteria`;
  }

  /** Account-level refusals of a client order at the venue (the order gate). */
  refusal(order: Order, quantity = order.quantity): OrderError | undefined {
    if (order.origin === 'risk') return undefined;
    const account = this.accounts.get(order.accountId);
    if (account.status !== 'active')
      return { code: `account_${account.status}`, message: `account ${account.id} is ${account.status}` };
    const lock = lockoutReasonOf(account.locks);
    if (lock) return { code: 'account_locked', message: `account ${account.id} is locked (${lock})` };
    if (account.userRiskHalt) return { code: 'user_risk_halt', message: `trading is halted for the account's user` };
    const family = this.familyOf(order.symbol);
    if (!account.plan.enabledFamilies.includes(family) || this.disabledFamilies.get(account.firmId)?.has(family)) {
      return { code: 'product_disabled', message: `product family ${family} is not enabled for account ${account.id}` };
    }
    const news = account.plan.riskProfile.news;
    if (news !== undefined && order.spec !== undefined) {
      const net = this.positions.livePositionQuantity(account.id, order.symbol);
      const refused = newsRefusal(
        news,
        order.spec,
        order.side,
        quantity - order.filledQuantity,
        net,
        this.ctx.clock.nowMs,
      );
      if (refused) return refused;
    }
    return this.positionLimitRefusal(account, order, quantity);
  }

  /**
   * max_contracts, the scaling plan and per-root limits bound what the account would hold if this order and every
   * working order on the same side of its instrument filled (docs/risk-rules.md#position-limits).
   */
  private positionLimitRefusal(account: RiskAccount, order: Order, quantity: number): OrderError | undefined {
    const { positionLimits, riskProfile } = account.plan;
    if (positionLimits.maxContracts === undefined && !riskProfile.scaling && !positionLimits.maxContractsPerRoot)
      return undefined;
    let working = 0;
    for (const other of this.desk.workingOrdersOf(account.id)) {
      if (other !== order && other.symbol === order.symbol && other.side === order.side)
        working += other.quantity - other.filledQuantity;
    }
    return contractLimitRefusal({
      plan: account.plan,
      rollProfitCents: account.rollProfitCents,
      symbol: order.symbol,
      side: order.side,
      remaining: quantity - order.filledQuantity,
      sameSideWorking: working,
      positions: this.positions.positions(account.id),
    });
  }

  /** Sends a lifecycle event and publishes its lock changes; returns them. */
  send(account: RiskAccount, event: AccountLifecycleEvent): readonly LockChange[] {
    const changes = sendAccountEvent(account, event);
    for (const change of changes) {
      this.ctx.emit(change.change === 'added' ? 'accounts.locked' : 'accounts.unlocked', () => ({
        account_id: account.id,
        lock: change.lock,
        reason: change.reason,
        account_status: account.status,
        is_locked: account.locks.length > 0,
        lockout_reason: lockoutReasonOf(account.locks) ?? null,
        // Named on the events of an account a rule failed; a max-loss failure's lock names it, as its events always
        // have (their journal lines stay as they were: docs/api.md#streams).
        ...(account.locks.includes('evaluation_failed')
          ? { failed_rule: failedRuleOf(account.lifecycle.context) }
          : {}),
      }));
    }
    if (changes.length > 0) account.updatedAtMs = this.ctx.clock.nowMs;
    return changes;
  }
}

/** Whether a list of roots covers an instrument (rootsCover of its root and mini). */
export function coversSymbol(roots: readonly string[], symbol: string): boolean {
  const spec = parseSymbol(symbol).spec;
  return rootsCover(roots, spec.root, spec.miniRoot);
}

declareSnapshot(RiskDesk, {
  kept: ['accounts', 'positions', 'desk', 'index', 'crossed', 'crossingSeq', 'disabledFamilies', 'newsViolations'],
  skipped: ['ctx', 'familyOf'],
});
