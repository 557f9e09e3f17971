// The order machine run without an actor (docs/architecture.md#xstate-models-lifecycles-not-ticks): orders are many
// and short-lived, and an actor per order (its system, mailbox and snapshots) cost more than the rest of a placement
// and kept the heap large while orders rest. The machine is compiled once into a table through XState's pure
// functions (machine-tables.ts); test/core/orders/order-machine.test.ts checks that the table answers as an actor
// does for every state and event.
import { assignedContext, chooseTransition, compileMachine } from '../machine-tables.js';
import {
  initialOrderContext,
  orderAssignments,
  orderGuards,
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

const EVENT_TYPES = {
  FILL: true,
  CANCEL: true,
  EXPIRE: true,
  REJECT: true,
  MODIFY_ACCEPTED: true,
  MODIFY_REJECTED: true,
} satisfies Record<OrderLifecycleEvent['type'], true>;

const TABLE = compileMachine<OrderLifecycleContext, OrderLifecycleEvent, OrderStatus>(
  orderMachine,
  { guards: orderGuards, assignments: orderAssignments },
  Object.keys(EVENT_TYPES) as OrderLifecycleEvent['type'][],
  { quantity: 1, occurredAtMs: 0 } satisfies OrderLifecycleInput,
);

export function initialOrderState(input: OrderLifecycleInput): OrderLifecycleState {
  return { status: TABLE.initialValue, context: initialOrderContext(input) };
}

/** The state after `event`, or undefined when no transition takes it (a final order, an overfill). */
export function nextOrderState(
  state: OrderLifecycleState,
  event: OrderLifecycleEvent,
): OrderLifecycleState | undefined {
  const taken = chooseTransition(TABLE, state.status, state.context, event);
  if (!taken) return undefined;
  return { status: taken.value, context: assignedContext(taken, state.context, event) };
}
