// The plan rules that act at an instant rather than at a print or a fill (docs/risk-rules.md#flat-by-a-time,
// docs/risk-rules.md#no-holding-over-the-weekend, docs/risk-rules.md#news-blackouts): a flat time (flat_by, or the
// weekend flat of hold_over_weekend false) and the start of a news window (no_entry, flatten). Accounts are filed
// by their next such instant, one clock timer per distinct instant, so no print and no roll looks at accounts that
// have nothing due (docs/architecture.md#time-is-an-input); at the instant, each account filed there acts and is
// filed at its next.
import { type NewsEvent, eventsStartingAt, nextWindowStartMs } from '../../accounts/news-rule.js';
import type { PositionBook } from '../../positions/index.js';
import type { RiskAccount } from '../accounts.js';
import type { KernelContext } from '../context.js';
import { FlatTimes, type FlatTime } from './flat-times.js';
import { blackoutWords, isEntry } from './news-blackout.js';
import type { OrderDesk } from '../write/order-desk.js';
import { coversSymbol, type FlattenCounts, type RiskDesk } from './risk-desk.js';
import { declareSnapshot } from '../../snapshot/snapshot-fields.js';
import { chicagoIso } from '../../calendar/dates.js';
import { flatByText } from '../../accounts/flat-rules.js';

export class TimedRules {
  /** Accounts by the instant they are next due, in filing order; each instant has one clock timer. */
  private readonly due = new Map<number, RiskAccount[]>();
  private readonly flatTimes: FlatTimes;
  /** A flat time's lock reason, built once for all the accounts locked then (exchange-time words cost microseconds). */
  private readonly reasons = new WeakMap<FlatTime, string>();

  constructor(
    private readonly ctx: KernelContext,
    private readonly positions: PositionBook,
    private readonly desk: OrderDesk,
    private readonly risk: RiskDesk,
  ) {
    this.flatTimes = new FlatTimes(ctx.calendar, ctx.rollFamily);
  }

  /**
   * A new account: opened after its session's flat time, it is locked until the next session opens, as one opened
   * before would be; then it is filed at its next instant.
   */
  opened(account: RiskAccount): void {
    const nowMs = this.ctx.clock.nowMs;
    const flat = this.flatTimes.lockedAt(account.plan, nowMs);
    if (flat !== undefined) this.risk.send(account, { type: 'FLAT_BY', reason: flatReason(flat), occurredAtMs: nowMs });
    this.file(account, nowMs);
  }

  /** The `timed_rules` timer: every account filed at this instant acts, then is filed at its next. */
  fire(): void {
    const nowMs = this.ctx.clock.nowMs;
    const accounts = this.due.get(nowMs);
    if (accounts === undefined) return;
    this.due.delete(nowMs);
    for (const account of accounts) {
      if (account.status !== 'active') continue;
      const flat = this.flatTimes.lockedAt(account.plan, nowMs);
      if (flat !== undefined && flat.atMs === nowMs) this.flat(account, flat);
      const news = account.plan.riskProfile.news;
      if (news !== undefined && account.status === 'active') {
        const starting = eventsStartingAt(news, nowMs);
        if (starting.length > 0) this.newsWindowOpens(account, starting);
      }
      if (account.status === 'active') this.file(account, nowMs);
    }
  }

  /** Files the account at its first instant after `afterMs`, if it has one. */
  private file(account: RiskAccount, afterMs: number): void {
    const { plan } = account;
    const news = plan.riskProfile.news;
    const flatMs = this.flatTimes.nextAfter(plan, afterMs)?.atMs;
    const newsMs = news === undefined || news.action === 'fail' ? undefined : nextWindowStartMs(news, afterMs);
    const atMs = flatMs === undefined ? newsMs : newsMs === undefined ? flatMs : Math.min(flatMs, newsMs);
    if (atMs === undefined) return;
    let list = this.due.get(atMs);
    if (list === undefined) {
      list = [];
      this.due.set(atMs, list);
      this.ctx.clock.schedule(atMs, { kind: 'timed_rules' });
    }
    list.push(account);
  }

  /**
   * A flat time: with flat_by_action fail, an account holding a position fails (flat_by_violation); otherwise it is
   * locked until the next session opens (flat_by) and its working orders are cancelled and its positions flattened.
   */
  private flat(account: RiskAccount, flat: FlatTime): void {
    const open = this.positions.openPositions(account.id);
    if (account.plan.riskProfile.flatByAction === 'fail' && open.length > 0) {
      const held = open.map((p) => `${p.symbol} ${p.netQuantity > 0 ? 'long' : 'short'} ${Math.abs(p.netQuantity)}`);
      const reason = `held ${held.join(', ')} at ${flatWords(flat)}`;
      const counts = this.countsOf(account, () => this.risk.failByRule(account, 'flat_by_violation', reason));
      this.published(account, 'flat_by_violation', () => reason, counts);
      return;
    }
    const reason = this.reasonOf(flat);
    this.risk.send(account, { type: 'FLAT_BY', reason, occurredAtMs: this.ctx.clock.nowMs });
    this.published(account, flat.rule, () => reason, this.risk.cancelAndFlatten(account, flat.rule));
  }

  /**
   * News windows start (docs/risk-rules.md#news-blackouts): in the roots they name (none: every root), working entry
   * orders are cancelled (no_entry), or every working order is cancelled and the positions flattened (flatten).
   */
  private newsWindowOpens(account: RiskAccount, events: readonly NewsEvent[]): void {
    const news = account.plan.riskProfile.news!;
    const roots = events.some((e) => e.roots.length === 0) ? [] : [...new Set(events.flatMap((e) => e.roots))];
    if (news.action === 'flatten') {
      const counts = this.risk.flattenRoots(account, roots, 'news_blackout');
      this.published(account, 'news_blackout', () => `news blackout ${blackoutWords(news, events[0]!)}`, counts);
      return;
    }
    const entries = this.desk.workingOrdersOf(account.id).filter((order) => {
      if (order.origin !== 'client' || (roots.length > 0 && !coversSymbol(roots, order.symbol))) return false;
      const net = this.positions.livePositionQuantity(account.id, order.symbol);
      return isEntry(order.side, order.quantity - order.filledQuantity, net);
    });
    for (const order of entries)
      this.desk.finish(order, { type: 'CANCEL', reason: 'news_blackout', occurredAtMs: this.ctx.clock.nowMs });
  }

  private reasonOf(flat: FlatTime): string {
    let reason = this.reasons.get(flat);
    if (reason === undefined) {
      reason = flatReason(flat);
      this.reasons.set(flat, reason);
    }
    return reason;
  }

  /** What a failure cancelled and sent, counted around it. */
  private countsOf(account: RiskAccount, act: () => void): FlattenCounts {
    const working = this.desk.workingOrdersOf(account.id);
    const clientBefore = working.filter((o) => o.origin === 'client').length;
    const riskBefore = new Set(working.filter((o) => o.origin === 'risk'));
    act();
    const sent = this.desk.workingOrdersOf(account.id).filter((o) => o.origin === 'risk' && !riskBefore.has(o));
    return { cancelledOrders: clientBefore, closingOrders: sent.length };
  }

  /**
   * `accounts.flattened` when the rule cancelled or sent something: the rule that acted, named. Its reason is built
   * only when the event is (a back-test keeps no events, and exchange-time words cost microseconds).
   */
  private published(account: RiskAccount, rule: string, reason: () => string, counts: FlattenCounts): void {
    if (counts.cancelledOrders === 0 && counts.closingOrders === 0) return;
    this.ctx.emit('accounts.flattened', () => ({
      account_id: account.id,
      rule,
      reason: reason(),
      cancelled_orders: counts.cancelledOrders,
      closing_orders: counts.closingOrders,
    }));
  }
}

declareSnapshot(TimedRules, {
  kept: ['due', 'positions', 'desk', 'risk'],
  skipped: ['ctx', 'flatTimes', 'reasons'],
});

/**
 * `the flat-by time 15:59 CT`, `the flat-by time 15:59 CT, at 11:59 CT before the 12:00 CT early close`, or `the weekend
 * flat at 15:59 CT, one minute before the 16:00 CT close`.
 */
function flatWords(flat: FlatTime): string {
  const clock = (ms: number) => chicagoIso(ms).slice(11, 16);
  const close = `${clock(flat.closeMs)} CT`;
  if (flat.rule === 'hold_over_weekend')
    return `the weekend flat at ${clock(flat.atMs)} CT, one minute before the ${close} close`;
  const flatBy = `the flat-by time ${flatByText(flat.flatByMinutes!)} CT`;
  return flat.early ? `${flatBy}, at ${clock(flat.atMs)} CT before the ${close} early close` : flatBy;
}

/** The lock's reason. */
function flatReason(flat: FlatTime): string {
  return `${flatWords(flat)} of trade date ${flat.tradeDate}: flat, and no new orders until the next session opens`;
}
