// The bodies of order placement, modify and the OCO routes as the API receives them
// (docs/order-lifecycle.md#placement-and-arrival). Their TypeBox schemas are the one definition the kernel and the
// HTTP layer validate with and the OpenAPI document shows. Only malformed input is refused here (400): a wrong
// type, a missing, unknown or forbidden field, a quantity below 1, a price that is not a decimal string.
// Everything that needs the market or the account (unknown instrument, price off the tick grid, market closed) is
// found after acceptance and ends the order REJECTED.
import { Type } from 'typebox';
import { refuseField } from '../outcome.js';
import { parseBody } from '../validation/request-body.js';
import { Id, Side } from '../shapes/common.js';
import { OrderTypeShape, TimeInForceShape } from '../shapes/order.js';
import type { OrderType, Side as OrderSide, TimeInForce } from './order-types.js';

/** A price as a client writes it: a decimal string with up to nine places ("5000.250" is on the grid). */
const PriceInput = Type.String({
  pattern: '^-?\\d+(\\.\\d{1,9})?$',
  description: 'a decimal string such as "5000.25"',
});
const Quantity = Type.Integer({ minimum: 1, maximum: 1_000_000 });

export const PlaceOrderBody = Type.Object(
  {
    account_id: Id,
    instrument_id: Type.String({ minLength: 1, maxLength: 32, description: 'a GLOBEX symbol such as "ESM6"' }),
    side: Side,
    type: OrderTypeShape,
    quantity: Quantity,
    limit_price: Type.Optional(PriceInput),
    stop_price: Type.Optional(PriceInput),
    time_in_force: Type.Optional(TimeInForceShape),
    client_order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const ModifyOrderBody = Type.Object(
  { quantity: Type.Optional(Quantity), limit_price: Type.Optional(PriceInput), stop_price: Type.Optional(PriceInput) },
  { additionalProperties: false },
);

export const LinkOcoBody = Type.Object(
  { order_ids: Type.Array(Id, { minItems: 2, maxItems: 20 }) },
  { additionalProperties: false },
);

export const OcoCompanionBody = Type.Object({ oco_group_id: Id, order_id: Id }, { additionalProperties: false });

export interface PlaceOrderRequest {
  accountId: string;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  quantity: number;
  limitPrice: string | undefined;
  stopPrice: string | undefined;
  tif: TimeInForce;
  clientOrderId?: string;
}

export interface ModifyOrderRequest {
  quantity?: number;
  limitPrice?: string;
  stopPrice?: string;
}

export function parsePlaceOrder(body: unknown): PlaceOrderRequest {
  const raw = parseBody(PlaceOrderBody, body);
  const type = raw.type;
  const needsLimit = type === 'limit' || type === 'stop_limit';
  const needsStop = type === 'stop' || type === 'stop_limit';
  if (needsLimit && raw.limit_price === undefined)
    refuseField('limit_price', `a decimal string for a ${type} order`, undefined);
  if (!needsLimit && raw.limit_price !== undefined)
    refuseField('limit_price', `nothing: a ${type} order has no limit price`, raw.limit_price);
  if (needsStop && raw.stop_price === undefined)
    refuseField('stop_price', `a decimal string for a ${type} order`, undefined);
  if (!needsStop && raw.stop_price !== undefined)
    refuseField('stop_price', `nothing: a ${type} order has no stop price`, raw.stop_price);
  return {
    accountId: raw.account_id,
    symbol: raw.instrument_id,
    side: raw.side,
    type,
    quantity: raw.quantity,
    limitPrice: raw.limit_price,
    stopPrice: raw.stop_price,
    tif: raw.time_in_force ?? 'day',
    ...(raw.client_order_id === undefined ? {} : { clientOrderId: raw.client_order_id }),
  };
}

export function parseModifyOrder(body: unknown): ModifyOrderRequest {
  const raw = parseBody(ModifyOrderBody, body);
  const request: ModifyOrderRequest = {};
  if (raw.quantity !== undefined) request.quantity = raw.quantity;
  if (raw.limit_price !== undefined) request.limitPrice = raw.limit_price;
  if (raw.stop_price !== undefined) request.stopPrice = raw.stop_price;
  if (Object.keys(request).length === 0) refuseField('body', 'at least one of quantity, limit_price, stop_price', raw);
  return request;
}

/** POST /v1/orders/groups/oco/link: the orders to link, each once. */
export function parseLinkOco(body: unknown): string[] {
  const { order_ids: ids } = parseBody(LinkOcoBody, body);
  const repeated = ids.findIndex((id, i) => ids.indexOf(id) !== i);
  if (repeated >= 0) refuseField(`order_ids[${repeated}]`, 'an order not already listed', ids[repeated]);
  return ids;
}

export function parseOcoCompanion(body: unknown): { groupId: string; orderId: string } {
  const raw = parseBody(OcoCompanionBody, body);
  return { groupId: raw.oco_group_id, orderId: raw.order_id };
}
