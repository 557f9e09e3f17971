// The request bodies of the firm-control operations (docs/risk-rules.md#firm-controls-and-the-order-gate): one
// TypeBox schema each, which the kernel validates with and the sandbox's OpenAPI document shows. A body arrives as
// received (a scenario step's or an HTTP request's), so both get the same 400 naming each bad field.
import { Type } from 'typebox';
import { MoneyInput, Nullable } from '../../shapes/common.js';
import { ProductFamilyShape } from '../../shapes/firm-control.js';

export const ReasonCode = Type.String({ minLength: 1, maxLength: 24, description: 'a string of 1 to 24 characters' });

export const DailyLossTriggerBody = Type.Object(
  { reason_code: ReasonCode, daily_loss_limit_trigger: MoneyInput },
  { additionalProperties: false },
);
export const ReanchorBody = Type.Object({ reason_code: ReasonCode }, { additionalProperties: false });
export const LockoutBody = Type.Object(
  { reason_code: Type.Optional(ReasonCode), flatten: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const MaxLossLimitBody = Type.Object(
  {
    max_drawdown_limit: Nullable(MoneyInput),
  },
  { additionalProperties: false },
);
export const AdjustBody = Type.Object(
  { amount: MoneyInput, reason_code: Type.Optional(ReasonCode), shift_floors: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const UserRiskHaltBody = Type.Object({ user_risk_halt: Type.Boolean() }, { additionalProperties: false });
export const OfferingBody = Type.Object(
  { product_family: ProductFamilyShape, enabled: Type.Boolean() },
  { additionalProperties: false },
);
