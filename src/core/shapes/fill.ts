// Fills, trades and their FIFO lots as the API shows them (docs/api.md#shapes,
// docs/order-lifecycle.md#positions-trades-and-lots).
import { Type, type Static } from 'typebox';
import { Id, Money, Price, Side, TimeMs, TradeDate } from './common.js';

export const FillShape = Type.Object(
  {
    execution_id: Id,
    order_id: Type.Optional(Id),
    account_id: Id,
    instrument_id: Type.String(),
    side: Side,
    quantity: Type.Integer({ minimum: 1 }),
    price: Price,
    commission: Money,
    realized_pnl: Money,
    trade_id: Id,
    occurred_at: TimeMs,
    trade_date: TradeDate,
  },
  { additionalProperties: false },
);
export type FillJson = Static<typeof FillShape>;

export const TradeShape = Type.Object(
  {
    trade_id: Id,
    account_id: Id,
    instrument_id: Type.String(),
    direction: Type.Union([Type.Literal('long'), Type.Literal('short')]),
    quantity: Type.Integer({ minimum: 1, description: 'the largest position held during the trade' }),
    opened_at: TimeMs,
    closed_at: Type.Optional(TimeMs),
    realized_pnl: Money,
    status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  },
  { additionalProperties: false },
);
export type TradeJson = Static<typeof TradeShape>;

export const LotShape = Type.Object(
  {
    quantity: Type.Integer({ minimum: 1 }),
    open_execution_id: Id,
    open_price: Price,
    opened_at: TimeMs,
    close_execution_id: Id,
    close_price: Price,
    closed_at: TimeMs,
    realized_pnl: Money,
  },
  { additionalProperties: false },
);
export type LotJson = Static<typeof LotShape>;

export const TradeLotsShape = Type.Object(
  { trade_id: Id, lots: Type.Array(LotShape) },
  { additionalProperties: false },
);
export type TradeLotsJson = Static<typeof TradeLotsShape>;
