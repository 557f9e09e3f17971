// Validation of order placement and modify bodies as the API receives them. Only malformed input is refused
// here (400): a wrong type, a missing or forbidden field, a quantity below 1, a price that is not a decimal
// string. Everything that needs the market or the account (unknown instrument, price off the tick grid,
// market closed) is found after acceptance and ends the order REJECTED
// (docs/order-lifecycle.md#placement-and-arrival).
import { DecimalInputError, parseDecimal } from '../money.js';
import { CommandRefusal } from '../outcome.js';
import { ORDER_TYPES, TIMES_IN_FORCE, type OrderType, type Side, type TimeInForce } from './order-types.js';

export interface PlaceOrderRequest {
  accountId: string;
  symbol: string;
  side: Side;
  type: OrderType;
  quantity: number;
  limitPrice: string | undefined;
  stopPrice: string | undefined;
  tif: TimeInForce;
}

export interface ModifyOrderRequest {
  quantity?: number;
  limitPrice?: string;
  stopPrice?: string;
}

const PLACE_FIELDS = [
  'account_id',
  'instrument_id',
  'side',
  'type',
  'quantity',
  'limit_price',
  'stop_price',
  'time_in_force',
];
const MODIFY_FIELDS = ['quantity', 'limit_price', 'stop_price'];
/** Prices may be written with more places than a tick needs ("5000.250"); nine is beyond any tick here. */
const PRICE_PLACES = 9;

function invalid(field: string, expected: string, got: unknown): never {
  throw new CommandRefusal(
    400,
    'invalid_request',
    `${field}: expected ${expected}, got ${JSON.stringify(got) ?? 'nothing'}`,
    { field },
  );
}

function record(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) invalid('body', 'a JSON object', body);
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) invalid(unknown[0]!, `one of the fields ${allowed.join(', ')}`, 'an unknown field');
  return body as Record<string, unknown>;
}

function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  return invalid(field, `one of ${allowed.join(', ')}`, value);
}

function quantity(value: unknown, field = 'quantity'): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
  return invalid(field, 'an integer of at least 1', value);
}

function price(value: unknown, field: string): string {
  try {
    parseDecimal(value, field, { maxPlaces: PRICE_PLACES });
    return value as string;
  } catch (error) {
    if (error instanceof DecimalInputError) return invalid(field, 'a decimal string such as "5000.25"', value);
    throw error;
  }
}

function nonEmptyString(value: unknown, field: string): string {
  if (typeof value === 'string' && value !== '') return value;
  return invalid(field, 'a non-empty string', value);
}

export function parsePlaceOrder(body: unknown): PlaceOrderRequest {
  const raw = record(body, PLACE_FIELDS);
  const type = oneOf(raw.type, 'type', ORDER_TYPES);
  const needsLimit = type === 'limit' || type === 'stop_limit';
  const needsStop = type === 'stop' || type === 'stop_limit';
  if (needsLimit && raw.limit_price === undefined)
    invalid('limit_price', `a decimal string for a ${type} order`, undefined);
  if (!needsLimit && raw.limit_price !== undefined)
    invalid('limit_price', `nothing: a ${type} order has no limit price`, raw.limit_price);
  if (needsStop && raw.stop_price === undefined)
    invalid('stop_price', `a decimal string for a ${type} order`, undefined);
  if (!needsStop && raw.stop_price !== undefined)
    invalid('stop_price', `nothing: a ${type} order has no stop price`, raw.stop_price);
  return {
    accountId: nonEmptyString(raw.account_id, 'account_id'),
    symbol: nonEmptyString(raw.instrument_id, 'instrument_id'),
    side: oneOf(raw.side, 'side', ['buy', 'sell'] as const),
    type,
    quantity: quantity(raw.quantity),
    limitPrice: needsLimit ? price(raw.limit_price, 'limit_price') : undefined,
    stopPrice: needsStop ? price(raw.stop_price, 'stop_price') : undefined,
    tif: raw.time_in_force === undefined ? 'day' : oneOf(raw.time_in_force, 'time_in_force', TIMES_IN_FORCE),
  };
}

export function parseModifyOrder(body: unknown): ModifyOrderRequest {
  const raw = record(body, MODIFY_FIELDS);
  const request: ModifyOrderRequest = {};
  if (raw.quantity !== undefined) request.quantity = quantity(raw.quantity);
  if (raw.limit_price !== undefined) request.limitPrice = price(raw.limit_price, 'limit_price');
  if (raw.stop_price !== undefined) request.stopPrice = price(raw.stop_price, 'stop_price');
  if (Object.keys(request).length === 0) invalid('body', `at least one of ${MODIFY_FIELDS.join(', ')}`, raw);
  return request;
}
