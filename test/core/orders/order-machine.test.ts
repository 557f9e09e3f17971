// The legal transition table of docs/order-lifecycle.md, checked pair by pair: every (state, event).
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { initialOrderState, nextOrderState } from '../../../src/core/orders/order-lifecycle.js';
import { orderMachine, type OrderLifecycleEvent, type OrderStatus } from '../../../src/core/orders/order.machine.js';
import { lastStatusRecord, statusCount, statusRecords } from '../../../src/core/orders/status-log.js';

const QUANTITY = 3;

/** An order of 3 brought to `state` by the shortest path. */
function orderIn(state: OrderStatus) {
  const actor = createActor(orderMachine, { input: { quantity: QUANTITY, occurredAtMs: 0 } }).start();
  const setup: Record<OrderStatus, OrderLifecycleEvent[]> = {
    SUBMITTED: [],
    PARTIALLY_FILLED: [{ type: 'FILL', quantity: 1, occurredAtMs: 1 }],
    FILLED: [{ type: 'FILL', quantity: 3, occurredAtMs: 1 }],
    CANCELLED: [{ type: 'CANCEL', reason: 'r', occurredAtMs: 1 }],
    REJECTED: [{ type: 'REJECT', reason: 'r', occurredAtMs: 1 }],
    EXPIRED: [{ type: 'EXPIRE', reason: 'r', occurredAtMs: 1 }],
  };
  for (const event of setup[state]) actor.send(event);
  expect(actor.getSnapshot().value).toBe(state);
  return actor;
}

const EVENTS: Record<string, OrderLifecycleEvent> = {
  'FILL part': { type: 'FILL', quantity: 1, occurredAtMs: 9 },
  'FILL rest': { type: 'FILL', quantity: 99, occurredAtMs: 9 }, // resolved below to exactly the remainder
  'FILL overfill': { type: 'FILL', quantity: 4, occurredAtMs: 9 },
  CANCEL: { type: 'CANCEL', reason: 'cancelled', occurredAtMs: 9 },
  EXPIRE: { type: 'EXPIRE', reason: 'expired', occurredAtMs: 9 },
  REJECT: { type: 'REJECT', reason: 'refused', occurredAtMs: 9 },
  'MODIFY_ACCEPTED above filled': { type: 'MODIFY_ACCEPTED', quantity: 5, reason: 'modified', occurredAtMs: 9 },
  'MODIFY_ACCEPTED at filled': { type: 'MODIFY_ACCEPTED', quantity: 1, reason: 'modified', occurredAtMs: 9 },
  MODIFY_REJECTED: { type: 'MODIFY_REJECTED', reason: 'modify rejected', occurredAtMs: 9 },
};

// [from, event, to, appends a status record]; from PARTIALLY_FILLED 1 of 3 is filled.
const TABLE: Array<[OrderStatus, string, OrderStatus, boolean]> = [
  ['SUBMITTED', 'FILL part', 'PARTIALLY_FILLED', true],
  ['SUBMITTED', 'FILL rest', 'FILLED', true],
  ['SUBMITTED', 'FILL overfill', 'SUBMITTED', false],
  ['SUBMITTED', 'CANCEL', 'CANCELLED', true],
  ['SUBMITTED', 'EXPIRE', 'EXPIRED', true],
  ['SUBMITTED', 'REJECT', 'REJECTED', true],
  ['SUBMITTED', 'MODIFY_ACCEPTED above filled', 'SUBMITTED', true],
  ['SUBMITTED', 'MODIFY_ACCEPTED at filled', 'SUBMITTED', true],
  ['SUBMITTED', 'MODIFY_REJECTED', 'SUBMITTED', true],
  ['PARTIALLY_FILLED', 'FILL part', 'PARTIALLY_FILLED', true],
  ['PARTIALLY_FILLED', 'FILL rest', 'FILLED', true],
  ['PARTIALLY_FILLED', 'FILL overfill', 'PARTIALLY_FILLED', false],
  ['PARTIALLY_FILLED', 'CANCEL', 'CANCELLED', true],
  ['PARTIALLY_FILLED', 'EXPIRE', 'EXPIRED', true],
  ['PARTIALLY_FILLED', 'REJECT', 'PARTIALLY_FILLED', false],
  ['PARTIALLY_FILLED', 'MODIFY_ACCEPTED above filled', 'PARTIALLY_FILLED', true],
  ['PARTIALLY_FILLED', 'MODIFY_ACCEPTED at filled', 'PARTIALLY_FILLED', false],
  ['PARTIALLY_FILLED', 'MODIFY_REJECTED', 'PARTIALLY_FILLED', true],
  ...(['FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED'] as const).flatMap((terminal) =>
    Object.keys(EVENTS).map((event): [OrderStatus, string, OrderStatus, boolean] => [terminal, event, terminal, false]),
  ),
];

describe('order lifecycle: every (state, event) pair', () => {
  it('covers all 6 states x 9 events', () => {
    expect(TABLE).toHaveLength(6 * Object.keys(EVENTS).length);
  });

  it.each(TABLE)('%s + %s -> %s (record appended: %s)', (from, eventName, to, appends) => {
    const actor = orderIn(from);
    const before = actor.getSnapshot().context;
    let event = EVENTS[eventName]!;
    if (eventName === 'FILL rest')
      event = { type: 'FILL', quantity: before.quantity - before.filledQuantity, occurredAtMs: 9 };
    actor.send(event);
    const after = actor.getSnapshot();
    expect(after.value).toBe(to);
    expect(
      statusCount(after.context.history) - statusCount(before.history),
      'one record per accepted change, none otherwise',
    ).toBe(appends ? 1 : 0);
    if (appends) expect(lastStatusRecord(after.context.history)).toMatchObject({ status: to, occurredAtMs: 9 });
    else expect(after.context, 'an ignored event changes nothing').toEqual(before);
  });

  it('starts SUBMITTED with an "accepted" record at the placement time', () => {
    const actor = createActor(orderMachine, { input: { quantity: 2, occurredAtMs: 42 } }).start();
    expect(statusRecords(actor.getSnapshot().context.history)).toEqual([
      { status: 'SUBMITTED', reason: 'accepted', occurredAtMs: 42 },
    ]);
  });

  it('a modify that lowers the quantity to the filled amount is not applied', () => {
    const actor = orderIn('PARTIALLY_FILLED');
    actor.send({ type: 'MODIFY_ACCEPTED', quantity: 2, reason: 'modified: quantity 2', occurredAtMs: 5 });
    expect(actor.getSnapshot().context.quantity, 'above the filled 1: applied').toBe(2);
    actor.send({ type: 'FILL', quantity: 1, occurredAtMs: 6 });
    expect(actor.getSnapshot().value, 'the new quantity is what completes it').toBe('FILLED');
  });
});

describe('order lifecycle without an actor (order-lifecycle.ts): the compiled table answers as the actor for every pair', () => {
  it.each(TABLE)('%s + %s -> %s', (from, eventName, to, appends) => {
    const actor = orderIn(from);
    let state = initialOrderState({ quantity: QUANTITY, occurredAtMs: 0 });
    for (const record of statusRecords(actor.getSnapshot().context.history).slice(1)) {
      const replay: Record<string, OrderLifecycleEvent> = {
        PARTIALLY_FILLED: { type: 'FILL', quantity: 1, occurredAtMs: 1 },
        FILLED: { type: 'FILL', quantity: 3, occurredAtMs: 1 },
        CANCELLED: { type: 'CANCEL', reason: 'r', occurredAtMs: 1 },
        REJECTED: { type: 'REJECT', reason: 'r', occurredAtMs: 1 },
        EXPIRED: { type: 'EXPIRE', reason: 'r', occurredAtMs: 1 },
      };
      state = nextOrderState(state, replay[record.status]!)!;
    }
    expect(state).toEqual({ status: actor.getSnapshot().value, context: actor.getSnapshot().context });
    expect(state.status).toBe(from);
    let event = EVENTS[eventName]!;
    if (eventName === 'FILL rest')
      event = { type: 'FILL', quantity: state.context.quantity - state.context.filledQuantity, occurredAtMs: 9 };
    actor.send(event);
    const next = nextOrderState(state, event);
    if (!appends) expect(next, 'an event no transition takes answers undefined').toBeUndefined();
    else expect(next).toEqual({ status: to, context: actor.getSnapshot().context });
  });
});
