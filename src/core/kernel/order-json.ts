// The public JSON of an order (GET /v1/orders/{id}) and of its status history.
import { TERMINAL_STATUSES as TERMINAL } from '../orders/order.machine.js';
import type { Order } from '../orders/order-types.js';
import { formatAveragePrice, pricingOf } from '../positions/instrument-pricing.js';

export function orderJson(order: Order): Record<string, unknown> {
  const status = order.status;
  const { quantity, filledQuantity, history } = order;
  return {
    order_id: order.id,
    account_id: order.accountId,
    instrument_id: order.symbol,
    side: order.side,
    type: order.type,
    time_in_force: order.tif,
    quantity,
    filled_quantity: filledQuantity,
    remaining_quantity: TERMINAL.has(status) ? 0 : quantity - filledQuantity,
    limit_price: order.limitPrice ?? null,
    stop_price: order.stopPrice ?? null,
    average_fill_price:
      filledQuantity > 0 && order.spec
        ? formatAveragePrice(pricingOf(order.symbol), order.filledNotionalTicks, filledQuantity)
        : null,
    status,
    error: order.error ?? null,
    origin: order.origin,
    oco_group_id: order.ocoGroupId ?? null,
    created_at: order.createdAtMs,
    updated_at: history[history.length - 1]!.occurredAtMs,
  };
}

export function orderStatesJson(order: Order): Array<Record<string, unknown>> {
  return order.history.map((r) => ({ status: r.status, reason: r.reason, occurred_at: r.occurredAtMs }));
}
