// Positions and daily position records (docs/api.md#shapes, docs/order-lifecycle.md#daily-position-records).
import { Type, type Static } from 'typebox';
import { Id, Money, Price, TimeMs, TradeDate } from './common.js';

export const PositionShape = Type.Object(
  {
    account_id: Id,
    instrument_id: Type.String(),
    net_quantity: Type.Integer({ description: 'signed: long > 0, short < 0, flat 0' }),
    average_price: Type.Optional(Price),
    realized_pnl: Money,
    unrealized_pnl: Money,
    updated_at: TimeMs,
  },
  { additionalProperties: false },
);
export type PositionJson = Static<typeof PositionShape>;

export const DailyPositionShape = Type.Object(
  {
    trade_date: TradeDate,
    instrument_id: Type.String(),
    net_quantity: Type.Integer(),
    average_price: Type.Optional(Price),
    realized_pnl: Money,
    unrealized_pnl: Money,
  },
  { additionalProperties: false },
);
export type DailyPositionJson = Static<typeof DailyPositionShape>;
