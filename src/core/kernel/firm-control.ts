// Firm-control operations on one account (docs/risk-rules.md#firm-controls-and-the-order-gate), each answering as the
// API will:
// a body, or a CommandRefusal with the status the interface names. Input is the request body as received:
// malformed values are 400s here, so a scenario step with expect_status: 400 tests this validation.
import { PRODUCT_FAMILIES, type ProductFamily } from '../instruments.js';
import { onAdjustment, reanchorDailyLoss, setDailyLossTrigger, setMaxDrawdownLimit } from '../accounts/floors.js';
import { DecimalInputError, formatCents, parseCents } from '../money.js';
import { CommandRefusal } from '../outcome.js';
import { accountAccepts, type AccountBook, type AdjustmentRecord, type RiskAccount } from './accounts.js';
import type { KernelContext } from './context.js';
import type { RiskDesk } from './risk-desk.js';
import { balanceObjectJson, riskStateJson } from './risk-json.js';

type Body = Record<string, unknown>;

function invalid(field: string, expected: string, got: unknown): never {
  throw new CommandRefusal(
    400,
    'invalid_request',
    `${field}: expected ${expected}, got ${JSON.stringify(got) ?? 'nothing'}`,
    { field },
  );
}

function fields(body: unknown, allowed: readonly string[]): Body {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) invalid('body', 'a JSON object', body);
  const unknown = Object.keys(body).find((k) => !allowed.includes(k));
  if (unknown !== undefined)
    invalid(unknown, `one of the fields ${allowed.join(', ') || '(none)'}`, 'an unknown field');
  return body as Body;
}

function reasonCode(value: unknown, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value === 'string' && value.length >= 1 && value.length <= 24) return value;
  return invalid('reason_code', 'a string of 1 to 24 characters', value);
}

function cents(value: unknown, field: string): number {
  try {
    return parseCents(value, field);
  } catch (error) {
    if (error instanceof DecimalInputError)
      return invalid(field, 'a decimal string with at most 2 places, like "49500.00"', value);
    throw error;
  }
}

function flag(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  return invalid(field, 'true or false', value);
}

export class FirmControl {
  constructor(
    private readonly ctx: KernelContext,
    private readonly accounts: AccountBook,
    private readonly risk: RiskDesk,
    private readonly riskLoadDelayMs: number,
  ) {}

  /** POST /v1/balances/{id}/daily-loss/trigger (setDailyLossTrigger). */
  setDailyLossTrigger(accountId: string, body: unknown): Body {
    const raw = fields(body, ['reason_code', 'daily_loss_limit_trigger']);
    const code = reasonCode(raw.reason_code, true)!;
    const triggerCents = cents(raw.daily_loss_limit_trigger, 'daily_loss_limit_trigger');
    const account = this.accounts.get(accountId);
    const changed = setDailyLossTrigger(account.floors, triggerCents);
    if (!changed) throw new CommandRefusal(409, 'no_daily_loss_limit', `account ${accountId} has no daily-loss limit`);
    this.changed(account);
    const response = {
      account_id: account.id,
      reason_code: code,
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
  reanchor(accountId: string, body: unknown): Body {
    const raw = fields(body, ['reason_code']);
    const code = reasonCode(raw.reason_code, true)!;
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
      reason_code: code,
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
  lockout(accountId: string, body: unknown): Body {
    const raw = fields(body, ['reason_code', 'flatten']);
    const code = reasonCode(raw.reason_code, false);
    const flatten = flag(raw.flatten, 'flatten', false);
    const account = this.accounts.get(accountId);
    if (account.status === 'closed') throw new CommandRefusal(409, 'account_closed', `account ${accountId} is closed`);
    const event = { type: 'LOCKOUT', reason: code ?? 'firm lockout', occurredAtMs: this.ctx.clock.nowMs } as const;
    const changed = this.risk.send(account, event).length > 0;
    const counts = flatten ? this.risk.cancelAndFlatten(account, 'firm_lockout') : undefined;
    return {
      ...this.lockJson(account),
      changed,
      ...(counts ? { cancelled_orders: counts.cancelledOrders, closing_orders: counts.closingOrders } : {}),
    };
  }

  /** DELETE /v1/accounts/{id}/lockout: removes firm_lockout only (409 without one); the risk engine reloads. */
  unlock(accountId: string): Body {
    const account = this.accounts.get(accountId);
    const event = { type: 'UNLOCK', reason: 'firm unlock', occurredAtMs: this.ctx.clock.nowMs } as const;
    if (!accountAccepts(account, event))
      throw new CommandRefusal(409, 'not_firm_locked', `account ${accountId} has no firm lockout to remove`);
    this.risk.send(account, event);
    this.scheduleRiskLoad(account);
    return this.lockJson(account);
  }

  /** The risk engine's loading window (docs/risk-rules.md#the-loading-window): RISK_LOADED after risk_load_delay_ms. */
  scheduleRiskLoad(account: RiskAccount): void {
    const loadStartedAtMs = account.actor.getSnapshot().context.riskLoadStartedAtMs;
    this.ctx.clock.schedule(this.ctx.clock.nowMs + this.riskLoadDelayMs, {
      kind: 'risk_loaded',
      accountId: account.id,
      loadStartedAtMs,
    });
  }

  flatten(accountId: string): Body {
    const account = this.accounts.get(accountId);
    const counts = this.risk.cancelAndFlatten(account, 'flatten');
    return { account_id: account.id, cancelled_orders: counts.cancelledOrders, closing_orders: counts.closingOrders };
  }

  cancelAll(accountId: string): Body {
    const account = this.accounts.get(accountId);
    return { account_id: account.id, cancelled_orders: this.risk.cancelAll(account, 'cancel_all') };
  }

  /** PATCH /v1/firm-control/accounts/{id}/max-loss-limit: the account's own profile is changed (409 on static). */
  setMaxLossLimit(accountId: string, body: unknown): Body {
    const raw = fields(body, ['max_drawdown_limit']);
    if (!('max_drawdown_limit' in raw))
      invalid('max_drawdown_limit', 'a decimal string of at least "0", or null to remove the cap', undefined);
    const limitCents = raw.max_drawdown_limit === null ? null : cents(raw.max_drawdown_limit, 'max_drawdown_limit');
    if (limitCents !== null && limitCents < 0)
      invalid('max_drawdown_limit', 'a decimal string of at least "0"', raw.max_drawdown_limit);
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
    return { item: riskStateJson(account, this.risk.equityCents(account)) };
  }

  /** POST /v1/balances/{id}/adjust: cash in or out, floors shifted with it unless shift_floors is false. */
  adjust(accountId: string, body: unknown): Body {
    const raw = fields(body, ['amount', 'reason_code', 'shift_floors']);
    const amountCents = cents(raw.amount, 'amount');
    if (amountCents === 0) invalid('amount', 'a non-zero decimal string', raw.amount);
    const code = reasonCode(raw.reason_code, false);
    const shift = flag(raw.shift_floors, 'shift_floors', true);
    const account = this.accounts.get(accountId);
    if (account.status === 'closed') throw new CommandRefusal(409, 'account_closed', `account ${accountId} is closed`);
    account.balanceCents += amountCents;
    account.adjustmentsCents += amountCents;
    onAdjustment(account.floors, amountCents, shift);
    const record = {
      adjustmentId: this.ctx.ids.nextUuid(),
      amountCents,
      reasonCode: code,
      shiftFloors: shift,
      balanceAfterCents: account.balanceCents,
      occurredAtMs: this.ctx.clock.nowMs,
    };
    account.adjustments.push(record);
    this.changed(account);
    const adjustment = adjustmentJson(account.id, record);
    this.ctx.emit('accounts.adjusted', () => adjustment);
    this.risk.mark(account);
    return { adjustment, balance: balanceObjectJson(account) };
  }

  adjustments(accountId: string): Body {
    const account = this.accounts.get(accountId);
    return { items: account.adjustments.map((r) => adjustmentJson(account.id, r)) };
  }

  /** user_risk_halt: new client orders of the account end REJECTED while it is set. */
  setUserRiskHalt(accountId: string, body: unknown): Body {
    const raw = fields(body, ['user_risk_halt']);
    if (typeof raw.user_risk_halt !== 'boolean') invalid('user_risk_halt', 'true or false', raw.user_risk_halt);
    const account = this.accounts.get(accountId);
    account.userRiskHalt = raw.user_risk_halt;
    this.changed(account);
    return { account_id: account.id, user_risk_halt: account.userRiskHalt };
  }

  /** PUT /v1/firm-control/offerings: enables or disables a product family for the firm's accounts. */
  setOffering(firmId: string, body: unknown): Body {
    const raw = fields(body, ['product_family', 'enabled']);
    if (!PRODUCT_FAMILIES.includes(raw.product_family as ProductFamily))
      invalid('product_family', `one of ${PRODUCT_FAMILIES.join(', ')}`, raw.product_family);
    const enabled = flag(raw.enabled, 'enabled', true);
    const family = raw.product_family as ProductFamily;
    let disabled = this.risk.disabledFamilies.get(firmId);
    if (!disabled) {
      disabled = new Set();
      this.risk.disabledFamilies.set(firmId, disabled);
    }
    if (enabled) disabled.delete(family);
    else disabled.add(family);
    return { firm_id: firmId, product_family: family, enabled };
  }

  riskState(accountId: string, ignoreLoading: boolean): Body {
    const account = this.accounts.get(accountId);
    if (!account.riskReady && !ignoreLoading)
      throw new CommandRefusal(
        503,
        'risk_engine_loading',
        `the risk engine is still loading account ${accountId}; retry shortly`,
      );
    return { item: riskStateJson(account, this.risk.equityCents(account)) };
  }

  private changed(account: RiskAccount): void {
    account.updatedAtMs = this.ctx.clock.nowMs;
    this.ctx.emit('balance.updated', () => balanceObjectJson(account));
  }

  private lockJson(account: RiskAccount): Body {
    const item = riskStateJson(account, this.risk.equityCents(account));
    return {
      account_id: account.id,
      is_locked: item.is_locked,
      lockout_reason: item.lockout_reason ?? null,
      account_status: account.status,
    };
  }
}

function adjustmentJson(accountId: string, r: AdjustmentRecord): Body {
  return {
    adjustment_id: r.adjustmentId,
    account_id: accountId,
    amount: formatCents(r.amountCents),
    reason_code: r.reasonCode ?? null,
    shift_floors: r.shiftFloors,
    balance_after: formatCents(r.balanceAfterCents),
    occurred_at: r.occurredAtMs,
  };
}
