// What moves the kernel's time: the clock advanced to an instant, every timer due by then fired in order (venue
// arrivals, cancels, modifies, expiries, risk loads, timed rules) and the session rolls
// (docs/architecture.md#time-is-an-input, docs/risk-rules.md#session-rolls).
import { mondayOf } from '../calendar/dates.js';
import { CommandRefusal } from '../outcome.js';
import { declareSnapshot } from '../snapshot/snapshot-fields.js';
import type { AccountBook } from './accounts.js';
import type { KernelContext } from './context.js';
import type { KernelTimer } from './events.js';
import type { OrderDesk } from './write/order-desk.js';
import type { RiskDesk } from './risk/risk-desk.js';
import type { TimedRules } from './risk/timed-rules.js';

export class TimeKeeper {
  /** The trade date of the last roll: a roll into another week is the weekly one. */
  private lastRollTradeDate: string;
  /** The clock's handler, made once: every print moves the clock (ES private: wiring, not snapshot state). */
  readonly #onDue = (timer: KernelTimer): void => this.onTimer(timer);

  constructor(
    private readonly ctx: KernelContext,
    private readonly accounts: AccountBook,
    private readonly desk: OrderDesk,
    private readonly risk: RiskDesk,
    private readonly timedRules: TimedRules,
  ) {
    const { clock, calendar, rollFamily } = ctx;
    this.lastRollTradeDate = calendar.tradeDateOfFamily(clock.nowMs, rollFamily);
    this.scheduleNextRoll();
  }

  /** The `advance` command: moves time forward (409 `clock_backwards` when behind the clock). */
  advance(toMs: number): void {
    const nowMs = this.ctx.clock.nowMs;
    if (!Number.isSafeInteger(toMs))
      throw new CommandRefusal(400, 'invalid_request', `to_ms: expected integer Unix milliseconds, got ${toMs}`);
    if (toMs < nowMs)
      throw new CommandRefusal(
        409,
        'clock_backwards',
        `the clock does not go backwards: it is at ${nowMs}, asked for ${toMs}`,
      );
    this.advanceTo(toMs);
  }

  /** Moves the clock to `timeMs`, firing the timers due by then. */
  advanceTo(timeMs: number): void {
    this.ctx.clock.advanceTo(timeMs, this.#onDue);
  }

  private onTimer(timer: KernelTimer): void {
    if (timer.kind === 'session_roll') return this.rollSessions();
    if (timer.kind === 'timed_rules') return this.timedRules.fire();
    if (timer.kind === 'risk_loaded') {
      const account = this.accounts.get(timer.accountId);
      this.risk.send(account, {
        type: 'RISK_LOADED',
        loadStartedAtMs: timer.loadStartedAtMs,
        occurredAtMs: this.ctx.clock.nowMs,
      });
      return;
    }
    const order = this.desk.find(timer.orderId)!;
    switch (timer.kind) {
      case 'order_arrives':
        return this.desk.arrive(order);
      case 'cancel_arrives':
        return this.desk.cancelArrives(order);
      case 'modify_arrives':
        return this.desk.modifyArrives(order, timer.change);
      case 'order_expires':
        return this.desk.expire(order);
    }
  }

  /** The first instant of a new session; the weekly roll starts a week. */
  private rollSessions(): void {
    const { clock, calendar, rollFamily } = this.ctx;
    const tradeDate = calendar.tradeDateOfFamily(clock.nowMs, rollFamily);
    const weekly = mondayOf(tradeDate) !== mondayOf(this.lastRollTradeDate);
    this.lastRollTradeDate = tradeDate;
    this.ctx.emit('session.rolled', () => ({ trade_date: tradeDate, weekly }));
    this.risk.roll(weekly, tradeDate);
    this.scheduleNextRoll();
  }

  private scheduleNextRoll(): void {
    const { clock, calendar, rollFamily } = this.ctx;
    clock.schedule(calendar.nextSessionRollFamily(clock.nowMs, rollFamily), { kind: 'session_roll' });
  }
}

declareSnapshot(TimeKeeper, {
  kept: ['lastRollTradeDate', 'accounts', 'desk', 'risk', 'timedRules'],
  skipped: ['ctx'],
});
