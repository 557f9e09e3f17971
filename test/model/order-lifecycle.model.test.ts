// Model-based test of the order lifecycle (docs/order-lifecycle.md): random sequences of place / modify / cancel /
// OCO link and companion / print / advance / historical fill against a kernel with a random fill model, checking
// after every command the invariants the rules imply. The model keeps what it saw (order snapshots and status
// histories, OCO groups, the fills published on the event bus) and an independent FIFO ledger per account.
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { KernelEvent } from '../../src/core/kernel/events.js';
import type { Outcome } from '../../src/core/outcome.js';
import { T0, calendar } from '../core/kernel/kernel-harness.js';
import {
  SYMBOL,
  STARTING_BALANCE_CENTS,
  TICK_VALUE_CENTS,
  UNKNOWN_GROUP_ID,
  UNKNOWN_ORDER_ID,
  commandArb,
  newSim,
  resolve,
  run,
  setupArb,
  ticksOf,
  type Command,
  type Resolved,
  type RunSetup,
  type Sim,
} from './kernel-commands.js';

const STATUSES = new Set(['SUBMITTED', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED']);
const TERMINAL = new Set(['FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED']);
const WORKING = new Set(['SUBMITTED', 'PARTIALLY_FILLED']);

type Json = Record<string, unknown>;

interface FillJson {
  execution_id: string;
  order_id: string | null;
  account_id: string;
  instrument_id: string;
  side: 'buy' | 'sell';
  quantity: number;
  price: string;
  occurred_at: number;
  commission: string;
  realized_pnl: string;
}

interface Lot {
  sign: 1 | -1;
  quantity: number;
  ticks: number;
}

/** The model's own ledger of one account, fed only by the fills it saw published. */
interface ModelAccount {
  commissionPerContractCents: number;
  lots: Lot[];
  realizedCents: number;
  commissionCents: number;
  /** Σ signed quantities of historical (order-less) fills. */
  historicalNet: number;
  fillCount: number;
}

interface Seen {
  json: Json;
  states: Json[];
}

/** What the model knows of an order at the venue, from the outside: arrival, trigger, first print since (re)queueing. */
interface VenueView {
  arrived: boolean;
  /** Awaiting its first print since arrival, a priority-losing modify or its trigger (the limit pricing rule). */
  fresh: boolean;
  triggered: boolean;
}

const stopHit = (json: Json, printTicks: number) => (json.side === 'buy' ? printTicks >= ticksOf(json.stop_price as string) : printTicks <= ticksOf(json.stop_price as string));
const hasStop = (json: Json) => json.type === 'stop' || json.type === 'stop_limit';

class Model {
  readonly orders = new Map<string, Seen>();
  readonly groups = new Map<string, string[]>();
  readonly groupOf = new Map<string, string>();
  readonly accounts = new Map<string, ModelAccount>();
  lastPrintTicks: number | undefined;
  lastFillTicks: number | undefined;
  /** Fills published since the last check. */
  newFills: FillJson[] = [];
  /** orders.state events published per order. */
  readonly stateEvents = new Map<string, number>();
  readonly venue = new Map<string, VenueView>();
  /** For the print being run: whether each working order met it as its first print since (re)queueing. */
  readonly freshAtPrint = new Map<string, boolean>();

  readonly latencyMs: number;

  constructor(sim: Sim, setup: RunSetup) {
    this.latencyMs = setup.fillModel.latencyMs;
    const commissions = [0, setup.commissionCents];
    sim.accountIds.forEach((id, i) => {
      this.accounts.set(id, { commissionPerContractCents: commissions[i]!, lots: [], realizedCents: 0, commissionCents: 0, historicalNet: 0, fillCount: 0 });
    });
    sim.kernel.subscribe((event: KernelEvent) => {
      if (event.type === 'fills.created') this.newFills.push(event.data as unknown as FillJson);
      if (event.type === 'orders.state') {
        const id = event.data.order_id as string;
        this.stateEvents.set(id, (this.stateEvents.get(id) ?? 0) + 1);
      }
    });
  }

  /** Before a print: stops at or through it trigger (and meet it fresh); which orders meet it fresh. */
  beforePrint(printTicks: number): void {
    this.freshAtPrint.clear();
    for (const [id, { json }] of this.orders) {
      const venue = this.venue.get(id)!;
      if (!venue.arrived || !WORKING.has(json.status as string)) continue;
      if (hasStop(json) && !venue.triggered && stopHit(json, printTicks)) {
        venue.triggered = true;
        venue.fresh = true;
      }
      this.freshAtPrint.set(id, venue.fresh);
    }
  }

  status(id: string): string | undefined {
    return this.orders.get(id)?.json.status as string | undefined;
  }

  /** Books a fill FIFO and answers its realized P&L (docs/order-lifecycle.md#positions-trades-and-lots). */
  book(accountId: string, sign: 1 | -1, quantity: number, ticks: number): number {
    const account = this.accounts.get(accountId)!;
    let remaining = quantity;
    let realized = 0;
    while (remaining > 0 && account.lots.length > 0 && account.lots[0]!.sign !== sign) {
      const lot = account.lots[0]!;
      const closed = Math.min(lot.quantity, remaining);
      realized += (ticks - lot.ticks) * closed * lot.sign * TICK_VALUE_CENTS;
      lot.quantity -= closed;
      remaining -= closed;
      if (lot.quantity === 0) account.lots.shift();
    }
    if (remaining > 0) account.lots.push({ sign, quantity: remaining, ticks });
    account.realizedCents += realized;
    account.commissionCents += account.commissionPerContractCents * quantity;
    account.fillCount++;
    return realized;
  }
}

// ---- assertions: plain checks (expect() per check is too slow for ~10^6 checks); the message says why ----

class InvariantError extends Error {
  override name = 'InvariantError';
}

const show = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value));

function ok(condition: boolean, why: string): void {
  if (!condition) throw new InvariantError(why);
}
function eq(actual: unknown, expected: unknown, why: string): void {
  if (!Object.is(actual, expected)) throw new InvariantError(`${why}: expected ${show(expected)}, got ${show(actual)}`);
}
function ne(actual: unknown, unexpected: unknown, why: string): void {
  if (Object.is(actual, unexpected)) throw new InvariantError(`${why}: got ${show(actual)}`);
}
function deepEq(actual: unknown, expected: unknown, why: string): void {
  if (!isDeepStrictEqual(actual, expected)) throw new InvariantError(`${why}: expected ${show(expected)}, got ${show(actual)}`);
}
function contains(list: readonly unknown[], item: unknown, why: string): void {
  if (!list.includes(item)) throw new InvariantError(`${why}: ${show(item)} is not one of ${show(list)}`);
}
function atMost(actual: number, limit: number, why: string): void {
  if (!(actual <= limit)) throw new InvariantError(`${why}: ${actual} > ${limit}`);
}
function matches(actual: object, expected: Record<string, unknown>, why: string): void {
  for (const [key, value] of Object.entries(expected)) {
    const got = (actual as Record<string, unknown>)[key];
    if (!isDeepStrictEqual(got, value)) throw new InvariantError(`${why}: ${key} expected ${show(value)}, got ${show(got)} in ${show(actual)}`);
  }
}

function centsOf(money: unknown): number {
  if (typeof money !== 'string' || !/^-?\d+\.\d{2}$/.test(money)) throw new Error(`not a money string: ${String(money)}`);
  return Number(money.replace('.', '')) + 0;
}

const sign = (side: unknown): 1 | -1 => (side === 'buy' ? 1 : -1);

// ---- expected outcomes of the commands (docs/order-lifecycle.md#what-causes-each-event) ----

function expectedStatus(model: Model, command: Resolved): number | undefined {
  const known = (id: string) => model.orders.has(id);
  const terminal = (id: string) => TERMINAL.has(model.status(id)!);
  const accountOf = (id: string) => model.orders.get(id)!.json.account_id;
  const hasFills = (id: string) => (model.orders.get(id)!.json.filled_quantity as number) > 0;
  switch (command.kind) {
    case 'place':
      return command.body.quantity === 0 ? 400 : 202;
    case 'modify':
      if (!known(command.orderId)) return 404;
      if (Object.keys(command.body).length === 0) return 400;
      return terminal(command.orderId) ? 409 : 202;
    case 'cancel':
      if (!known(command.orderId)) return 404;
      if (model.status(command.orderId) === 'CANCELLED') return 200;
      return terminal(command.orderId) ? 409 : 202;
    case 'link': {
      const ids = command.orderIds;
      if (new Set(ids).size !== ids.length) return 400;
      if (!ids.every(known)) return 404;
      for (const id of ids) {
        if (terminal(id) || model.groupOf.has(id)) return 409;
        if (accountOf(id) !== accountOf(ids[0]!)) return 400;
      }
      return ids.some(hasFills) ? 409 : 201; // a group is linked before any member fills (oco_member_filled)
    }
    case 'companion': {
      const members = model.groups.get(command.groupId);
      if (members === undefined || !known(command.orderId)) return 404;
      if (terminal(command.orderId) || model.groupOf.has(command.orderId)) return 409;
      if (accountOf(command.orderId) !== accountOf(members[0]!)) return 400;
      return hasFills(command.orderId) || members.some(hasFills) ? 409 : 200;
    }
    case 'fill':
      return 201;
    case 'print':
    case 'advance':
      return undefined;
  }
}

function checkOutcome(model: Model, command: Resolved, expected: number | undefined, outcome: Outcome<unknown> | undefined, where: string): void {
  eq(outcome?.status, expected, `${where}: the command answers ${expected ?? 'nothing'} (${JSON.stringify(outcome?.body)})`);
  if (!outcome?.ok) return;
  const body = outcome.body as Json;
  if (command.kind === 'place') {
    eq(body.status, 'SUBMITTED', `${where}: POST answers 202 with the order SUBMITTED`);
    eq(body.filled_quantity, 0, `${where}: a new order has filled nothing`);
  }
  if (command.kind === 'link') {
    model.groups.set(body.group_id as string, [...command.orderIds]);
    for (const id of command.orderIds) model.groupOf.set(id, body.group_id as string);
  }
  if (command.kind === 'companion') {
    model.groups.get(command.groupId)!.push(command.orderId);
    model.groupOf.set(command.orderId, command.groupId);
  }
}

// ---- invariants ----

interface Context {
  sim: Sim;
  model: Model;
  setup: RunSetup;
  command: Resolved;
  where: string;
  /** Close of the session the run is in, for the property that crosses it. */
  closeMs?: number;
}

function readOrders(ctx: Context): Map<string, Seen> {
  const { sim, where } = ctx;
  eq(sim.kernel.desk.orders.size, sim.orderIds.length, `${where}: the kernel holds exactly the orders it answered 202 for`);
  const now = new Map<string, Seen>();
  for (const id of sim.orderIds) {
    const json = sim.kernel.getOrder(id);
    const states = sim.kernel.getOrderStates(id);
    if (!json.ok || !states.ok) throw new Error(`${where}: order ${id} was accepted but is not found`);
    now.set(id, { json: json.body, states: states.body });
  }
  return now;
}

function checkOrder(ctx: Context, id: string, seen: Seen, fillsOfOrder: number): void {
  const { model, sim } = ctx;
  const { json, states } = seen;
  const where = `${ctx.where} order ${id} (${json.side} ${json.type} ${json.time_in_force})`;
  const status = json.status as string;
  const quantity = json.quantity as number;
  const filled = json.filled_quantity as number;
  eq(STATUSES.has(status), true, `${where}: status ${status} is one of the six`);
  eq(Number.isSafeInteger(quantity) && quantity >= 1, true, `${where}: quantity ${quantity} is an integer ≥ 1`);
  eq(Number.isSafeInteger(filled) && filled >= 0 && filled <= quantity, true, `${where}: 0 ≤ filled ${filled} ≤ quantity ${quantity}`);
  const remaining = TERMINAL.has(status) ? 0 : quantity - filled;
  eq(json.remaining_quantity, remaining, `${where}: remaining = quantity − filled while working, 0 once final`);
  if (status === 'FILLED') eq(filled, quantity, `${where}: FILLED means filled = quantity`);
  if (status === 'PARTIALLY_FILLED') eq(filled > 0 && filled < quantity, true, `${where}: PARTIALLY_FILLED means 0 < filled ${filled} < quantity ${quantity}`);
  if (status === 'SUBMITTED') eq(filled, 0, `${where}: SUBMITTED has filled nothing (a fill makes it PARTIALLY_FILLED or FILLED)`);
  if (status === 'REJECTED') {
    eq(filled, 0, `${where}: a REJECTED order never reached the book`);
    const error = json.error as Json | null;
    ok(typeof error?.code === 'string' && typeof error.message === 'string', `${where}: a REJECTED order carries an error payload {code, message}`);
  } else {
    eq(json.error, null, `${where}: only a REJECTED order has an error payload`);
  }
  eq(json.average_fill_price === null, filled === 0, `${where}: average_fill_price is null exactly while nothing is filled`);
  eq(fillsOfOrder, filled, `${where}: Σ the order's fills = filled_quantity`);
  eq(json.oco_group_id, model.groupOf.get(id) ?? null, `${where}: the OCO group is the one it was linked to`);

  // status history: starts SUBMITTED, ends at the status, time never goes back, one orders.state event per record
  eq(states.length >= 1 && states[0]!.status === 'SUBMITTED', true, `${where}: the history starts with SUBMITTED`);
  eq(states.at(-1)!.status, status, `${where}: the last status record is the current status`);
  for (let i = 1; i < states.length; i++) {
    eq((states[i]!.occurred_at as number) >= (states[i - 1]!.occurred_at as number), true, `${where}: status records are in time order`);
  }
  atMost(states.at(-1)!.occurred_at as number, sim.kernel.nowMs, `${where}: no status record is in the future`);
  eq(model.stateEvents.get(id), states.length, `${where}: every status record was published once as orders.state`);

  // append-only, terminal is final
  const before = model.orders.get(id);
  if (before) {
    deepEq(states.slice(0, before.states.length), before.states, `${where}: history only grows: the previous history is a prefix of this one`);
    if (TERMINAL.has(before.json.status as string)) {
      deepEq(json, before.json, `${where}: ${String(before.json.status)} is final: the order never changes again`);
      eq(states.length, before.states.length, `${where}: ${String(before.json.status)} is final: its history never grows again`);
    }
  }

  // IOC and FOK (docs/order-lifecycle.md#fill-model): settled at their first print; FOK all or nothing
  if (json.time_in_force === 'ioc' || json.time_in_force === 'fok') {
    ne(status, 'PARTIALLY_FILLED', `${where}: an IOC/FOK order keeps nothing working after a partial fill`);
  }
  if (json.time_in_force === 'fok') eq(filled === 0 || filled === quantity, true, `${where}: FOK fills all or nothing (filled ${filled} of ${quantity})`);
}

/** True when a print at `printTicks` (unlimited size) must fill the order, were it resting at the venue. */
function fillableAt(ctx: Context, id: string, json: Json, printTicks: number): boolean {
  const triggered = ctx.model.venue.get(id)!.triggered;
  const buy = json.side === 'buy';
  const touch = ctx.setup.fillModel.limitFill === 'touch';
  const limitOk = () => {
    const limit = ticksOf(json.limit_price as string);
    const edge = buy ? limit - printTicks : printTicks - limit;
    return touch ? edge >= 0 : edge > 0;
  };
  switch (json.type) {
    case 'market':
      return true;
    case 'limit':
      return limitOk();
    case 'stop':
      return triggered;
    default:
      return triggered && limitOk();
  }
}

function checkFill(ctx: Context, fill: FillJson, current: Map<string, Seen>): void {
  const { command, sim, setup, model } = ctx;
  const where = `${ctx.where} fill ${fill.execution_id}`;
  const now = sim.kernel.nowMs;
  eq(fill.instrument_id, SYMBOL, `${where}: every fill here is of ${SYMBOL}`);
  const priceTicks = ticksOf(fill.price);
  if (command.kind === 'fill') {
    matches(fill, {
      order_id: null,
      account_id: command.accountId,
      side: command.side,
      quantity: command.quantity,
      price: command.price,
      occurred_at: command.occurredAtMs ?? now,
    }, `${where}: a historical fill is booked as given, without an order`);
    model.accounts.get(fill.account_id)!.historicalNet += sign(fill.side) * fill.quantity;
  } else {
    eq(command.kind, 'print', `${where}: venue fills happen only at prints`);
    if (command.kind !== 'print') return;
    const order = current.get(fill.order_id ?? '')?.json;
    if (!order) throw new Error(`${where}: the fill names order ${fill.order_id}, which the kernel never accepted`);
    deepEq([fill.account_id, fill.side], [order.account_id, order.side], `${where}: the fill is on the order's account and side`);
    eq(fill.occurred_at, now, `${where}: a venue fill happens at the print`);
    atMost((order.created_at as number) + setup.fillModel.latencyMs, now, `${where}: an order fills only at prints after its arrival (latency ${setup.fillModel.latencyMs} ms)`);
    const buy = order.side === 'buy';
    const p = command.priceTicks;
    const venue = model.venue.get(fill.order_id!)!;
    if (order.type === 'market' || order.type === 'stop') {
      if (order.type === 'stop') eq(venue.triggered, true, `${where}: a stop fills only once triggered (a print at or through its stop)`);
      eq(priceTicks, buy ? p + setup.fillModel.slippageTicks : p - setup.fillModel.slippageTicks, `${where}: a market (or triggered stop) fills at the print moved ${setup.fillModel.slippageTicks} ticks against it`);
    } else {
      if (order.type === 'stop_limit') eq(venue.triggered, true, `${where}: a stop-limit fills only once triggered (a print at or through its stop)`);
      const limit = ticksOf(order.limit_price as string);
      const edge = buy ? limit - p : p - limit;
      eq(setup.fillModel.limitFill === 'touch' ? edge >= 0 : edge > 0, true, `${where}: a limit fills only at a print at (touch) or through (through) its limit: print ${p}, limit ${limit}`);
      const fresh = model.freshAtPrint.get(fill.order_id!) === true;
      eq(priceTicks, fresh ? p : limit, `${where}: a limit fills at the print when marketable against its first print since arrival (modify, trigger), else at its limit (print ${p}, limit ${limit}, first print: ${fresh})`);
    }
  }
  const account = model.accounts.get(fill.account_id)!;
  const realized = model.book(fill.account_id, sign(fill.side), fill.quantity, priceTicks);
  eq(centsOf(fill.realized_pnl), realized, `${where}: realized P&L of a fill = Σ (close − open) × qty × $12.50/tick over the FIFO lots it closes`);
  eq(centsOf(fill.commission), account.commissionPerContractCents * fill.quantity, `${where}: commission = per-contract commission × quantity`);
  model.lastFillTicks = priceTicks;
}

function checkAccounts(ctx: Context, current: Map<string, Seen>): void {
  const { sim, model } = ctx;
  const mark = model.lastPrintTicks ?? model.lastFillTicks;
  for (const [accountId, account] of model.accounts) {
    const where = `${ctx.where} account ${accountId}`;
    const fills = sim.kernel.positions.fills(accountId);
    eq(fills.length, account.fillCount, `${where}: the position book holds every fill published`);
    const position = sim.kernel.positions.position(accountId, SYMBOL);
    const net = position?.netQuantity ?? 0;
    const netOfFills = fills.reduce((sum, f) => sum + sign(f.side) * f.quantity, 0);
    const netOfOrders =
      [...current.values()].filter((o) => o.json.account_id === accountId).reduce((sum, o) => sum + sign(o.json.side) * (o.json.filled_quantity as number), 0) + account.historicalNet;
    const netOfLots = account.lots.reduce((sum, lot) => sum + lot.sign * lot.quantity, 0);
    eq(net, netOfFills, `${where}: net position = Σ signed fill quantities`);
    eq(net, netOfOrders, `${where}: net position = Σ signed filled quantities of its orders + its historical fills`);
    eq(net, netOfLots, `${where}: net position = the model's open FIFO lots`);
    const realizedOfFills = fills.reduce((sum, f) => sum + f.realizedCents, 0);
    const commissionOfFills = fills.reduce((sum, f) => sum + f.commissionCents, 0);
    eq(position?.realizedCents ?? 0, realizedOfFills, `${where}: position realized P&L = Σ its fills' realized P&L`);
    eq(position?.realizedCents ?? 0, account.realizedCents, `${where}: position realized P&L = the model's FIFO realized P&L`);
    eq(position?.commissionCents ?? 0, commissionOfFills, `${where}: position commission = Σ its fills' commissions`);
    const unrealized = mark === undefined ? 0 : account.lots.reduce((sum, lot) => sum + (mark - lot.ticks) * lot.quantity * lot.sign * TICK_VALUE_CENTS, 0);
    eq(position?.unrealizedCents ?? 0, unrealized, `${where}: unrealized P&L = Σ open lots (mark − open) × qty × $12.50/tick, mark = last print else last fill`);
    const balance = sim.kernel.accountJson(sim.kernel.accounts.get(accountId));
    eq(centsOf(balance.balance), STARTING_BALANCE_CENTS + realizedOfFills - commissionOfFills, `${where}: balance = starting balance + Σ realized − Σ commissions`);
    eq(centsOf(balance.balance), STARTING_BALANCE_CENTS + account.realizedCents - account.commissionCents, `${where}: balance = the model's starting balance + realized − commissions`);
    eq(centsOf(balance.equity), centsOf(balance.balance) + unrealized, `${where}: equity = balance + unrealized P&L`);
  }
}

function checkPrint(ctx: Context, current: Map<string, Seen>, fills: readonly FillJson[]): void {
  const { command, model, sim } = ctx;
  if (command.kind !== 'print') return;
  const now = sim.kernel.nowMs;
  const venueFilled = fills.reduce((sum, f) => sum + f.quantity, 0);
  atMost(venueFilled, command.size ?? Infinity, `${ctx.where}: a print of size ${command.size ?? 'unlimited'} fills at most that size in all`);
  const filledGroups = new Set(fills.map((f) => model.groupOf.get(f.order_id!)).filter((g) => g !== undefined));
  for (const [id, { json, states }] of current) {
    const where = `${ctx.where} order ${id} (${json.side} ${json.type} ${json.time_in_force})`;
    const status = json.status as string;
    const arrived = (json.created_at as number) + model.latencyMs <= now;
    const was = model.status(id);
    if (was !== undefined && WORKING.has(was) && TERMINAL.has(status)) {
      contains(['FILLED', 'CANCELLED'], status, `${where}: a print ends an order only by filling or cancelling it`);
      if (status === 'CANCELLED') {
        const reason = states.at(-1)!.reason;
        const allowed = [json.time_in_force === 'ioc' ? 'ioc_remainder_cancelled' : json.time_in_force === 'fok' ? 'fok_not_filled' : undefined];
        if (filledGroups.has(model.groupOf.get(id) ?? '')) allowed.push('oco_sibling_filled');
        contains(allowed, reason, `${where}: a print cancels only an IOC/FOK remainder or an OCO sibling of an order it filled`);
      }
    }
    if (!arrived || !WORKING.has(status)) continue;
    eq(json.time_in_force === 'ioc' || json.time_in_force === 'fok', false, `${where}: IOC/FOK orders are settled at the first print after arrival`);
    if (command.size === undefined) {
      eq(fillableAt(ctx, id, json, command.priceTicks), false, `${where}: an unlimited print at ${command.price} fills every resting order it can fill (order still ${status})`);
    }
  }
  if (command.size !== undefined) checkSharing(ctx, current, fills, command.size, command.priceTicks);
}

/**
 * A sized print is shared by price, then arrival (docs/order-lifecycle.md#fill-model): no order the print could fill
 * goes short while an order at a strictly worse price gets some, and an order going short means the print's size was
 * used up.
 * Exempt: a FOK the remaining size cannot fill whole, and an OCO member cancelled because a sibling filled first.
 */
function checkSharing(ctx: Context, current: Map<string, Seen>, fills: readonly FillJson[], size: number, printTicks: number): void {
  const { model } = ctx;
  const got = new Map<string, number>();
  for (const f of fills) got.set(f.order_id!, (got.get(f.order_id!) ?? 0) + f.quantity);
  const candidates: Array<{ id: string; edge: number; short: boolean }> = [];
  for (const id of model.freshAtPrint.keys()) {
    const { json, states } = current.get(id)!;
    if (!fillableAt(ctx, id, json, printTicks)) continue;
    const before = model.orders.get(id)!.json;
    const remaining = (before.quantity as number) - (before.filled_quantity as number);
    const limit = json.type === 'limit' || json.type === 'stop_limit' ? ticksOf(json.limit_price as string) : undefined;
    const edge = limit === undefined ? Infinity : json.side === 'buy' ? limit - printTicks : printTicks - limit;
    const exempt = json.time_in_force === 'fok' || states.at(-1)!.reason === 'oco_sibling_filled';
    candidates.push({ id, edge, short: !exempt && (got.get(id) ?? 0) < remaining });
  }
  const used = fills.reduce((sum, f) => sum + f.quantity, 0);
  for (const short of candidates.filter((c) => c.short)) {
    eq(used, size, `${ctx.where}: order ${short.id} could fill at this print yet went short, so the print's size ${size} must be used up`);
    for (const other of candidates) {
      if ((got.get(other.id) ?? 0) > 0) ok(!(short.edge > other.edge), `${ctx.where}: price priority: ${short.id} (${short.edge} ticks through) went short while ${other.id} (${other.edge} ticks through) got a fill`);
    }
  }
}

function checkOco(ctx: Context, current: Map<string, Seen>, fills: readonly FillJson[]): void {
  for (const fill of fills) {
    const group = fill.order_id === null ? undefined : ctx.model.groupOf.get(fill.order_id);
    if (group === undefined) continue;
    for (const member of ctx.model.groups.get(group)!) {
      if (member === fill.order_id) continue;
      const status = current.get(member)!.json.status as string;
      eq(WORKING.has(status), false, `${ctx.where}: OCO ${group}: ${fill.order_id} filled, so sibling ${member} must not be working (it is ${status})`);
    }
  }
}

/** The DAY expiry rules around the session close (docs/order-lifecycle.md#expiry-and-gtc). */
function checkClose(ctx: Context, current: Map<string, Seen>): void {
  const { closeMs, sim, model } = ctx;
  if (closeMs === undefined) return;
  const now = sim.kernel.nowMs;
  for (const [id, { json, states }] of current) {
    const where = `${ctx.where} order ${id} (${json.type} ${json.time_in_force}, created ${json.created_at})`;
    const status = json.status as string;
    const arrivalMs = (json.created_at as number) + model.latencyMs;
    if (status === 'EXPIRED') {
      ne(json.time_in_force, 'gtc', `${where}: GTC orders never expire (DAY ones, and IOC/FOK never settled by a print, end at the close)`);
      eq(states.at(-1)!.occurred_at, closeMs, `${where}: a DAY order expires at the close of its session`);
    }
    if (now >= closeMs && json.time_in_force !== 'gtc' && arrivalMs < closeMs) {
      eq(WORKING.has(status), false, `${where}: a DAY (or unsettled IOC/FOK) order that reached the venue before the close is not working after it`);
    }
    const endedMs = states.find((r) => TERMINAL.has(r.status as string))?.occurred_at as number | undefined;
    const reachedVenue = arrivalMs <= now && (endedMs === undefined || endedMs >= arrivalMs);
    if (arrivalMs >= closeMs && reachedVenue) {
      eq(status, 'REJECTED', `${where}: an order reaching the venue during the maintenance halt (not cancelled on its way there) is refused`);
      contains(['market_closed', 'invalid_price', 'invalid_order'], (json.error as Json).code, `${where}: refused as market_closed (or for its own fault first)`);
    }
  }
}

/** After a command: arrivals and priority-losing modifies make an order fresh; a print makes none fresh. */
function updateVenue(ctx: Context, current: Map<string, Seen>): void {
  const { model, sim } = ctx;
  const now = sim.kernel.nowMs;
  for (const [id, { json, states }] of current) {
    let venue = model.venue.get(id);
    if (!venue) model.venue.set(id, (venue = { arrived: false, fresh: false, triggered: false }));
    if (ctx.command.kind === 'print') {
      venue.fresh = false;
    } else {
      if (!venue.arrived && (json.created_at as number) + model.latencyMs <= now) [venue.arrived, venue.fresh] = [true, true];
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
    if (hasStop(json)) eq(sim.kernel.desk.orders.get(id)!.triggered, venue.triggered, `${ctx.where} order ${id}: the stop triggered exactly when a print after arrival reached its stop`);
  }
}

function checkAll(ctx: Context): void {
  const { sim, model } = ctx;
  const current = readOrders(ctx);
  const fills = model.newFills;
  model.newFills = [];
  if (ctx.command.kind === 'fill') eq(fills.length, 1, `${ctx.where}: a historical fill books exactly one fill`);
  for (const fill of fills) checkFill(ctx, fill, current);
  if (ctx.command.kind === 'print') model.lastPrintTicks = ctx.command.priceTicks;
  const fillsByOrder = new Map<string, number>();
  for (const accountId of sim.accountIds) {
    for (const f of sim.kernel.positions.fills(accountId)) if (f.orderId !== null) fillsByOrder.set(f.orderId, (fillsByOrder.get(f.orderId) ?? 0) + f.quantity);
  }
  for (const [id, seen] of current) checkOrder(ctx, id, seen, fillsByOrder.get(id) ?? 0);
  const venueFills = fills.filter((f) => f.order_id !== null);
  checkPrint(ctx, current, venueFills);
  checkOco(ctx, current, venueFills);
  checkAccounts(ctx, current);
  checkClose(ctx, current);
  updateVenue(ctx, current);
  for (const [id, seen] of current) model.orders.set(id, seen);
}

/** Runs one command sequence, checking every invariant after every command; answers the sim for more checks. */
function runChecked(setup: RunSetup, commands: readonly Command[], options: { startMs?: number; closeMs?: number } = {}): { sim: Sim; model: Model } {
  const sim = newSim(setup, options.startMs === undefined ? {} : { startMs: options.startMs });
  const model = new Model(sim, setup);
  commands.forEach((command, i) => {
    const resolved = resolve(sim, command);
    const where = `#${i} ${JSON.stringify(resolved)}`;
    const expected = expectedStatus(model, resolved);
    if (resolved.kind === 'print') model.beforePrint(resolved.priceTicks);
    let outcome: Outcome<unknown> | undefined;
    try {
      outcome = run(sim, resolved);
    } catch (error) {
      throw new Error(`${where}: the kernel threw instead of answering a status: ${(error as Error).stack}`, { cause: error });
    }
    checkOutcome(model, resolved, expected, outcome, where);
    const ctx: Context = { sim, model, setup, command: resolved, where, ...(options.closeMs === undefined ? {} : { closeMs: options.closeMs }) };
    checkAll(ctx);
  });
  return { sim, model };
}

const NUM_RUNS = 300;

describe('docs/order-lifecycle.md: order lifecycle, model-based (random commands, invariants after every command)', () => {
  it('inside one session: statuses, histories, fills, positions, balances and OCO stay consistent', () => {
    fc.assert(
      fc.property(setupArb, fc.array(commandArb(500), { minLength: 1, maxLength: 60, size: 'max' }), (setup, commands) => {
        runChecked(setup, commands);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('across the 16:00 CT close: DAY (and unsettled IOC/FOK) orders expire at the close, GTC ones never do, arrivals in the halt are REJECTED', () => {
    const closeMs = calendar.sessionAt(T0, SYMBOL).closeMs;
    eq(closeMs, Date.parse('2026-03-10T21:00:00Z'), 'the harness session (trade date 2026-03-10) closes 16:00 CDT = 21:00Z');
    fc.assert(
      fc.property(setupArb, fc.array(commandArb(1000), { minLength: 1, maxLength: 40, size: 'max' }), (setup, commands) => {
        const { sim, model } = runChecked(setup, commands, { startMs: closeMs - 1500, closeMs });
        // Past the close and past every latency: every order has reached the venue, so only GTC orders may work.
        const end: Resolved = { kind: 'advance', ms: Math.max(closeMs - sim.kernel.nowMs, 0) + setup.fillModel.latencyMs + 1 };
        run(sim, end);
        checkAll({ sim, model, setup, command: end, where: 'after the close and every latency', closeMs });
        for (const id of sim.orderIds) {
          const json = model.orders.get(id)!.json;
          if (json.time_in_force !== 'gtc') eq(WORKING.has(json.status as string), false, `${String(json.time_in_force)} order ${id} is not working after the close: only GTC orders live on`);
        }
      }),
      { numRuns: NUM_RUNS / 2 },
    );
  });

  it('the ids used for refusals are unknown to the kernel', () => {
    const sim = newSim({ fillModel: { latencyMs: 0, cancelLatencyMs: 0, modifyLatencyMs: 0, slippageTicks: 0, limitFill: 'touch' }, commissionCents: 0 });
    eq(sim.kernel.getOrder(UNKNOWN_ORDER_ID).status, 404, 'the unknown order id answers 404');
    eq(sim.kernel.addOcoCompanion(UNKNOWN_GROUP_ID, UNKNOWN_ORDER_ID).status, 404, 'the unknown group id answers 404');
  });
});
