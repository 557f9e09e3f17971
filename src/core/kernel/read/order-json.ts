// The public JSON of an order (GET /v1/orders/{id}) and of its status history (docs/api.md#shapes): fields that do
// not apply are left out, never null.
import { TERMINAL_STATUSES } from '../../orders/order.machine.js';
import type { Order } from '../../orders/order-types.js';
import { lastStatusRecord, statusRecords } from '../../orders/status-log.js';
import { formatAveragePrice, pricingOf } from '../../positions/instrument-pricing.js';
import type { OrderJson, StatusRecordJson } from '../../shapes/order.js';

export function orderJson(order: Order): OrderJson {
  const { quantity, filledQuantity, history } = order;
  return {
    order_id: order.id,
    account_id: order.accountId,
    instrument_id: order.symbol,
    side: order.side,
    type: order.type,
    quantity,
    filled_quantity: filledQuantity,
    ...(order.limitPrice === undefined ? {} : { limit_price: order.limitPrice }),
    ...(order.stopPrice === undefined ? {} : { stop_price: order.stopPrice }),
    time_in_force: order.tif,
    status: order.status,
    ...(filledQuantity > 0 && order.spec
      ? {
          average_fill_price: formatAveragePrice(pricingOf(order.symbol), order.filledNotionalTicks, filledQuantity),
        }
      : {}),
    ...(order.ocoGroupId === undefined ? {} : { oco_group_id: order.ocoGroupId }),
    ...(order.clientOrderId === undefined ? {} : { client_order_id: order.clientOrderId }),
    ...(order.error === undefined ? {} : { error: order.error }),
    origin: order.origin,
    created_at: order.createdAtMs,
    updated_at: lastStatusRecord(history).occurredAtMs,
  };
}

export function orderStatesJson(order: Order): StatusRecordJson[] {
  return statusRecords(order.history).map((r) => ({ status: r.status, reason: r.reason, occurred_at: r.occurredAtMs }));
}

/** Whether the order can still change (not FILLED, CANCELLED, REJECTED or EXPIRED). */
export function isOpenOrder(order: Order): boolean {
  return !TERMINAL_STATUSES.has(order.status);
}
