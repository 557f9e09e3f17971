// Model-based test of the order lifecycle (RULES §6, §7): random sequences of place / modify / cancel / OCO link
// and companion / print / advance / historical fill against a kernel with a random fill model, checking after
// every command the invariants the rules imply. The model keeps what it saw (order snapshots and status
// histories, OCO groups, the fills published on the event bus) and an independent FIFO ledger per account.
import fc from 'fast-check';
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

  status(id: string): string | undefined {
    return this.orders.get(id)?.json.status as string | undefined;
  }

  /** Books a fill FIFO and answers the realized P&L the rules give it (RULES §7). */
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

function centsOf(money: unknown): number {
  if (typeof money !== 'string' || !/^-?\d+\.\d{2}$/.test(money)) throw new Error(`not a money string: ${String(money)}`);
  return Number(money.replace('.', '')) + 0;
}

const sign = (side: unknown): 1 | -1 => (side === 'buy' ? 1 : -1);

// ---- expected outcomes of the commands (spec/interface.md statuses, RULES §6) ----

function expectedStatus(model: Model, command: Resolved): number | undefined {
  const known = (id: string) => model.orders.has(id);
  const terminal = (id: string) => TERMINAL.has(model.status(id)!);
  const accountOf = (id: string) => model.orders.get(id)!.json.account_id;
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
      return 201;
    }
    case 'companion': {
      const members = model.groups.get(command.groupId);
      if (members === undefined || !known(command.orderId)) return 404;
      if (terminal(command.orderId) || model.groupOf.has(command.orderId)) return 409;
      return accountOf(command.orderId) === accountOf(members[0]!) ? 200 : 400;
    }
    case 'fill':
      return 201;
    case 'print':
    case 'advance':
      return undefined;
  }
}

function checkOutcome(model: Model, command: Resolved, expected: number | undefined, outcome: Outcome<unknown> | undefined, where: string): void {
  expect(outcome?.status, `${where}: the command answers ${expected ?? 'nothing'} (${JSON.stringify(outcome?.body)})`).toBe(expected);
  if (!outcome?.ok) return;
  const body = outcome.body as Json;
  if (command.kind === 'place') {
    expect(body.status, `${where}: POST answers 202 with the order SUBMITTED`).toBe('SUBMITTED');
    expect(body.filled_quantity, `${where}: a new order has filled nothing`).toBe(0);
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
  expect(sim.kernel.desk.orders.size, `${where}: the kernel holds exactly the orders it answered 202 for`).toBe(sim.orderIds.length);
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
  expect(STATUSES.has(status), `${where}: status ${status} is one of the six`).toBe(true);
  expect(Number.isSafeInteger(quantity) && quantity >= 1, `${where}: quantity ${quantity} is an integer ≥ 1`).toBe(true);
  expect(Number.isSafeInteger(filled) && filled >= 0 && filled <= quantity, `${where}: 0 ≤ filled ${filled} ≤ quantity ${quantity}`).toBe(true);
  const remaining = TERMINAL.has(status) ? 0 : quantity - filled;
  expect(json.remaining_quantity, `${where}: remaining = quantity − filled while working, 0 once final`).toBe(remaining);
  if (status === 'FILLED') expect(filled, `${where}: FILLED means filled = quantity`).toBe(quantity);
  if (status === 'PARTIALLY_FILLED') expect(filled > 0 && filled < quantity, `${where}: PARTIALLY_FILLED means 0 < filled ${filled} < quantity ${quantity}`).toBe(true);
  if (status === 'SUBMITTED') expect(filled, `${where}: SUBMITTED has filled nothing (a fill makes it PARTIALLY_FILLED or FILLED)`).toBe(0);
  if (status === 'REJECTED') {
    expect(filled, `${where}: a REJECTED order never reached the book`).toBe(0);
    expect(json.error, `${where}: a REJECTED order carries an error payload {code, message}`).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  } else {
    expect(json.error, `${where}: only a REJECTED order has an error payload`).toBeNull();
  }
  expect(json.average_fill_price === null, `${where}: average_fill_price is null exactly while nothing is filled`).toBe(filled === 0);
  expect(fillsOfOrder, `${where}: Σ the order's fills = filled_quantity`).toBe(filled);
  expect(json.oco_group_id, `${where}: the OCO group is the one it was linked to`).toBe(model.groupOf.get(id) ?? null);

  // status history: starts SUBMITTED, ends at the status, time never goes back, one orders.state event per record
  expect(states.length >= 1 && states[0]!.status === 'SUBMITTED', `${where}: the history starts with SUBMITTED`).toBe(true);
  expect(states.at(-1)!.status, `${where}: the last status record is the current status`).toBe(status);
  for (let i = 1; i < states.length; i++) {
    expect((states[i]!.occurred_at as number) >= (states[i - 1]!.occurred_at as number), `${where}: status records are in time order`).toBe(true);
  }
  expect(states.at(-1)!.occurred_at as number, `${where}: no status record is in the future`).toBeLessThanOrEqual(sim.kernel.nowMs);
  expect(model.stateEvents.get(id), `${where}: every status record was published once as orders.state`).toBe(states.length);

  // append-only, terminal is final
  const before = model.orders.get(id);
  if (before) {
    expect(states.slice(0, before.states.length), `${where}: history only grows: the previous history is a prefix of this one`).toEqual(before.states);
    if (TERMINAL.has(before.json.status as string)) {
      expect(json, `${where}: ${String(before.json.status)} is final: the order never changes again`).toEqual(before.json);
      expect(states.length, `${where}: ${String(before.json.status)} is final: its history never grows again`).toBe(before.states.length);
    }
  }

  // IOC and FOK (RULES §6): settled at their first print; FOK all or nothing
  if (json.time_in_force === 'ioc' || json.time_in_force === 'fok') {
    expect(status, `${where}: an IOC/FOK order keeps nothing working after a partial fill`).not.toBe('PARTIALLY_FILLED');
  }
  if (json.time_in_force === 'fok') expect(filled === 0 || filled === quantity, `${where}: FOK fills all or nothing (filled ${filled} of ${quantity})`).toBe(true);
}

/** True when a print at `printTicks` (unlimited size) must fill the order, were it resting at the venue. */
function fillableAt(ctx: Context, id: string, json: Json, printTicks: number): boolean {
  const internal = ctx.sim.kernel.desk.orders.get(id)!;
  const buy = json.side === 'buy';
  const touch = ctx.setup.fillModel.limitFill === 'touch';
  const limitOk = () => {
    const limit = ticksOf(json.limit_price as string);
    const edge = buy ? limit - printTicks : printTicks - limit;
    return touch ? edge >= 0 : edge > 0;
  };
  const stopHit = () => internal.triggered || (buy ? printTicks >= ticksOf(json.stop_price as string) : printTicks <= ticksOf(json.stop_price as string));
  switch (json.type) {
    case 'market':
      return true;
    case 'limit':
      return limitOk();
    case 'stop':
      return stopHit();
    default:
      return stopHit() && limitOk();
  }
}

function checkFill(ctx: Context, fill: FillJson, current: Map<string, Seen>): void {
  const { command, sim, setup, model } = ctx;
  const where = `${ctx.where} fill ${fill.execution_id}`;
  const now = sim.kernel.nowMs;
  expect(fill.instrument_id, `${where}: every fill here is of ${SYMBOL}`).toBe(SYMBOL);
  const priceTicks = ticksOf(fill.price);
  if (command.kind === 'fill') {
    expect(fill, `${where}: a historical fill is booked as given, without an order`).toMatchObject({
      order_id: null,
      account_id: command.accountId,
      side: command.side,
      quantity: command.quantity,
      price: command.price,
      occurred_at: command.occurredAtMs ?? now,
    });
    model.accounts.get(fill.account_id)!.historicalNet += sign(fill.side) * fill.quantity;
  } else {
    expect(command.kind, `${where}: venue fills happen only at prints`).toBe('print');
    if (command.kind !== 'print') return;
    const order = current.get(fill.order_id ?? '')?.json;
    if (!order) throw new Error(`${where}: the fill names order ${fill.order_id}, which the kernel never accepted`);
    expect([fill.account_id, fill.side], `${where}: the fill is on the order's account and side`).toEqual([order.account_id, order.side]);
    expect(fill.occurred_at, `${where}: a venue fill happens at the print`).toBe(now);
    expect((order.created_at as number) + setup.fillModel.latencyMs, `${where}: an order fills only at prints after its arrival (latency ${setup.fillModel.latencyMs} ms)`).toBeLessThanOrEqual(now);
    const buy = order.side === 'buy';
    const p = command.priceTicks;
    const internal = sim.kernel.desk.orders.get(fill.order_id!)!;
    if (order.type === 'market' || order.type === 'stop') {
      if (order.type === 'stop') expect(internal.triggered, `${where}: a stop fills only once triggered`).toBe(true);
      expect(priceTicks, `${where}: a market (or triggered stop) fills at the print moved ${setup.fillModel.slippageTicks} ticks against it`).toBe(buy ? p + setup.fillModel.slippageTicks : p - setup.fillModel.slippageTicks);
    } else {
      if (order.type === 'stop_limit') expect(internal.triggered, `${where}: a stop-limit fills only once triggered`).toBe(true);
      const limit = ticksOf(order.limit_price as string);
      const edge = buy ? limit - p : p - limit;
      expect(setup.fillModel.limitFill === 'touch' ? edge >= 0 : edge > 0, `${where}: a limit fills only at a print at (touch) or through (through) its limit: print ${p}, limit ${limit}`).toBe(true);
      expect([p, limit].includes(priceTicks), `${where}: a limit fills at the print or at its limit (got ${priceTicks}, print ${p}, limit ${limit})`).toBe(true);
    }
  }
  const account = model.accounts.get(fill.account_id)!;
  const realized = model.book(fill.account_id, sign(fill.side), fill.quantity, priceTicks);
  expect(centsOf(fill.realized_pnl), `${where}: realized P&L of a fill = Σ (close − open) × qty × $12.50/tick over the FIFO lots it closes`).toBe(realized);
  expect(centsOf(fill.commission), `${where}: commission = per-contract commission × quantity`).toBe(account.commissionPerContractCents * fill.quantity);
  model.lastFillTicks = priceTicks;
}

function checkAccounts(ctx: Context, current: Map<string, Seen>): void {
  const { sim, model } = ctx;
  const mark = model.lastPrintTicks ?? model.lastFillTicks;
  for (const [accountId, account] of model.accounts) {
    const where = `${ctx.where} account ${accountId}`;
    const fills = sim.kernel.positions.fills(accountId);
    expect(fills.length, `${where}: the position book holds every fill published`).toBe(account.fillCount);
    const position = sim.kernel.positions.position(accountId, SYMBOL);
    const net = position?.netQuantity ?? 0;
    const netOfFills = fills.reduce((sum, f) => sum + sign(f.side) * f.quantity, 0);
    const netOfOrders =
      [...current.values()].filter((o) => o.json.account_id === accountId).reduce((sum, o) => sum + sign(o.json.side) * (o.json.filled_quantity as number), 0) + account.historicalNet;
    const netOfLots = account.lots.reduce((sum, lot) => sum + lot.sign * lot.quantity, 0);
    expect(net, `${where}: net position = Σ signed fill quantities`).toBe(netOfFills);
    expect(net, `${where}: net position = Σ signed filled quantities of its orders + its historical fills`).toBe(netOfOrders);
    expect(net, `${where}: net position = the model's open FIFO lots`).toBe(netOfLots);
    const realizedOfFills = fills.reduce((sum, f) => sum + f.realizedCents, 0);
    const commissionOfFills = fills.reduce((sum, f) => sum + f.commissionCents, 0);
    expect(position?.realizedCents ?? 0, `${where}: position realized P&L = Σ its fills' realized P&L`).toBe(realizedOfFills);
    expect(position?.realizedCents ?? 0, `${where}: position realized P&L = the model's FIFO realized P&L`).toBe(account.realizedCents);
    expect(position?.commissionCents ?? 0, `${where}: position commission = Σ its fills' commissions`).toBe(commissionOfFills);
    const unrealized = mark === undefined ? 0 : account.lots.reduce((sum, lot) => sum + (mark - lot.ticks) * lot.quantity * lot.sign * TICK_VALUE_CENTS, 0);
    expect(position?.unrealizedCents ?? 0, `${where}: unrealized P&L = Σ open lots (mark − open) × qty × $12.50/tick, mark = last print else last fill`).toBe(unrealized);
    const balance = sim.kernel.accountJson(sim.kernel.accounts.get(accountId));
    expect(centsOf(balance.balance), `${where}: balance = starting balance + Σ realized − Σ commissions`).toBe(STARTING_BALANCE_CENTS + realizedOfFills - commissionOfFills);
    expect(centsOf(balance.balance), `${where}: balance = the model's starting balance + realized − commissions`).toBe(STARTING_BALANCE_CENTS + account.realizedCents - account.commissionCents);
    expect(centsOf(balance.equity), `${where}: equity = balance + unrealized P&L`).toBe(centsOf(balance.balance) + unrealized);
  }
}

function checkPrint(ctx: Context, current: Map<string, Seen>, fills: readonly FillJson[]): void {
  const { command, model, sim } = ctx;
  if (command.kind !== 'print') return;
  const now = sim.kernel.nowMs;
  const venueFilled = fills.reduce((sum, f) => sum + f.quantity, 0);
  expect(venueFilled, `${ctx.where}: a print of size ${command.size ?? 'unlimited'} fills at most that size in all`).toBeLessThanOrEqual(command.size ?? Infinity);
  const filledGroups = new Set(fills.map((f) => model.groupOf.get(f.order_id!)).filter((g) => g !== undefined));
  for (const [id, { json, states }] of current) {
    const where = `${ctx.where} order ${id} (${json.side} ${json.type} ${json.time_in_force})`;
    const status = json.status as string;
    const arrived = (json.created_at as number) + model.latencyMs <= now;
    const was = model.status(id);
    if (was !== undefined && WORKING.has(was) && TERMINAL.has(status)) {
      expect(['FILLED', 'CANCELLED'], `${where}: a print ends an order only by filling or cancelling it`).toContain(status);
      if (status === 'CANCELLED') {
        const reason = states.at(-1)!.reason;
        const allowed = [json.time_in_force === 'ioc' ? 'ioc_remainder_cancelled' : json.time_in_force === 'fok' ? 'fok_not_filled' : undefined];
        if (filledGroups.has(model.groupOf.get(id) ?? '')) allowed.push('oco_sibling_filled');
        expect(allowed, `${where}: a print cancels only an IOC/FOK remainder or an OCO sibling of an order it filled`).toContain(reason);
      }
    }
    if (!arrived || !WORKING.has(status)) continue;
    expect(json.time_in_force === 'ioc' || json.time_in_force === 'fok', `${where}: IOC/FOK orders are settled at the first print after arrival`).toBe(false);
    if (command.size === undefined) {
      expect(fillableAt(ctx, id, json, command.priceTicks), `${where}: an unlimited print at ${command.price} fills every resting order it can fill (order still ${status})`).toBe(false);
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
      expect(WORKING.has(status), `${ctx.where}: OCO ${group}: ${fill.order_id} filled, so sibling ${member} must not be working (it is ${status})`).toBe(false);
    }
  }
}

/** The DAY expiry rules around the session close (RULES §6, §1). */
function checkClose(ctx: Context, current: Map<string, Seen>): void {
  const { closeMs, sim, model } = ctx;
  if (closeMs === undefined) return;
  const now = sim.kernel.nowMs;
  for (const [id, { json, states }] of current) {
    const where = `${ctx.where} order ${id} (${json.type} ${json.time_in_force}, created ${json.created_at})`;
    const status = json.status as string;
    const arrivalMs = (json.created_at as number) + model.latencyMs;
    if (status === 'EXPIRED') {
      expect(json.time_in_force, `${where}: only DAY orders expire`).toBe('day');
      expect(states.at(-1)!.occurred_at, `${where}: a DAY order expires at the close of its session`).toBe(closeMs);
    }
    if (now >= closeMs && json.time_in_force === 'day' && arrivalMs < closeMs) {
      expect(WORKING.has(status), `${where}: a DAY order that reached the venue before the close is not working after it`).toBe(false);
    }
    const endedMs = states.find((r) => TERMINAL.has(r.status as string))?.occurred_at as number | undefined;
    const reachedVenue = arrivalMs <= now && (endedMs === undefined || endedMs >= arrivalMs);
    if (arrivalMs >= closeMs && reachedVenue) {
      expect(status, `${where}: an order reaching the venue during the maintenance halt (not cancelled on its way there) is refused`).toBe('REJECTED');
      expect(['market_closed', 'invalid_price', 'invalid_order'], `${where}: refused as market_closed (or for its own fault first)`).toContain((json.error as Json).code);
    }
  }
}

function checkAll(ctx: Context): void {
  const { sim, model } = ctx;
  const current = readOrders(ctx);
  const fills = model.newFills;
  model.newFills = [];
  if (ctx.command.kind === 'fill') expect(fills.length, `${ctx.where}: a historical fill books exactly one fill`).toBe(1);
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

const NUM_RUNS = 200;

describe('RULES §6–7: order lifecycle, model-based (random commands, invariants after every command)', () => {
  it('inside one session: statuses, histories, fills, positions, balances and OCO stay consistent', () => {
    fc.assert(
      fc.property(setupArb, fc.array(commandArb(500), { minLength: 1, maxLength: 60, size: 'max' }), (setup, commands) => {
        runChecked(setup, commands);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('across the 16:00 CT close: DAY orders expire at the close, GTC ones never do, arrivals in the halt are REJECTED', () => {
    const closeMs = calendar.sessionAt(T0, SYMBOL).closeMs;
    expect(closeMs, 'the harness session (trade date 2026-03-10) closes 16:00 CDT = 21:00Z').toBe(Date.parse('2026-03-10T21:00:00Z'));
    fc.assert(
      fc.property(setupArb, fc.array(commandArb(1000), { minLength: 1, maxLength: 40, size: 'max' }), (setup, commands) => {
        const { sim, model } = runChecked(setup, commands, { startMs: closeMs - 3000, closeMs });
        // Past the close and past every latency: every order has reached the venue, so no DAY order is working.
        const end: Resolved = { kind: 'advance', ms: Math.max(closeMs - sim.kernel.nowMs, 0) + setup.fillModel.latencyMs + 1 };
        run(sim, end);
        checkAll({ sim, model, setup, command: end, where: 'after the close and every latency', closeMs });
        for (const id of sim.orderIds) {
          const json = model.orders.get(id)!.json;
          if (json.time_in_force === 'day') expect(WORKING.has(json.status as string), `DAY order ${id} is not working after the close`).toBe(false);
        }
      }),
      { numRuns: NUM_RUNS / 2 },
    );
  });

  it('the ids used for refusals are unknown to the kernel', () => {
    const sim = newSim({ fillModel: { latencyMs: 0, cancelLatencyMs: 0, modifyLatencyMs: 0, slippageTicks: 0, limitFill: 'touch' }, commissionCents: 0 });
    expect(sim.kernel.getOrder(UNKNOWN_ORDER_ID).status, 'the unknown order id answers 404').toBe(404);
    expect(sim.kernel.addOcoCompanion(UNKNOWN_GROUP_ID, UNKNOWN_ORDER_ID).status, 'the unknown group id answers 404').toBe(404);
  });
});
