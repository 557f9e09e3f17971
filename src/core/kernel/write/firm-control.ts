// Firm-control operations on one account (docs/risk-rules.md#firm-controls-and-the-order-gate), each answering in the
// API's shapes (docs/api.md#shapes) or with a CommandRefusal carrying the status the interface names. Bodies arrive
// as received and are read through their schemas (firm-control-bodies.ts), so a scenario step with
// expect_status: 400 tests the same validation an HTTP request meets.
import { PRODUCT_FAMILIES } from '../../instruments.js';
import { onAdjustment, reanchorDailyLoss, setDailyLossTrigger, setMaxDrawdownLimit } from '../../accounts/floors.js';
import { formatCents, parseCents } from '../../money.js';
import { CommandRefusal, refuseField } from '../../outcome.js';
import { parseBody } from '../../validation/request-body.js';
import type { AdjustmentJson, RiskStateJson } from '../../shapes/account.js';
import type {
  CancelAllResultJson,
  DailyLossTriggerResultJson,
  FlattenResultJson,
  OfferingsJson,
  ReanchorResultJson,
} from '../../shapes/firm-control.js';
import { accountAccepts, type AccountBook, type AdjustmentRecord, type RiskAccount } from '../accounts.js';
import type { KernelContext } from '../context.js';
import {
  AdjustBody,
  DailyLossTriggerBody,
  LockoutBody,
  MaxLossLimitBody,
  OfferingBody,
  ReanchorBody,
  UserRiskHaltBody,
} from './firm-control-bodies.js';
import type { RiskDesk } from '../risk/risk-desk.js';
import { balanceObjectJson, riskStateJson } from '../read/risk-json.js';
import { declareSnapshot } from '../../snapshot/snapshot-fields.js';

export class FirmControl {
  constructor(
    private readonly ctx: KernelContext,
    private readonly accounts: AccountBook,
    private readonly risk: RiskDesk,
    private readonly riskLoadDelayMs: number,
  ) {}

  /** POST /v1/balances/{id}/daily-loss/trigger (setDailyLossTrigger). */
  setDailyLossTrigger(accountId: string, body: unknown): DailyLossTriggerResultJson {
    const raw = parseBody(DailyLossTriggerBody, body);
    const triggerCents = parseCents(raw.daily_loss_limit_trigger, 'daily_loss_limit_trigger');
    const account = this.accounts.get(accountId);
    const changed = setDailyLossTrigger(account.floors, triggerCents);
    if (!changed) throw new CommandRefusal(409, 'no_daily_loss_limit', `account ${accountId} has no daily-loss limit`);
    this.changed(account);
    const response = {
      account_id: account.id,
      reason_code: raw.reason_code,
      previous_daily_loss_limit_trigger: formatCents(changed.previousCents),
      daily_loss_limit_trigger: formatCents(triggerCents),
      start_of_day_balance: formatCents(account.floors.startOfDayBalanceCents),
      realized_day_pnl: formatCents(account.realizedDayCents),
      balance: balanceObjectJson(account),
    };
    this.risk.mark(account); // a trigger raised above equity breaches here, at the same instant
    return response;
  }

  /** POST /v1/balances/{id}/daily-loss/reanchor (reanchorDailyLoss). */
  reanchor(accountId: string, body: unknown): ReanchorResultJson {
    const raw = parseBody(ReanchorBody, body);
    const account = this.accounts.get(accountId);
    const done = reanchorDailyLoss(account.floors, account.balanceCents);
    if (!done)
      throw new CommandRefusal(
        409,
        'no_daily_loss_allowance',
        `account ${accountId} has no daily-loss trigger with a positive allowance to preserve`,
      );
    account.realizedDayCents = 0;
    this.changed(account);
    const response = {
      account_id: account.id,
      reason_code: raw.reason_code,
      daily_loss_value: formatCents(done.allowanceCents),
      previous_start_of_day_balance: formatCents(done.previousStartOfDayBalanceCents),
      previous_daily_loss_limit_trigger: formatCents(done.previousDailyLossTriggerCents),
      start_of_day_balance: formatCents(account.floors.startOfDayBalanceCents),
      daily_loss_limit_trigger: formatCents(account.floors.dailyLossTriggerCents!),
      balance: balanceObjectJson(account),
    };
    this.risk.mark(account);
    return response;
  }

  /** POST /v1/accounts/{id}/lockout: adds firm_lockout (200 unchanged when present); may flatten. */
  lockout(accountId: string, body: unknown): RiskStateJson {
    const raw = parseBody(LockoutBody, body, true);
    const account = this.accounts.get(accountId);
    if (account.status === 'closed') throw new CommandRefusal(409, 'account_closed', `account ${accountId} is closed`);
    const reason = raw.reason_code ?? 'firm lockout';
    this.risk.send(account, { type: 'LOCKOUT', reason, occurredAtMs: this.ctx.clock.nowMs });
    if (raw.flatten === true) this.risk.cancelAndFlatten(account, 'firm_lockout');
    return this.item(account);
  }

  /** DELETE /v1/accounts/{id}/lockout: removes firm_lockout only (409 without one); the risk engine reloads. */
  unlock(accountId: string): RiskStateJson {
    const account = this.accounts.get(accountId);
    const event = { type: 'UNLOCK', reason: 'firm unlock', occurredAtMs: this.ctx.clock.nowMs } as const;
    if (!accountAccepts(account, event))
      throw new CommandRefusal(409, 'not_firm_locked', `account ${accountId} has no firm lockout to remove`);
    this.risk.send(account, event);
    this.scheduleRiskLoad(account);
    return this.item(account);
  }

  /** The risk engine's loading window (docs/risk-rules.md#the-loading-window): RISK_LOADED after risk_load_delay_ms. */
  scheduleRiskLoad(account: RiskAccount): void {
    const loadStartedAtMs = account.lifecycle.context.riskLoadStartedAtMs;
    this.ctx.clock.schedule(this.ctx.clock.nowMs + this.riskLoadDelayMs, {
      kind: 'risk_loaded',
      accountId: account.id,
      loadStartedAtMs,
    });
  }

  /** POST /v1/accounts/{id}/flatten: cancels working orders, then sends offsetting market orders. */
  flatten(accountId: string): FlattenResultJson {
    const account = this.accounts.get(accountId);
    const counts = this.risk.cancelAndFlatten(account, 'flatten');
    return { account_id: account.id, cancelled_orders: counts.cancelledOrders, closed_positions: counts.closingOrders };
  }

  /** POST /v1/accounts/{id}/orders/cancel. */
  cancelAll(accountId: string): CancelAllResultJson {
    const account = this.accounts.get(accountId);
    return { account_id: account.id, cancelled_orders: this.risk.cancelAll(account, 'cancel_all') };
  }

  /** PATCH /v1/firm-control/accounts/{id}/max-loss-limit: the account's own profile is changed (409 on static). */
  setMaxLossLimit(accountId: string, body: unknown): RiskStateJson {
    const raw = parseBody(MaxLossLimitBody, body);
    const limit = raw.max_drawdown_limit;
    const limitCents = limit === null ? null : parseCents(limit, 'max_drawdown_limit');
    if (limitCents !== null && limitCents < 0)
      refuseField('max_drawdown_limit', 'a decimal string of at least "0", or null to remove the cap', limit);
    const account = this.accounts.get(accountId);
    if (!setMaxDrawdownLimit(account.floors, limitCents))
      throw new CommandRefusal(
        409,
        'static_drawdown',
        `account ${accountId} has a static drawdown: it has no trailing cap`,
      );
    // Clone before the write: a profile shared with other accounts on the plan is never touched.
    const riskProfile = { ...account.plan.riskProfile };
    if (limitCents === null) delete (riskProfile as { maxDrawdownLimitCents?: number }).maxDrawdownLimitCents;
    else (riskProfile as { maxDrawdownLimitCents?: number }).maxDrawdownLimitCents = limitCents;
    account.plan = { ...account.plan, riskProfile };
    this.changed(account);
    this.risk.mark(account);
    return this.item(account);
  }

  /** POST /v1/balances/{id}/adjust: cash in or out, floors shifted with it unless shift_floors is false. */
  adjust(accountId: string, body: unknown): AdjustmentJson {
    const raw = parseBody(AdjustBody, body);
    const amountCents = parseCents(raw.amount, 'amount');
    if (amountCents === 0) refuseField('amount', 'a non-zero decimal string', raw.amount);
    const shift = raw.shift_floors ?? true;
    const account = this.accounts.get(accountId);
    if (account.status === 'closed') throw new CommandRefusal(409, 'account_closed', `account ${accountId} is closed`);
    account.balanceCents += amountCents;
    account.adjustmentsCents += amountCents;
    onAdjustment(account.floors, amountCents, shift);
    const record: AdjustmentRecord = {
      adjustmentId: this.ctx.ids.nextUuid(),
      amountCents,
      reasonCode: raw.reason_code,
      shiftFloors: shift,
      balanceAfterCents: account.balanceCents,
      occurredAtMs: this.ctx.clock.nowMs,
    };
    account.adjustments.push(record);
    this.changed(account);
    const adjustment = adjustmentJson(account.id, record);
    this.ctx.emit('accounts.adjusted', () => adjustment);
    this.risk.mark(account);
    return adjustment;
  }

  /** user_risk_halt: new client orders of the account end REJECTED while it is set. */
  setUserRiskHalt(accountId: string, body: unknown): RiskStateJson {
    const raw = parseBody(UserRiskHaltBody, body);
    const account = this.accounts.get(accountId);
    account.userRiskHalt = raw.user_risk_halt;
    this.changed(account);
    return this.item(account);
  }

  /** PUT /v1/firm-control/offerings: enables or disables a product family for the firm's accounts. */
  setOffering(firmId: string, body: unknown): OfferingsJson {
    const raw = parseBody(OfferingBody, body);
    let disabled = this.risk.disabledFamilies.get(firmId);
    if (!disabled) {
      disabled = new Set();
      this.risk.disabledFamilies.set(firmId, disabled);
    }
    if (raw.enabled) disabled.delete(raw.product_family);
    else disabled.add(raw.product_family);
    return this.offerings(firmId);
  }

  /** Every product family and whether the firm offers it. */
  offerings(firmId: string): OfferingsJson {
    const disabled = this.risk.disabledFamilies.get(firmId);
    return {
      offerings: PRODUCT_FAMILIES.map((family) => ({ product_family: family, enabled: !disabled?.has(family) })),
    };
  }

  private item(account: RiskAccount): RiskStateJson {
    return riskStateJson(account, this.risk.equityCents(account));
  }

  private changed(account: RiskAccount): void {
    account.updatedAtMs = this.ctx.clock.nowMs;
    this.ctx.emit('balance.updated', () => balanceObjectJson(account));
  }
}

declareSnapshot(FirmControl, {
  kept: ['accounts', 'risk', 'riskLoadDelayMs'],
  skipped: ['ctx'],
});

export function adjustmentJson(accountId: string, r: AdjustmentRecord): AdjustmentJson {
  return {
    adjustment_id: r.adjustmentId,
    account_id: accountId,
    amount: formatCents(r.amountCents),
    ...(r.reasonCode === undefined ? {} : { reason_code: r.reasonCode }),
    shift_floors: r.shiftFloors,
    balance: formatCents(r.balanceAfterCents),
    occurred_at: r.occurredAtMs,
  };
}
