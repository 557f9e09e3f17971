// The order machine run without an actor (docs/architecture.md#xstate-models-lifecycles-not-ticks). Orders are many
// and short-lived: an actor per order (its system, mailbox and snapshots) cost more than the rest of a placement
// and kept the heap large while orders rest. So the machine's own definition is compiled once, at start-up, into a
// table of (state, event) → candidate transitions, each with the machine's guard, target and `assign` actions,
// tried in the machine's order as XState tries them. The machine stays the only statement of the lifecycle: the
// compiler refuses anything it does not run the XState way (nested states, entry/exit or side-effect actions, eventless
// transitions), and test/core/orders/order-machine.test.ts checks that the table answers as an actor does for
// every state and event.
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

type Args = { context: OrderLifecycleContext; event: OrderLifecycleEvent };
type Guard = (args: Args) => boolean;
type Assignment = (args: Args) => Partial<OrderLifecycleContext>;

interface CompiledTransition {
  guard: Guard | undefined;
  /** The next status; a targetless transition stays where it is. */
  target: OrderStatus | undefined;
  assignments: readonly Assignment[];
}

type EventType = OrderLifecycleEvent['type'];
const TABLE = compile();

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
    if (transition.guard && !transition.guard({ context: state.context, event })) continue;
    let context = state.context;
    for (const assignment of transition.assignments) context = { ...context, ...assignment({ context, event }) };
    return { status: transition.target ?? state.status, context };
  }
  return undefined;
}

/** The machine's states and transitions as a lookup table, checked to be the flat, assign-only machine it runs. */
function compile(): Map<OrderStatus, Map<EventType, CompiledTransition[]>> {
  const { guards, actions } = orderMachine.implementations as unknown as {
    guards: Record<string, Guard>;
    actions: Record<string, { type?: string; assignment?: Assignment }>;
  };
  const refuse = (what: string): never => {
    throw new Error(`order-lifecycle.ts cannot run the order machine without an actor: ${what}`);
  };
  const table = new Map<OrderStatus, Map<EventType, CompiledTransition[]>>();
  for (const [status, node] of Object.entries(orderMachine.root.states)) {
    if (Object.keys(node.states).length > 0) refuse(`${status} has child states`);
    if (node.entry.length > 0 || node.exit.length > 0) refuse(`${status} has entry or exit actions`);
    if (node.always && node.always.length > 0) refuse(`${status} has eventless transitions`);
    const byEvent = new Map<EventType, CompiledTransition[]>();
    for (const [eventType, transitions] of Object.entries(node.on)) {
      byEvent.set(
        eventType as EventType,
        transitions.map((t) => {
          const guardName =
            t.guard === undefined ? undefined : typeof t.guard === 'string' ? t.guard : refuse('an inline guard');
          const guard =
            guardName === undefined ? undefined : (guards[guardName] ?? refuse(`unknown guard ${guardName}`));
          if (t.target && t.target.length !== 1) refuse(`${status} + ${eventType} has ${t.target.length} targets`);
          if (t.reenter) refuse(`${status} + ${eventType} re-enters its state`);
          const assignments = t.actions.map((name) => {
            const action = typeof name === 'string' ? actions[name] : refuse('an inline action');
            return action?.assignment ?? refuse(`${String(name)} is not an assign action`);
          });
          return { guard, target: t.target?.[0]?.key as OrderStatus | undefined, assignments };
        }),
      );
    }
    table.set(status as OrderStatus, byEvent);
  }
  return table;
}
