// The public order, its status records and OCO groups (docs/api.md#shapes, docs/order-lifecycle.md).
import { Type, type Static } from 'typebox';
import { Id, ItemsOf, Price, Side, TimeMs } from './common.js';

export const OrderTypeShape = Type.Union([
  Type.Literal('market'),
  Type.Literal('limit'),
  Type.Literal('stop'),
  Type.Literal('stop_limit'),
]);
export const TimeInForceShape = Type.Union([
  Type.Literal('day'),
  Type.Literal('gtc'),
  Type.Literal('ioc'),
  Type.Literal('fok'),
]);
export const OrderStatusShape = Type.Union([
  Type.Literal('SUBMITTED'),
  Type.Literal('PARTIALLY_FILLED'),
  Type.Literal('FILLED'),
  Type.Literal('CANCELLED'),
  Type.Literal('REJECTED'),
  Type.Literal('EXPIRED'),
]);

export const OrderShape = Type.Object(
  {
    order_id: Id,
    account_id: Id,
    instrument_id: Type.String(),
    side: Side,
    type: OrderTypeShape,
    quantity: Type.Integer({ minimum: 1 }),
    filled_quantity: Type.Integer({ minimum: 0 }),
    limit_price: Type.Optional(Price),
    stop_price: Type.Optional(Price),
    time_in_force: TimeInForceShape,
    status: OrderStatusShape,
    average_fill_price: Type.Optional(Price),
    oco_group_id: Type.Optional(Id),
    client_order_id: Type.Optional(Type.String()),
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
    origin: Type.Union([Type.Literal('client'), Type.Literal('risk')], {
      description: 'client, or risk for the orders the risk engine sends to flatten an account',
    }),
    created_at: TimeMs,
    updated_at: TimeMs,
  },
  { additionalProperties: false },
);
export type OrderJson = Static<typeof OrderShape>;

export const StatusRecordShape = Type.Object(
  { status: OrderStatusShape, reason: Type.Optional(Type.String()), occurred_at: TimeMs },
  { additionalProperties: false },
);
export type StatusRecordJson = Static<typeof StatusRecordShape>;

export const OrderStatesShape = ItemsOf(StatusRecordShape);

export const OcoGroupShape = Type.Object(
  { oco_group_id: Id, order_ids: Type.Array(Id) },
  { additionalProperties: false },
);
export type OcoGroupJson = Static<typeof OcoGroupShape>;
