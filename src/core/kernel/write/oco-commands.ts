// The OCO commands (docs/order-lifecycle.md): linking working orders of one account into a group, and adding a
// companion to a group, each refused while a member has fills (the group has done its work by then).
import { CommandRefusal, refuseField } from '../../outcome.js';
import type { OcoGroups } from '../../orders/oco.js';
import { TERMINAL_STATUSES } from '../../orders/order.machine.js';
import { parseLinkOco, parseOcoCompanion } from '../../orders/order-request.js';
import type { Order } from '../../orders/order-types.js';

/** What the OCO commands need of the order desk. */
export interface OcoDesk {
  readonly oco: OcoGroups;
  get(orderId: string): Order;
}

/** POST /v1/orders/groups/oco/link: links the orders under `groupId` (a new id). */
export function linkOco(desk: OcoDesk, body: unknown, newGroupId: () => string): string {
  const orderIds = parseLinkOco(body);
  const orders = orderIds.map((id) => desk.get(id));
  for (const order of orders) checkOcoMember(order, orders[0]!.accountId);
  const filled = orders.find((o) => o.filledQuantity > 0);
  if (filled)
    throw new CommandRefusal(
      409,
      'oco_member_filled',
      `order ${filled.id} has fills: an OCO group is linked before any member fills`,
    );
  const groupId = newGroupId();
  desk.oco.create(groupId, orders);
  return groupId;
}

/** POST /v1/orders/groups/oco/companion: answers the group's id. */
export function addOcoCompanion(desk: OcoDesk, body: unknown): string {
  const { groupId, orderId } = parseOcoCompanion(body);
  const accountId = desk.oco.accountOf(groupId);
  if (accountId === undefined) throw new CommandRefusal(404, 'oco_group_not_found', `OCO group ${groupId} is unknown`);
  const order = desk.get(orderId);
  checkOcoMember(order, accountId);
  if (order.filledQuantity > 0 || desk.oco.hasFills(groupId)) {
    throw new CommandRefusal(
      409,
      'oco_member_filled',
      `OCO group ${groupId} or order ${orderId} already has fills: the group has done its work`,
    );
  }
  desk.oco.add(groupId, order);
  return groupId;
}

function checkOcoMember(order: Order, accountId: string): void {
  if (order.origin === 'risk')
    throw new CommandRefusal(
      409,
      'risk_order',
      `order ${order.id} was sent by the risk engine and cannot join an OCO group`,
    );
  const status = order.status;
  if (TERMINAL_STATUSES.has(status))
    throw new CommandRefusal(409, 'order_final', `order ${order.id} is ${status} and cannot join an OCO group`);
  if (order.ocoGroupId !== undefined)
    throw new CommandRefusal(409, 'oco_conflict', `order ${order.id} is already in OCO group ${order.ocoGroupId}`);
  if (order.accountId !== accountId) refuseField('order_ids', `orders of one account (${accountId})`, order.id);
}
