// One-cancels-other groups: when any member fills, even partly, the venue cancels the others
// (docs/order-lifecycle.md#oco).
import type { Order } from './order-types.js';

export class OcoGroups {
  private readonly members = new Map<string, Order[]>();

  has(groupId: string): boolean {
    return this.members.has(groupId);
  }

  create(groupId: string, orders: readonly Order[]): void {
    this.members.set(groupId, [...orders]);
    for (const order of orders) order.ocoGroupId = groupId;
  }

  add(groupId: string, order: Order): void {
    this.members.get(groupId)?.push(order);
    order.ocoGroupId = groupId;
  }

  /** Whether any member has filled, even partly: the group has cancelled (or will cancel) the others. */
  hasFills(groupId: string): boolean {
    return (this.members.get(groupId) ?? []).some((o) => o.filledQuantity > 0);
  }

  orderIds(groupId: string): string[] {
    return (this.members.get(groupId) ?? []).map((o) => o.id);
  }

  accountOf(groupId: string): string | undefined {
    return this.members.get(groupId)?.[0]?.accountId;
  }

  /** The other members of the order's group that are not done yet. */
  workingSiblings(order: Order): readonly Order[] {
    if (order.ocoGroupId === undefined) return NONE;
    return (this.members.get(order.ocoGroupId) ?? NONE).filter((o) => o !== order && o.phase !== 'done');
  }
}

const NONE: readonly Order[] = [];
