// The order lifecycle (docs/order-lifecycle.md#statuses-and-transitions) as an XState v5 machine.
// The machine decides statuses only; prices, books and fills are the venue's. Time arrives inside events
// (occurredAtMs), never through XState delays. Every accepted event appends a status record; terminal states
// accept nothing. The full (state, event) table is in docs/order-lifecycle.md.
import { assign, setup } from 'xstate';
import type { OrderStatus } from './order-status.js';
import { appendStatus, startStatusLog, type StatusLog } from './status-log.js';

export { TERMINAL_STATUSES, type OrderStatus } from './order-status.js';

export interface OrderLifecycleContext {
  quantity: number;
  filledQuantity: number;
  /** Its status records (status-log.ts). */
  history: StatusLog;
}

export type OrderLifecycleEvent =
  | { type: 'FILL'; quantity: number; occurredAtMs: number }
  | { type: 'CANCEL'; reason: string; occurredAtMs: number }
  | { type: 'EXPIRE'; reason: string; occurredAtMs: number }
  | { type: 'REJECT'; reason: string; occurredAtMs: number }
  | { type: 'MODIFY_ACCEPTED'; quantity: number; reason: string; occurredAtMs: number }
  | { type: 'MODIFY_REJECTED'; reason: string; occurredAtMs: number };

export interface OrderLifecycleInput {
  quantity: number;
  occurredAtMs: number;
}

function record(context: OrderLifecycleContext, status: OrderStatus, reason: string, occurredAtMs: number): StatusLog {
  return appendStatus(context.history, status, reason, occurredAtMs);
}

const WORKING_TRANSITIONS = {
  FILL: [
    { guard: 'fillCompletes', target: 'FILLED', actions: 'applyFill' },
    { guard: 'fillFits', target: 'PARTIALLY_FILLED', actions: 'applyFill' },
  ],
  CANCEL: { target: 'CANCELLED', actions: 'recordCancel' },
  EXPIRE: { target: 'EXPIRED', actions: 'recordExpiry' },
  MODIFY_ACCEPTED: { guard: 'quantityAboveFilled', actions: 'applyModify' },
  MODIFY_REJECTED: { actions: 'recordModifyRejected' },
} as const;

type Args = { context: OrderLifecycleContext; event: OrderLifecycleEvent };

/** The machine's guards, named as its transitions name them; order-lifecycle.ts runs them without an actor. */
export const orderGuards = {
  /** The fill takes the order exactly to its full quantity. */
  fillCompletes: ({ context, event }: Args) =>
    event.type === 'FILL' && event.quantity >= 1 && context.filledQuantity + event.quantity === context.quantity,
  /** A fill of at least one contract that leaves some quantity open; an overfill matches neither guard. */
  fillFits: ({ context, event }: Args) =>
    event.type === 'FILL' && event.quantity >= 1 && context.filledQuantity + event.quantity < context.quantity,
  /** A new quantity must stay above what is already filled. */
  quantityAboveFilled: ({ context, event }: Args) =>
    event.type === 'MODIFY_ACCEPTED' && event.quantity > context.filledQuantity,
};

/** The machine's assign actions, as the assignments given to `assign`. */
export const orderAssignments = {
  applyFill: ({ context, event }: Args): Partial<OrderLifecycleContext> => {
    if (event.type !== 'FILL') return {};
    const filledQuantity = context.filledQuantity + event.quantity;
    const status: OrderStatus = filledQuantity >= context.quantity ? 'FILLED' : 'PARTIALLY_FILLED';
    return { filledQuantity, history: record(context, status, `filled ${event.quantity}`, event.occurredAtMs) };
  },
  recordCancel: ({ context, event }: Args): Partial<OrderLifecycleContext> =>
    event.type === 'CANCEL' ? { history: record(context, 'CANCELLED', event.reason, event.occurredAtMs) } : {},
  recordExpiry: ({ context, event }: Args): Partial<OrderLifecycleContext> =>
    event.type === 'EXPIRE' ? { history: record(context, 'EXPIRED', event.reason, event.occurredAtMs) } : {},
  recordRejection: ({ context, event }: Args): Partial<OrderLifecycleContext> =>
    event.type === 'REJECT' ? { history: record(context, 'REJECTED', event.reason, event.occurredAtMs) } : {},
  applyModify: ({ context, event }: Args): Partial<OrderLifecycleContext> => {
    if (event.type !== 'MODIFY_ACCEPTED') return {};
    const status: OrderStatus = context.filledQuantity > 0 ? 'PARTIALLY_FILLED' : 'SUBMITTED';
    return { quantity: event.quantity, history: record(context, status, event.reason, event.occurredAtMs) };
  },
  recordModifyRejected: ({ context, event }: Args): Partial<OrderLifecycleContext> => {
    if (event.type !== 'MODIFY_REJECTED') return {};
    const status: OrderStatus = context.filledQuantity > 0 ? 'PARTIALLY_FILLED' : 'SUBMITTED';
    return { history: record(context, status, event.reason, event.occurredAtMs) };
  },
};

/** A new order's context. */
export function initialOrderContext(input: OrderLifecycleInput): OrderLifecycleContext {
  return {
    quantity: input.quantity,
    filledQuantity: 0,
    history: startStatusLog('SUBMITTED', 'accepted', input.occurredAtMs),
  };
}

export const orderMachine = setup({
  types: {
    context: {} as OrderLifecycleContext,
    events: {} as OrderLifecycleEvent,
    input: {} as OrderLifecycleInput,
  },
  guards: orderGuards,
  actions: {
    applyFill: assign(orderAssignments.applyFill),
    recordCancel: assign(orderAssignments.recordCancel),
    recordExpiry: assign(orderAssignments.recordExpiry),
    recordRejection: assign(orderAssignments.recordRejection),
    applyModify: assign(orderAssignments.applyModify),
    recordModifyRejected: assign(orderAssignments.recordModifyRejected),
  },
}).createMachine({
  id: 'order',
  initial: 'SUBMITTED',
  context: ({ input }) => initialOrderContext(input),
  states: {
    // A working order takes the same events whether or not it has fills yet; only SUBMITTED can be refused.
    SUBMITTED: { on: { ...WORKING_TRANSITIONS, REJECT: { target: 'REJECTED', actions: 'recordRejection' } } },
    PARTIALLY_FILLED: { on: WORKING_TRANSITIONS },
    FILLED: { type: 'final' },
    CANCELLED: { type: 'final' },
    REJECTED: { type: 'final' },
    EXPIRED: { type: 'final' },
  },
});
