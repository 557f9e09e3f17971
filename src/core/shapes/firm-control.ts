// Answers of the firm-control operations (docs/api.md#shapes, docs/risk-rules.md#firm-controls-and-the-order-gate).
import { Type, type Static } from 'typebox';
import { BalanceObjectShape } from './account.js';
import { Id, Money } from './common.js';

export const DailyLossTriggerResultShape = Type.Object(
  {
    account_id: Id,
    reason_code: Type.String(),
    previous_daily_loss_limit_trigger: Money,
    daily_loss_limit_trigger: Money,
    start_of_day_balance: Money,
    realized_day_pnl: Money,
    balance: BalanceObjectShape,
  },
  { additionalProperties: false },
);
export type DailyLossTriggerResultJson = Static<typeof DailyLossTriggerResultShape>;

export const ReanchorResultShape = Type.Object(
  {
    account_id: Id,
    reason_code: Type.String(),
    daily_loss_value: Money,
    previous_start_of_day_balance: Money,
    previous_daily_loss_limit_trigger: Money,
    start_of_day_balance: Money,
    daily_loss_limit_trigger: Money,
    balance: BalanceObjectShape,
  },
  { additionalProperties: false },
);
export type ReanchorResultJson = Static<typeof ReanchorResultShape>;

export const FlattenResultShape = Type.Object(
  {
    account_id: Id,
    cancelled_orders: Type.Integer({ minimum: 0 }),
    closed_positions: Type.Integer({ minimum: 0, description: 'offsetting market orders sent' }),
  },
  { additionalProperties: false },
);
export type FlattenResultJson = Static<typeof FlattenResultShape>;

export const CancelAllResultShape = Type.Object(
  { account_id: Id, cancelled_orders: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export type CancelAllResultJson = Static<typeof CancelAllResultShape>;

export const ProductFamilyShape = Type.Union([
  Type.Literal('equity_index'),
  Type.Literal('interest_rates'),
  Type.Literal('fx'),
  Type.Literal('energy'),
  Type.Literal('metals'),
]);

export const OfferingsShape = Type.Object(
  {
    offerings: Type.Array(
      Type.Object({ product_family: ProductFamilyShape, enabled: Type.Boolean() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type OfferingsJson = Static<typeof OfferingsShape>;

export const StaffRoleAssignedShape = Type.Object(
  { status: Type.Literal('ok'), role_id: Id },
  { additionalProperties: false },
);
export const StaffRoleRemovedShape = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });
