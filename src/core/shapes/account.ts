// An account's risk and cash as the API shows them (docs/api.md#shapes, docs/risk-rules.md#the-risk-state-item).
import { Type, type Static } from 'typebox';
import { Id, Money, TimeMs } from './common.js';

export const DrawdownModeShape = Type.Union([
  Type.Literal('static'),
  Type.Literal('realtime_balance'),
  Type.Literal('realtime_equity'),
  Type.Literal('eod_balance'),
]);
export const AccountStatusShape = Type.Union([
  Type.Literal('active'),
  Type.Literal('failed'),
  Type.Literal('passed'),
  Type.Literal('closed'),
]);
export const LockReasonShape = Type.Union([
  Type.Literal('max_loss_breach'),
  Type.Literal('daily_loss_breach'),
  Type.Literal('firm_lockout'),
  Type.Literal('evaluation_passed'),
  Type.Literal('account_replaced'),
  Type.Literal('evaluation_failed'),
  Type.Literal('flat_by'),
]);
/** The rule that failed an account (docs/risk-rules.md#statuses-and-locks): the names of failure-rules.ts, which
 * test/core/accounts/failure-rules.test.ts holds them to. */
export const FailedRuleShape = Type.Union([
  Type.Literal('max_loss_breach'),
  Type.Literal('daily_loss_failure'),
  Type.Literal('time_limit'),
  Type.Literal('flat_by_violation'),
  Type.Literal('news_violation'),
]);

/** The live risk state item: the interface's fields, plus the day and week figures and account_status. */
export const RiskStateShape = Type.Object(
  {
    account_id: Id,
    max_drawdown_mode: DrawdownModeShape,
    max_drawdown_value: Money,
    max_drawdown_limit: Type.Optional(Money),
    max_drawdown_lock_ceiling: Type.Optional(Money),
    starting_balance: Money,
    balance: Money,
    equity: Money,
    highest_realized_balance: Money,
    max_loss_limit_trigger: Money,
    daily_loss_limit_trigger: Type.Optional(Money),
    is_locked: Type.Boolean(),
    lockout_reason: Type.Optional(LockReasonShape),
    user_risk_halt: Type.Boolean(),
    updated_at: Type.String({ description: 'ISO 8601' }),
    start_of_day_balance: Money,
    realized_day_pnl: Money,
    realized_week_pnl: Money,
    account_status: AccountStatusShape,
    /** max_contracts or the scaling tier now, the smaller (docs/risk-rules.md#the-risk-state-item). */
    max_contracts_now: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Under a scaling plan: the trading profit at the last session roll, which picks the tier. */
    scaling_profit: Type.Optional(Money),
    failed_rule: Type.Optional(FailedRuleShape),
  },
  { additionalProperties: false },
);
export type RiskStateJson = Static<typeof RiskStateShape>;

export const RiskStateReadShape = Type.Object({ item: RiskStateShape }, { additionalProperties: false });

/** The balance object the daily-loss operations embed. */
export const BalanceObjectShape = Type.Object(
  {
    account_id: Id,
    balance: Money,
    start_of_day_balance: Money,
    realized_day_pnl: Money,
    daily_loss_limit_trigger: Type.Optional(Money),
    realized_week_pnl: Money,
  },
  { additionalProperties: false },
);
export type BalanceObjectJson = Static<typeof BalanceObjectShape>;

const { account_id: accountIdField, balance: balanceField, ...dayFigureFields } = BalanceObjectShape.properties;
/** GET /v1/balances/{id}: the balance object with equity and currency after the balance. */
export const BalanceShape = Type.Object(
  { account_id: accountIdField, balance: balanceField, equity: Money, currency: Type.String(), ...dayFigureFields },
  { additionalProperties: false },
);
export type BalanceJson = Static<typeof BalanceShape>;

/** An account as the firm's account list shows it: who it belongs to and the plan it was minted from. */
export const AccountRecordShape = Type.Object(
  {
    account_id: Id,
    user_id: Id,
    plan_reference: Type.String(),
    status: AccountStatusShape,
    idempotency_key: Type.Optional(Type.String()),
    price_paid: Money,
    created_at: TimeMs,
    replaces_account_id: Type.Optional(Id),
    replaced_by_account_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type AccountRecordJson = Static<typeof AccountRecordShape>;

export const ProvisionResultShape = Type.Object(
  { user_id: Id, account_ids: Type.Array(Id), accounts: Type.Array(RiskStateShape) },
  { additionalProperties: false },
);
export type ProvisionResultJson = Static<typeof ProvisionResultShape>;

export const ReplaceResultShape = Type.Object(
  { original_account_id: Id, account_id: Id },
  { additionalProperties: false },
);
export type ReplaceResultJson = Static<typeof ReplaceResultShape>;

export const AdjustmentShape = Type.Object(
  {
    adjustment_id: Id,
    account_id: Id,
    amount: Money,
    reason_code: Type.Optional(Type.String()),
    shift_floors: Type.Boolean(),
    balance: Money,
    occurred_at: TimeMs,
  },
  { additionalProperties: false },
);
export type AdjustmentJson = Static<typeof AdjustmentShape>;
