// Random kernel command sequences for the model-based order lifecycle test and the kernel determinism test:
// fast-check arbitraries for the commands (ES, ESM6, prices on the 0.25 grid in 4995.00–5005.00 so orders
// actually fill), and an interpreter that resolves "pick an order / a group" against what exists so far and
// runs the command the way a driver does.
import fc from 'fast-check';
import type { Kernel } from '../../src/core/kernel/kernel.js';
import type { Outcome } from '../../src/core/outcome.js';
import type { FillModel } from '../../src/core/orders/fill-model.js';
import type { OrderType, Side, TimeInForce } from '../../src/core/orders/order-types.js';
import { formatCents } from '../../src/core/money.js';
import { harness } from '../core/kernel/kernel-harness.js';
import { testPlan } from '../core/kernel/test-plans.js';

export const SYMBOL = 'ESM6';
/** ES: 0.25 a tick, $12.50 a tick. */
export const TICKS_PER_POINT = 4;
export const TICK_VALUE_CENTS = 1250;
export const BAND_LOW_TICKS = 4995 * TICKS_PER_POINT;
export const BAND_HIGH_TICKS = 5005 * TICKS_PER_POINT;
/** $10M with a $9M static drawdown and an unreachable profit target: no breach, lock or pass in these runs. */
export const STARTING_BALANCE_CENTS = 1_000_000_000;
/** An order id the kernel never issued (its ids come from a seeded generator: this one is not among them). */
export const UNKNOWN_ORDER_ID = '00000000-0000-4000-8000-000000000000';
export const UNKNOWN_GROUP_ID = '00000000-0000-4000-8000-00000000000f';

export function priceOf(ticks: number): string {
  return (ticks / TICKS_PER_POINT).toFixed(2);
}

/** Ticks of a price the kernel wrote ("5000.25", "4999.50"); exact for quarter-point prices. */
export function ticksOf(price: string): number {
  const ticks = Number(price) * TICKS_PER_POINT;
  if (!Number.isInteger(ticks)) throw new Error(`price ${price} is off the ES grid`);
  return ticks;
}

// ---- commands ----

/** Mostly true: a modify, link or companion shaped to be accepted (fields the order has, orders that can join), sometimes not. */
const fitting = fc.integer({ min: 0, max: 4 }).map((x) => x !== 0);

/** Which order a command targets: an index into the orders so far (among the working ones when `working`), or an unknown id. */
export interface Pick {
  n: number;
  working: boolean;
  unknown: boolean;
}

export type Command =
  | { kind: 'place'; account: number; side: Side; type: OrderType; tif: TimeInForce; quantity: number; limitPrice: string; stopPrice: string; malformed: boolean }
  | { kind: 'modify'; pick: Pick; quantity: number | undefined; limitPrice: string | undefined; stopPrice: string | undefined; fitting: boolean }
  | { kind: 'cancel'; pick: Pick }
  | { kind: 'link'; picks: Pick[]; fitting: boolean }
  | { kind: 'companion'; group: number; unknownGroup: boolean; pick: Pick; fitting: boolean }
  | { kind: 'print'; priceTicks: number; size: number | undefined }
  | { kind: 'advance'; ms: number }
  | { kind: 'fill'; account: number; side: Side; quantity: number; price: string; agoMs: number | undefined };

const side = fc.constantFrom<Side>('buy', 'sell');
const bandTicks = fc.integer({ min: BAND_LOW_TICKS, max: BAND_HIGH_TICKS });
const gridPrice = bandTicks.map(priceOf);
/** x.10, x.35, x.60, x.85: decimals, but off the 0.25 grid (REJECTED invalid_price on a new order, a rejected modify). */
const offGridPrice = bandTicks.map((t) => (t / TICKS_PER_POINT + 0.1).toFixed(2));
const price = fc.oneof({ weight: 19, arbitrary: gridPrice }, { weight: 1, arbitrary: offGridPrice });
const pick: fc.Arbitrary<Pick> = fc.record({ n: fc.nat(1000), working: fc.boolean(), unknown: fc.integer({ min: 0, max: 24 }).map((x) => x === 0) });

const place = fc.record({
  kind: fc.constant('place' as const),
  account: fc.nat(5),
  side,
  type: fc.constantFrom<OrderType>('market', 'limit', 'stop', 'stop_limit'),
  tif: fc.oneof({ weight: 3, arbitrary: fc.constantFrom<TimeInForce>('day', 'gtc') }, { weight: 1, arbitrary: fc.constantFrom<TimeInForce>('ioc', 'fok') }),
  quantity: fc.integer({ min: 1, max: 5 }),
  limitPrice: price,
  stopPrice: price,
  malformed: fc.integer({ min: 0, max: 29 }).map((x) => x === 0),
});

const modify = fc.record({
  kind: fc.constant('modify' as const),
  pick,
  quantity: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  limitPrice: fc.option(price, { nil: undefined }),
  stopPrice: fc.option(price, { nil: undefined, freq: 3 }),
  fitting,
});

const cancel = fc.record({ kind: fc.constant('cancel' as const), pick });
const link = fc.record({ kind: fc.constant('link' as const), picks: fc.array(pick, { minLength: 2, maxLength: 3 }), fitting });
const companion = fc.record({
  kind: fc.constant('companion' as const),
  group: fc.nat(1000),
  unknownGroup: fc.integer({ min: 0, max: 9 }).map((x) => x === 0),
  pick,
  fitting,
});
const print = fc.record({
  kind: fc.constant('print' as const),
  priceTicks: bandTicks,
  size: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined, freq: 3 }),
});
const fill = fc.record({
  kind: fc.constant('fill' as const),
  account: fc.nat(5),
  side,
  quantity: fc.integer({ min: 1, max: 5 }),
  price: gridPrice,
  agoMs: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
});

export function commandArb(maxAdvanceMs = 500): fc.Arbitrary<Command> {
  const advance = fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: maxAdvanceMs }) });
  return fc.oneof(
    { weight: 6, arbitrary: place },
    { weight: 2, arbitrary: modify },
    { weight: 2, arbitrary: cancel },
    { weight: 1, arbitrary: link },
    { weight: 1, arbitrary: companion },
    { weight: 6, arbitrary: print },
    { weight: 3, arbitrary: advance },
    { weight: 1, arbitrary: fill },
  );
}

export interface RunSetup {
  fillModel: FillModel;
  /** Commission per contract of the second account (the first pays none). */
  commissionCents: number;
}

export const setupArb: fc.Arbitrary<RunSetup> = fc.record({
  fillModel: fc.record({
    latencyMs: fc.integer({ min: 0, max: 300 }),
    cancelLatencyMs: fc.integer({ min: 0, max: 300 }),
    modifyLatencyMs: fc.integer({ min: 0, max: 300 }),
    slippageTicks: fc.integer({ min: 0, max: 2 }),
    limitFill: fc.constantFrom<'touch' | 'through'>('touch', 'through'),
  }),
  commissionCents: fc.integer({ min: 0, max: 500 }),
});

// ---- interpreter ----

export interface Sim {
  kernel: Kernel;
  /**
   * One account without commission and one paying `commissionCents` per contract, both on a roomy plan; with
   * `tightAccount`, also the harness's (static $2,000 drawdown) whose breaches cancel and flatten.
   */
  accountIds: readonly string[];
  /** Every order the kernel accepted, in order placed. */
  orderIds: string[];
  /** Every OCO group linked, in order linked. */
  groupIds: string[];
}

/** A plan whose risk rules stay out of the way: the order lifecycle is what these runs exercise. */
function roomyPlan(commissionCents: number) {
  return testPlan({
    starting_balance: formatCents(STARTING_BALANCE_CENTS),
    risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '9000000' },
    passing_criteria: { profit_target: '1000000000' },
    commission_per_contract: formatCents(commissionCents),
  });
}

export function newSim(setup: RunSetup, options: { startMs?: number; seed?: number; tightAccount?: boolean } = {}): Sim {
  const { tightAccount = false, ...kernelOptions } = options;
  const { kernel, accountId } = harness(setup.fillModel, kernelOptions);
  const open = (commissionCents: number) => {
    const opened = kernel.openAccount({ plan: roomyPlan(commissionCents) });
    if (!opened.ok) throw new Error(`opening an account failed: ${JSON.stringify(opened.body)}`);
    return opened.body.account_id as string;
  };
  const accountIds = [open(0), open(setup.commissionCents)];
  if (tightAccount) accountIds.push(accountId);
  return { kernel, accountIds, orderIds: [], groupIds: [] };
}

/** A command with its picks resolved to ids: what the kernel is actually asked. */
export type Resolved =
  | { kind: 'place'; body: Record<string, unknown> }
  | { kind: 'modify'; orderId: string; body: Record<string, unknown> }
  | { kind: 'cancel'; orderId: string }
  | { kind: 'link'; orderIds: string[] }
  | { kind: 'companion'; groupId: string; orderId: string }
  | { kind: 'print'; price: string; priceTicks: number; size: number | undefined }
  | { kind: 'advance'; ms: number }
  | { kind: 'fill'; accountId: string; side: Side; quantity: number; price: string; occurredAtMs: number | undefined };

function isWorking(kernel: Kernel, orderId: string): boolean {
  const status = kernel.desk.orders.get(orderId)?.status;
  return status === 'SUBMITTED' || status === 'PARTIALLY_FILLED';
}

function resolvePick(sim: Sim, p: Pick, among: (id: string) => boolean = () => true): string {
  if (p.unknown || sim.orderIds.length === 0) return UNKNOWN_ORDER_ID;
  const candidates = sim.orderIds.filter(among);
  const working = p.working ? candidates.filter((id) => isWorking(sim.kernel, id)) : [];
  const from = working.length > 0 ? working : candidates.length > 0 ? candidates : sim.orderIds;
  return from[p.n % from.length]!;
}

/** Orders that can join an OCO group of `accountId`: working, in no group, same account. */
function canJoin(sim: Sim, accountId: string | undefined, taken: readonly string[]): (id: string) => boolean {
  return (id) => {
    const order = sim.kernel.desk.orders.get(id)!;
    return isWorking(sim.kernel, id) && order.ocoGroupId === undefined && (accountId === undefined || order.accountId === accountId) && !taken.includes(id);
  };
}

export function resolve(sim: Sim, command: Command): Resolved {
  switch (command.kind) {
    case 'place': {
      const body: Record<string, unknown> = {
        account_id: sim.accountIds[command.account % sim.accountIds.length]!,
        instrument_id: SYMBOL,
        side: command.side,
        type: command.type,
        quantity: command.malformed ? 0 : command.quantity,
        time_in_force: command.tif,
      };
      if (command.type === 'limit' || command.type === 'stop_limit') body.limit_price = command.limitPrice;
      if (command.type === 'stop' || command.type === 'stop_limit') body.stop_price = command.stopPrice;
      return { kind: 'place', body };
    }
    case 'modify': {
      const body: Record<string, unknown> = {};
      if (command.quantity !== undefined) body.quantity = command.quantity;
      const orderId = resolvePick(sim, command.pick);
      const type = sim.kernel.desk.orders.get(orderId)?.type;
      // A fitting modify changes only prices the order has; left empty, it raises the quantity by one.
      const has = (field: 'limit' | 'stop') => !command.fitting || type === field || type === 'stop_limit';
      if (command.limitPrice !== undefined && has('limit')) body.limit_price = command.limitPrice;
      if (command.stopPrice !== undefined && has('stop')) body.stop_price = command.stopPrice;
      if (command.fitting && Object.keys(body).length === 0) body.quantity = (sim.kernel.desk.orders.get(orderId)?.quantity ?? 0) + 1;
      return { kind: 'modify', orderId, body };
    }
    case 'cancel':
      return { kind: 'cancel', orderId: resolvePick(sim, command.pick) };
    case 'link': {
      if (!command.fitting) return { kind: 'link', orderIds: command.picks.map((p) => resolvePick(sim, p)) };
      const orderIds: string[] = [];
      for (const p of command.picks) orderIds.push(resolvePick(sim, p, canJoin(sim, sim.kernel.desk.orders.get(orderIds[0] ?? '')?.accountId, orderIds)));
      return { kind: 'link', orderIds };
    }
    case 'companion': {
      const groupId = command.unknownGroup || sim.groupIds.length === 0 ? UNKNOWN_GROUP_ID : sim.groupIds[command.group % sim.groupIds.length]!;
      const accountId = sim.kernel.desk.oco.accountOf(groupId);
      return { kind: 'companion', groupId, orderId: resolvePick(sim, command.pick, command.fitting ? canJoin(sim, accountId, []) : undefined) };
    }
    case 'print':
      return { kind: 'print', price: priceOf(command.priceTicks), priceTicks: command.priceTicks, size: command.size };
    case 'advance':
      return command;
    case 'fill': {
      const occurredAtMs = command.agoMs === undefined ? undefined : sim.kernel.nowMs - command.agoMs;
      return { kind: 'fill', accountId: sim.accountIds[command.account % sim.accountIds.length]!, side: command.side, quantity: command.quantity, price: command.price, occurredAtMs };
    }
  }
}

/**
 * Runs one resolved command through the kernel's driver API (time moves by the journaled `advance`). The kernel
 * itself does the work a command made due now (a zero-latency arrival or cancel) before the next input; the
 * model test relies on that. Returns the command's outcome, if it has one.
 */
export function run(sim: Sim, command: Resolved): Outcome<unknown> | undefined {
  const { kernel } = sim;
  let outcome: Outcome<unknown> | undefined;
  switch (command.kind) {
    case 'place': {
      const placed = kernel.placeOrder(command.body);
      if (placed.ok) sim.orderIds.push(placed.body.order_id as string);
      outcome = placed;
      break;
    }
    case 'modify':
      outcome = kernel.modifyOrder(command.orderId, command.body);
      break;
    case 'cancel':
      outcome = kernel.cancelOrder(command.orderId);
      break;
    case 'link': {
      const linked = kernel.linkOco(command.orderIds);
      if (linked.ok) sim.groupIds.push(linked.body.group_id as string);
      outcome = linked;
      break;
    }
    case 'companion':
      outcome = kernel.addOcoCompanion(command.groupId, command.orderId);
      break;
    case 'print':
      kernel.printInput(SYMBOL, command.price, command.size);
      break;
    case 'advance':
      kernel.advance(kernel.nowMs + command.ms);
      break;
    case 'fill': {
      const base = { accountId: command.accountId, symbol: SYMBOL, side: command.side, quantity: command.quantity, price: command.price };
      outcome = kernel.recordFill(command.occurredAtMs === undefined ? base : { ...base, occurredAtMs: command.occurredAtMs });
      break;
    }
  }
  return outcome;
}
