// The order machine run without an actor (docs/architecture.md#xstate-models-lifecycles-not-ticks): orders are many
// and short-lived, and an actor per order (its system, mailbox and snapshots) cost more than the rest of a placement
// and kept the heap large while orders rest. The machine is flat, so its root is one region, compiled once into a
// table (machine-tables.ts); test/core/orders/order-machine.test.ts checks that the table answers as an actor does for
// every state and event.
import { compileRegion } from '../machine-tables.js';
import {
  orderMachine,
  type OrderLifecycleContext,
  type OrderLifecycleEvent,
  type OrderLifecycleInput,
  type OrderStatus,
} from './order.machine.js';

export interface OrderLifecycleState {
  status: OrderStatus;
  context: OrderLifecycleContext;
}

const TABLE = compileRegion<OrderLifecycleContext, OrderLifecycleEvent>(orderMachine, orderMachine.root);

export function initialOrderState(input: OrderLifecycleInput): OrderLifecycleState {
  const context = (orderMachine.config.context as (args: { input: OrderLifecycleInput }) => OrderLifecycleContext)({
    input,
  });
  return { status: orderMachine.config.initial as OrderStatus, context };
}

/** The state after `event`, or undefined when no transition takes it (a final order, an overfill). */
export function nextOrderState(
  state: OrderLifecycleState,
  event: OrderLifecycleEvent,
): OrderLifecycleState | undefined {
  const candidates = TABLE.get(state.status)?.get(event.type);
  if (!candidates) return undefined;
  for (const transition of candidates) {
    if (transition.guard && !transition.guard(state.context, event, undefined)) continue;
    let context = state.context;
    for (const assignment of transition.assignments) context = { ...context, ...assignment({ context, event }) };
    return { status: (transition.target as OrderStatus | undefined) ?? state.status, context };
  }
  return undefined;
}
