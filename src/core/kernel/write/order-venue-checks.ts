// What the venue refuses after it accepted an order (docs/order-lifecycle.md): an order that arrives (REJECTED with
// {code, message}) and a modify that arrives (MODIFY_REJECTED with its reason, the order unchanged).
import { OffTickGridError } from '../../money.js';
import type { ModifyOrderRequest } from '../../orders/order-request.js';
import type { Order, OrderError } from '../../orders/order-types.js';
import type { InstrumentSpec } from '../../instruments.js';
import { priceOf } from './order-prices.js';

/**
 * Account-level refusals at the venue (locked, failed, product disabled, position limit): the risk engine's hook.
 * `quantity` is the order's size to judge: a modify that grows an order asks with its new quantity.
 */
export type OrderGate = (order: Order, quantity?: number) => OrderError | undefined;

/** Prices to ticks for one instrument, throwing OffTickGridError off the grid. */
export type TicksOf = (spec: InstrumentSpec, price: string, field: string) => number;

/** Why an arriving order is refused, if it is; its prices in ticks are written on it as they are checked. */
export function refusalAtArrival(
  order: Order,
  marketOpen: boolean,
  ticks: TicksOf,
  gate: OrderGate,
): OrderError | undefined {
  const spec = order.spec;
  if (!spec) return { code: 'unknown_instrument', message: `instrument ${order.symbol} is not traded here` };
  try {
    if (order.limitPrice !== undefined) order.limitTicks = ticks(spec, order.limitPrice, 'limit_price');
    if (order.stopPrice !== undefined) order.stopTicks = ticks(spec, order.stopPrice, 'stop_price');
  } catch (error) {
    if (error instanceof OffTickGridError) return { code: 'invalid_price', message: error.message };
    throw error;
  }
  if ((order.tif === 'ioc' || order.tif === 'fok') && (order.type === 'stop' || order.type === 'stop_limit')) {
    return {
      code: 'invalid_order',
      message: `time_in_force ${order.tif} applies to market and limit orders, not ${order.type}`,
    };
  }
  // A risk engine's flatten order waits for the reopen instead: it must close the position eventually.
  if (!marketOpen && order.origin === 'client') {
    return { code: 'market_closed', message: `the ${order.symbol} market is closed` };
  }
  return gate(order);
}

/** Why the venue refuses a modify, or the new prices in ticks when it accepts. */
export function modifyRejection(
  order: Order,
  change: ModifyOrderRequest,
  lastPrintTicks: number | undefined,
  ticks: TicksOf,
  gate: OrderGate,
): string | { limitTicks?: number; stopTicks?: number } {
  const spec = order.spec;
  if (!spec) return `instrument ${order.symbol} is not traded here`;
  const filled = order.filledQuantity;
  if (change.quantity !== undefined && change.quantity <= filled)
    return `quantity ${change.quantity} is not above the filled quantity ${filled}`;
  if (change.quantity !== undefined && change.quantity > order.quantity) {
    // Growing an order is order entry: it meets the account gate again (docs/risk-rules.md#the-order-gate).
    const refused = gate(order, change.quantity);
    if (refused) return refused.message;
  }
  const hasLimit = order.type === 'limit' || order.type === 'stop_limit';
  const hasStop = (order.type === 'stop' || order.type === 'stop_limit') && !order.triggered;
  if (change.limitPrice !== undefined && !hasLimit) return `a ${order.type} order has no limit price`;
  if (change.stopPrice !== undefined && !hasStop)
    return order.triggered ? 'the stop has already triggered' : `a ${order.type} order has no stop price`;
  const result: { limitTicks?: number; stopTicks?: number } = {};
  try {
    if (change.limitPrice !== undefined) result.limitTicks = ticks(spec, change.limitPrice, 'limit_price');
    if (change.stopPrice !== undefined) result.stopTicks = ticks(spec, change.stopPrice, 'stop_price');
  } catch (error) {
    if (error instanceof OffTickGridError) return error.message;
    throw error;
  }
  const last = lastPrintTicks;
  if (result.stopTicks !== undefined && last !== undefined) {
    const through = order.side === 'buy' ? result.stopTicks <= last : result.stopTicks >= last;
    if (through)
      return `stop_price ${change.stopPrice} is at or through the market (last print ${priceOf(spec, last)})`;
  }
  return result;
}

/** A modify as its status record's reason names it. */
export function describeChange(change: ModifyOrderRequest): string {
  const parts: string[] = [];
  if (change.quantity !== undefined) parts.push(`quantity ${change.quantity}`);
  if (change.limitPrice !== undefined) parts.push(`limit_price ${change.limitPrice}`);
  if (change.stopPrice !== undefined) parts.push(`stop_price ${change.stopPrice}`);
  return parts.join(', ');
}
