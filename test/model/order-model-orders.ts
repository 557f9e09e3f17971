// The order model's checks of each order after each command (order-lifecycle.model.test.ts): the fields and
// status history of every order, client's or risk engine's (docs/order-lifecycle.md#statuses-and-transitions), the DAY
// expiry around
// the close, and what the model learns of each order at the venue (arrival, trigger, re-queueing).
import { bodyCheck } from '../../src/core/validation/body-check.js';
import { OrderShape, StatusRecordShape } from '../../src/core/shapes/order.js';
import { riskOrderIds } from './kernel-sim.js';
import { atMost, deepEq, eq, ne, ok, contains } from './model-assert.js';
import { STATUSES, TERMINAL, WORKING, hasStop, type Context, type Json, type Seen } from './order-model-state.js';

/** The API's shapes of an order and of a status record (docs/api.md#shapes): fields that do not apply are left out. */
const ORDER_SHAPE = bodyCheck(OrderShape);
const STATUS_RECORD_SHAPE = bodyCheck(StatusRecordShape);

/** What is wrong with a value against a shape, as one line ('' when nothing). */
function shapeProblems(check: typeof ORDER_SHAPE | typeof STATUS_RECORD_SHAPE, value: unknown): string {
  return check
    .problems(value)
    .map((p) => `${p.field}: ${p.message}`)
    .join('; ');
}

/** Every order the kernel holds, as its reads answer: the client's, then the risk engine's. */
export function readOrders(ctx: Context): Map<string, Seen> {
  const { sim, model, where } = ctx;
  const riskIds = riskOrderIds(sim.kernel);
  eq(
    sim.kernel.internals().desk.orderList.length,
    sim.orderIds.length + riskIds.length,
    `${where}: the kernel holds exactly the orders it answered 202 for and the risk engine's`,
  );
  for (const id of riskIds)
    ok(model.stateEvents.has(id), `${where}: risk order ${id} was announced by orders.state when sent`);
  const now = new Map<string, Seen>();
  for (const [origin, ids] of [
    ['client', sim.orderIds],
    ['risk', riskIds],
  ] as const) {
    for (const id of ids) {
      const json = sim.kernel.read.order({}, id);
      const states = sim.kernel.read.orderStates({}, id);
      if (!json.ok || !states.ok) throw new Error(`${where}: order ${id} was accepted but is not found`);
      eq(json.body.origin, origin, `${where}: order ${id} says who sent it`);
      now.set(id, { json: { ...json.body }, states: states.body.items.map((r) => ({ ...r })) });
    }
  }
  return now;
}

export function checkOrder(ctx: Context, id: string, seen: Seen, fillsOfOrder: number): void {
  const { model, sim } = ctx;
  const { json, states } = seen;
  const where = `${ctx.where} order ${id} (${json.side} ${json.instrument_id} ${json.type} ${json.time_in_force})`;
  const status = json.status as string;
  const quantity = json.quantity as number;
  const filled = json.filled_quantity as number;
  eq(shapeProblems(ORDER_SHAPE, json), '', `${where}: the order is in the API's shape (docs/api.md#shapes)`);
  for (const record of states)
    eq(shapeProblems(STATUS_RECORD_SHAPE, record), '', `${where}: a status record is in the API's shape`);
  eq(STATUSES.has(status), true, `${where}: status ${status} is one of the six`);
  eq(Number.isSafeInteger(quantity) && quantity >= 1, true, `${where}: quantity ${quantity} is an integer ≥ 1`);
  eq(
    Number.isSafeInteger(filled) && filled >= 0 && filled <= quantity,
    true,
    `${where}: 0 ≤ filled ${filled} ≤ quantity ${quantity}`,
  );
  // The order no longer carries remaining_quantity (docs/api.md#shapes; the shape check above refuses the field), so
  // there is no remaining to check against quantity − filled; the fields it was derived from are the venue's own.
  const order = sim.kernel.internals().desk.find(id)!;
  deepEq(
    [order.quantity, order.filledQuantity, order.status],
    [quantity, filled, status],
    `${where}: the order answered is the order the venue works`,
  );
  if (status === 'FILLED') eq(filled, quantity, `${where}: FILLED means filled = quantity`);
  if (status === 'PARTIALLY_FILLED')
    eq(
      filled > 0 && filled < quantity,
      true,
      `${where}: PARTIALLY_FILLED means 0 < filled ${filled} < quantity ${quantity}`,
    );
  if (status === 'SUBMITTED')
    eq(filled, 0, `${where}: SUBMITTED has filled nothing (a fill makes it PARTIALLY_FILLED or FILLED)`);
  if (status === 'REJECTED') {
    eq(filled, 0, `${where}: a REJECTED order never reached the book`);
    const error = json.error as Json | undefined;
    ok(
      typeof error?.code === 'string' && typeof error.message === 'string',
      `${where}: a REJECTED order carries an error payload {code, message}`,
    );
    if (error?.code === 'account_locked' && model.status(id) !== 'REJECTED') model.seen.rejectedLocked++;
  } else {
    eq('error' in json, false, `${where}: only a REJECTED order has an error payload`);
  }
  eq(
    'average_fill_price' in json,
    filled > 0,
    `${where}: average_fill_price is left out exactly while nothing is filled`,
  );
  eq(fillsOfOrder, filled, `${where}: Σ the order's fills = filled_quantity`);
  eq(
    json.oco_group_id,
    model.groupOf.get(id),
    `${where}: the OCO group is the one it was linked to (left out when in none)`,
  );
  eq('oco_group_id' in json, model.groupOf.has(id), `${where}: oco_group_id is present exactly when in a group`);

  // status history: starts SUBMITTED, ends at the status, time never goes back, one orders.state event per record
  eq(states.length >= 1 && states[0]!.status === 'SUBMITTED', true, `${where}: the history starts with SUBMITTED`);
  eq(states.at(-1)!.status, status, `${where}: the last status record is the current status`);
  for (let i = 1; i < states.length; i++) {
    eq(
      (states[i]!.occurred_at as number) >= (states[i - 1]!.occurred_at as number),
      true,
      `${where}: status records are in time order`,
    );
  }
  atMost(states.at(-1)!.occurred_at as number, sim.kernel.nowMs, `${where}: no status record is in the future`);
  eq(model.stateEvents.get(id), states.length, `${where}: every status record was published once as orders.state`);

  // append-only, terminal is final
  const before = model.orders.get(id);
  if (before) {
    deepEq(
      states.slice(0, before.states.length),
      before.states,
      `${where}: history only grows: the previous history is a prefix of this one`,
    );
    if (TERMINAL.has(before.json.status as string)) {
      deepEq(json, before.json, `${where}: ${String(before.json.status)} is final: the order never changes again`);
      eq(
        states.length,
        before.states.length,
        `${where}: ${String(before.json.status)} is final: its history never grows again`,
      );
    }
  }

  // IOC and FOK (docs/order-lifecycle.md#fill-model): settled at their first print; FOK all or nothing
  if (json.time_in_force === 'ioc' || json.time_in_force === 'fok') {
    ne(status, 'PARTIALLY_FILLED', `${where}: an IOC/FOK order keeps nothing working after a partial fill`);
  }
  if (json.time_in_force === 'fok')
    eq(
      filled === 0 || filled === quantity,
      true,
      `${where}: FOK fills all or nothing (filled ${filled} of ${quantity})`,
    );
}

/** The DAY expiry rules around the session close (docs/order-lifecycle.md "Expiry and GTC"). */
export function checkClose(ctx: Context, current: Map<string, Seen>): void {
  const { closeMs, sim, model } = ctx;
  if (closeMs === undefined) return;
  const now = sim.kernel.nowMs;
  for (const [id, { json, states }] of current) {
    const where = `${ctx.where} order ${id} (${json.type} ${json.time_in_force}, created ${json.created_at})`;
    const status = json.status as string;
    const arrivalMs = (json.created_at as number) + model.latencyMs;
    if (status === 'EXPIRED') {
      ne(
        json.time_in_force,
        'gtc',
        `${where}: GTC orders never expire (DAY ones, and IOC/FOK never settled by a print, end at the close)`,
      );
      eq(states.at(-1)!.occurred_at, closeMs, `${where}: a DAY order expires at the close of its session`);
    }
    if (now >= closeMs && json.time_in_force !== 'gtc' && arrivalMs < closeMs) {
      eq(
        WORKING.has(status),
        false,
        `${where}: a DAY (or unsettled IOC/FOK) order that reached the venue before the close is not working after it`,
      );
    }
    const endedMs = states.find((r) => TERMINAL.has(r.status as string))?.occurred_at as number | undefined;
    const reachedVenue = arrivalMs <= now && (endedMs === undefined || endedMs >= arrivalMs);
    // The risk engine's orders wait for the reopen instead (docs/order-lifecycle.md#risk-orders).
    if (arrivalMs >= closeMs && reachedVenue && json.origin !== 'risk') {
      eq(
        status,
        'REJECTED',
        `${where}: an order reaching the venue during the maintenance halt (not cancelled on its way there) is refused`,
      );
      contains(
        ['market_closed', 'invalid_price', 'invalid_order'],
        (json.error as Json).code,
        `${where}: refused as market_closed (or for its own fault first)`,
      );
    }
  }
}

/** After a command: arrivals and priority-losing modifies make an order fresh; a print leaves its instrument's orders
 * stale. */
export function updateVenue(ctx: Context, current: Map<string, Seen>): void {
  const { model, sim } = ctx;
  const now = sim.kernel.nowMs;
  for (const [id, { json, states }] of current) {
    let venue = model.venue.get(id);
    if (!venue) model.venue.set(id, (venue = { arrived: false, fresh: false, triggered: false }));
    const { command } = ctx;
    // A print is met by the orders of its instrument already at the venue (not by those it made the risk engine send).
    if (command.kind === 'print' && json.instrument_id === command.symbol && model.orders.has(id)) venue.fresh = false;
    if (!venue.arrived && (json.created_at as number) + model.latencyMs <= now)
      [venue.arrived, venue.fresh] = [true, true];
    if (command.kind !== 'print') {
      const before = model.orders.get(id);
      let quantity = (before?.json.quantity ?? json.quantity) as number;
      for (const record of states.slice(before?.states.length ?? 0)) {
        const reason = record.reason as string;
        if (!reason.startsWith('modified:')) continue;
        const raised = /quantity (\d+)/.exec(reason);
        const newQuantity = raised ? Number(raised[1]) : quantity;
        if (/(limit|stop)_price /.test(reason) || newQuantity > quantity) venue.fresh = true;
        quantity = newQuantity;
      }
    }
    if (hasStop(json))
      eq(
        sim.kernel.internals().desk.find(id)!.triggered,
        venue.triggered,
        `${ctx.where} order ${id}: the stop triggered exactly when a print after arrival reached its stop`,
      );
  }
}
