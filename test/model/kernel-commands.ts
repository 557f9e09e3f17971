// Random kernel command sequences for the model-based order lifecycle test and the kernel determinism test:
// fast-check arbitraries for the commands (three instruments of two product families, model-instruments.ts;
// prices within ±20 ticks of each instrument's base so orders actually fill), and an interpreter that resolves
// "pick an order / a group" against what exists so far and runs the command the way a driver does. Firm
// operations (lockout with or without flatten, unlock, flatten, cancel-all) bring the risk engine's orders in,
// and picks may aim a client's cancel or modify at one of them.
import fc from 'fast-check';
import { Kernel } from '../../src/core/kernel/kernel.js';
import type { Outcome } from '../../src/core/outcome.js';
import type { FillModel } from '../../src/core/orders/fill-model.js';
import type { OrderType, Side, TimeInForce } from '../../src/core/orders/order-types.js';
import { formatCents } from '../../src/core/money.js';
import { T0, calendar } from '../core/kernel/kernel-harness.js';
import { openAccount } from './model-kernel.js';
import { modelPlan } from './model-plans.js';
import { ES, INSTRUMENTS, instrumentOf, offGridPriceOf, priceOf, type ModelInstrument } from './model-instruments.js';

/** Prices stay within this many ticks of each instrument's base. */
export const BAND_TICKS = 20;
/** $10M with a $9M static drawdown and an unreachable profit target: no breach, lock or pass on these two. */
export const STARTING_BALANCE_CENTS = 1_000_000_000;
/** An order id the kernel never issued (its ids come from a seeded generator: this one is not among them). */
export const UNKNOWN_ORDER_ID = '00000000-0000-4000-8000-000000000000';
export const UNKNOWN_GROUP_ID = '00000000-0000-4000-8000-00000000000f';

// ---- commands ----

/** Mostly true: a modify, link or companion shaped to be accepted (fields the order has, orders that can join),
 * sometimes not. */
const fitting = fc.integer({ min: 0, max: 4 }).map((x) => x !== 0);

/**
 * Which order a command targets: an index into the client's orders so far, or into the risk engine's when
 * `risk` and it sent some (among the working ones when `working`), or an unknown id.
 */
export interface Pick {
  n: number;
  working: boolean;
  risk: boolean;
  unknown: boolean;
}

/** A price drawn as ticks from the instrument's base, sometimes off its tick grid. */
export interface PriceDraw {
  offset: number;
  offGrid: boolean;
}

/** Firm operations on one account (docs/risk-rules.md#lockout-and-unlock, #flatten, #cancel-all): the account
 * commands, and a lockout with flatten. */
export type FirmOperation = 'lockout' | 'lockout_flatten' | 'unlock' | 'flatten' | 'cancel_all_orders';

export type Command =
  | {
      kind: 'place';
      account: number;
      instrument: number;
      side: Side;
      type: OrderType;
      tif: TimeInForce;
      quantity: number;
      limitPrice: PriceDraw;
      stopPrice: PriceDraw;
      malformed: boolean;
    }
  | {
      kind: 'modify';
      pick: Pick;
      quantity: number | undefined;
      limitPrice: PriceDraw | undefined;
      stopPrice: PriceDraw | undefined;
      fitting: boolean;
    }
  | { kind: 'cancel'; pick: Pick }
  | { kind: 'link'; picks: Pick[]; fitting: boolean }
  | { kind: 'companion'; group: number; unknownGroup: boolean; pick: Pick; fitting: boolean }
  | { kind: 'print'; instrument: number; offset: number; size: number | undefined }
  | { kind: 'advance'; ms: number }
  | {
      kind: 'fill';
      account: number;
      instrument: number;
      side: Side;
      quantity: number;
      offset: number;
      agoMs: number | undefined;
    }
  | { kind: 'firm'; account: number; op: FirmOperation };

const side = fc.constantFrom<Side>('buy', 'sell');
const instrument = fc.nat(INSTRUMENTS.length - 1);
const offset = fc.integer({ min: -BAND_TICKS, max: BAND_TICKS });
/** Mostly on the grid; x.05-style prices between ticks are REJECTED invalid_price on a new order, a rejected modify. */
const price: fc.Arbitrary<PriceDraw> = fc.record({
  offset,
  offGrid: fc.integer({ min: 0, max: 19 }).map((x) => x === 0),
});
const pick: fc.Arbitrary<Pick> = fc.record({
  n: fc.nat(1000),
  working: fc.boolean(),
  risk: fc.integer({ min: 0, max: 3 }).map((x) => x === 0),
  unknown: fc.integer({ min: 0, max: 24 }).map((x) => x === 0),
});

const place = fc.record({
  kind: fc.constant('place' as const),
  account: fc.nat(5),
  instrument,
  side,
  type: fc.constantFrom<OrderType>('market', 'limit', 'stop', 'stop_limit'),
  tif: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom<TimeInForce>('day', 'gtc') },
    { weight: 1, arbitrary: fc.constantFrom<TimeInForce>('ioc', 'fok') },
  ),
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
const link = fc.record({
  kind: fc.constant('link' as const),
  picks: fc.array(pick, { minLength: 2, maxLength: 3 }),
  fitting,
});
const companion = fc.record({
  kind: fc.constant('companion' as const),
  group: fc.nat(1000),
  unknownGroup: fc.integer({ min: 0, max: 9 }).map((x) => x === 0),
  pick,
  fitting,
});
const print = fc.record({
  kind: fc.constant('print' as const),
  instrument,
  offset,
  size: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined, freq: 3 }),
});
const fill = fc.record({
  kind: fc.constant('fill' as const),
  account: fc.nat(5),
  instrument,
  side,
  quantity: fc.integer({ min: 1, max: 5 }),
  offset,
  /** How long ago it happened; negative now and then: stamped after the clock (400 fill_in_future). */
  agoMs: fc.option(fc.integer({ min: -100, max: 1000 }), { nil: undefined }),
});
const firm = fc.record({
  kind: fc.constant('firm' as const),
  account: fc.nat(5),
  op: fc.constantFrom<FirmOperation>(
    'lockout',
    'lockout',
    'lockout_flatten',
    'unlock',
    'unlock',
    'flatten',
    'cancel_all_orders',
  ),
});

export function commandArb(maxAdvanceMs = 500): fc.Arbitrary<Command> {
  const advance = fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: maxAdvanceMs }) });
  return fc.oneof(
    { weight: 6, arbitrary: place },
    { weight: 2, arbitrary: modify },
    { weight: 2, arbitrary: cancel },
    { weight: 1, arbitrary: link },
    { weight: 1, arbitrary: companion },
    { weight: 9, arbitrary: print },
    { weight: 3, arbitrary: advance },
    { weight: 1, arbitrary: fill },
    { weight: 2, arbitrary: firm },
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
   * `tightAccount`, also one on a tight plan (tightPlan) whose breaches cancel and flatten.
   */
  accountIds: readonly string[];
  /** Every order the kernel accepted, in order placed. */
  orderIds: string[];
  /** Every OCO group linked, in order linked. */
  groupIds: string[];
}

/** A plan whose risk rules stay out of the way: the order lifecycle is what these runs exercise. */
function roomyPlan(commissionCents: number) {
  return modelPlan({
    starting_balance: formatCents(STARTING_BALANCE_CENTS),
    risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '9000000' },
    passing_criteria: { profit_target: '1000000000' },
    commission_per_contract: formatCents(commissionCents),
  });
}

/**
 * $50,000 with a $500 static drawdown and a $250 daily loss, no commission: a few contracts a few ticks the
 * wrong way breach it (ES 5 × 4 ticks × $12.50 = $250), so its runs see breaches cancel client orders and flatten.
 */
export function tightPlan() {
  return modelPlan({
    risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '500', daily_loss_value: '250' },
  });
}

export function newSim(
  setup: RunSetup,
  options: { startMs?: number; seed?: number; tightAccount?: boolean } = {},
): Sim {
  const { tightAccount = false, ...kernelOptions } = options;
  // The kernel of test/core/kernel/kernel-harness.ts (its start, seed and calendar, and its own account first, on
  // the default plan, which the runs leave alone), with the plans written as open_account takes them.
  const kernel = new Kernel({ startMs: T0, seed: 1, calendar, fillModel: setup.fillModel, ...kernelOptions });
  openAccount(kernel, modelPlan());
  const open = (commissionCents: number, plan = roomyPlan(commissionCents)) => openAccount(kernel, plan);
  const accountIds = [open(0), open(setup.commissionCents)];
  if (tightAccount) accountIds.push(open(0, tightPlan()));
  return { kernel, accountIds, orderIds: [], groupIds: [] };
}

/** A command with its picks resolved to ids: what the kernel is actually asked. */
export type Resolved =
  | { kind: 'place'; body: Record<string, unknown> }
  | { kind: 'modify'; orderId: string; body: Record<string, unknown> }
  | { kind: 'cancel'; orderId: string }
  | { kind: 'link'; orderIds: string[] }
  | { kind: 'companion'; groupId: string; orderId: string }
  | { kind: 'print'; symbol: string; price: string; priceTicks: number; size: number | undefined }
  | { kind: 'advance'; ms: number }
  | {
      kind: 'fill';
      accountId: string;
      symbol: string;
      side: Side;
      quantity: number;
      price: string;
      occurredAtMs: number | undefined;
    }
  | { kind: 'firm'; accountId: string; op: FirmOperation };

function isWorking(kernel: Kernel, orderId: string): boolean {
  const status = kernel.internals().desk.find(orderId)?.status;
  return status === 'SUBMITTED' || status === 'PARTIALLY_FILLED';
}

/** The risk engine's orders, in the order sent. */
export function riskOrderIds(kernel: Kernel): string[] {
  return kernel
    .internals()
    .desk.orderList.filter((o) => o.origin === 'risk')
    .map((o) => o.id);
}

/** The risk engine's orders still working (or on their way to the venue). */
export function workingRiskOrderIds(kernel: Kernel): string[] {
  return riskOrderIds(kernel).filter((id) => isWorking(kernel, id));
}

function resolvePick(sim: Sim, p: Pick, among: (id: string) => boolean = () => true): string {
  const risk = p.risk && !p.unknown ? riskOrderIds(sim.kernel) : [];
  if (risk.length > 0) {
    const working = p.working ? risk.filter((id) => isWorking(sim.kernel, id)) : [];
    const from = working.length > 0 ? working : risk;
    return from[p.n % from.length]!;
  }
  if (p.unknown || sim.orderIds.length === 0) return UNKNOWN_ORDER_ID;
  const candidates = sim.orderIds.filter(among);
  const working = p.working ? candidates.filter((id) => isWorking(sim.kernel, id)) : [];
  const from = working.length > 0 ? working : candidates.length > 0 ? candidates : sim.orderIds;
  return from[p.n % from.length]!;
}

/** Orders that can join an OCO group of `accountId`: working, in no group, same account. */
function canJoin(sim: Sim, accountId: string | undefined, taken: readonly string[]): (id: string) => boolean {
  return (id) => {
    const order = sim.kernel.internals().desk.find(id)!;
    return (
      isWorking(sim.kernel, id) &&
      order.ocoGroupId === undefined &&
      (accountId === undefined || order.accountId === accountId) &&
      !taken.includes(id)
    );
  };
}

function drawnPrice(instrument: ModelInstrument, draw: PriceDraw): string {
  const ticks = instrument.baseTicks + draw.offset;
  return draw.offGrid ? offGridPriceOf(instrument, ticks) : priceOf(instrument, ticks);
}

export function resolve(sim: Sim, command: Command): Resolved {
  switch (command.kind) {
    case 'place': {
      const instrument = INSTRUMENTS[command.instrument % INSTRUMENTS.length]!;
      const body: Record<string, unknown> = {
        account_id: sim.accountIds[command.account % sim.accountIds.length]!,
        instrument_id: instrument.symbol,
        side: command.side,
        type: command.type,
        quantity: command.malformed ? 0 : command.quantity,
        time_in_force: command.tif,
      };
      if (command.type === 'limit' || command.type === 'stop_limit')
        body.limit_price = drawnPrice(instrument, command.limitPrice);
      if (command.type === 'stop' || command.type === 'stop_limit')
        body.stop_price = drawnPrice(instrument, command.stopPrice);
      return { kind: 'place', body };
    }
    case 'modify': {
      const body: Record<string, unknown> = {};
      if (command.quantity !== undefined) body.quantity = command.quantity;
      const orderId = resolvePick(sim, command.pick);
      const order = sim.kernel.internals().desk.find(orderId);
      const instrument = order ? instrumentOf(order.symbol) : ES;
      // A fitting modify changes only prices the order has; left empty, it raises the quantity by one.
      const has = (field: 'limit' | 'stop') =>
        !command.fitting || order?.type === field || order?.type === 'stop_limit';
      if (command.limitPrice !== undefined && has('limit'))
        body.limit_price = drawnPrice(instrument, command.limitPrice);
      if (command.stopPrice !== undefined && has('stop')) body.stop_price = drawnPrice(instrument, command.stopPrice);
      if (command.fitting && Object.keys(body).length === 0) body.quantity = (order?.quantity ?? 0) + 1;
      return { kind: 'modify', orderId, body };
    }
    case 'cancel':
      return { kind: 'cancel', orderId: resolvePick(sim, command.pick) };
    case 'link': {
      if (!command.fitting) return { kind: 'link', orderIds: command.picks.map((p) => resolvePick(sim, p)) };
      const orderIds: string[] = [];
      for (const p of command.picks)
        orderIds.push(
          resolvePick(sim, p, canJoin(sim, sim.kernel.internals().desk.find(orderIds[0] ?? '')?.accountId, orderIds)),
        );
      return { kind: 'link', orderIds };
    }
    case 'companion': {
      const groupId =
        command.unknownGroup || sim.groupIds.length === 0
          ? UNKNOWN_GROUP_ID
          : sim.groupIds[command.group % sim.groupIds.length]!;
      const accountId = sim.kernel.internals().desk.oco.accountOf(groupId);
      return {
        kind: 'companion',
        groupId,
        orderId: resolvePick(sim, command.pick, command.fitting ? canJoin(sim, accountId, []) : undefined),
      };
    }
    case 'print': {
      const instrument = INSTRUMENTS[command.instrument % INSTRUMENTS.length]!;
      const priceTicks = instrument.baseTicks + command.offset;
      return {
        kind: 'print',
        symbol: instrument.symbol,
        price: priceOf(instrument, priceTicks),
        priceTicks,
        size: command.size,
      };
    }
    case 'advance':
      return command;
    case 'fill': {
      const instrument = INSTRUMENTS[command.instrument % INSTRUMENTS.length]!;
      const occurredAtMs = command.agoMs === undefined ? undefined : sim.kernel.nowMs - command.agoMs;
      const accountId = sim.accountIds[command.account % sim.accountIds.length]!;
      const price = priceOf(instrument, instrument.baseTicks + command.offset);
      return {
        kind: 'fill',
        accountId,
        symbol: instrument.symbol,
        side: command.side,
        quantity: command.quantity,
        price,
        occurredAtMs,
      };
    }
    case 'firm':
      return { kind: 'firm', accountId: sim.accountIds[command.account % sim.accountIds.length]!, op: command.op };
  }
}

/**
 * Runs one resolved command through the kernel's one command entry, `dispatch` (time moves by the journaled
 * `advance`). The kernel itself does the work a command made due now (a zero-latency arrival or cancel) before the
 * next input; the model test relies on that. Returns the command's outcome.
 */
export function run(sim: Sim, command: Resolved): Outcome<unknown> {
  const { kernel } = sim;
  switch (command.kind) {
    case 'place': {
      const placed = kernel.dispatch({ type: 'place_order', body: command.body });
      if (placed.ok) sim.orderIds.push(placed.body.order_id);
      return placed;
    }
    case 'modify':
      return kernel.dispatch({ type: 'modify_order', order_id: command.orderId, body: command.body });
    case 'cancel':
      return kernel.dispatch({ type: 'cancel_order', order_id: command.orderId });
    case 'link': {
      const linked = kernel.dispatch({ type: 'link_oco', body: { order_ids: command.orderIds } });
      if (linked.ok) sim.groupIds.push(linked.body.oco_group_id);
      return linked;
    }
    case 'companion':
      return kernel.dispatch({
        type: 'add_oco_companion',
        body: { oco_group_id: command.groupId, order_id: command.orderId },
      });
    case 'print':
      return kernel.dispatch({
        type: 'tick',
        instrument_id: command.symbol,
        price: command.price,
        ...(command.size === undefined ? {} : { size: command.size }),
      });
    case 'advance':
      return kernel.dispatch({ type: 'advance', to_ms: kernel.nowMs + command.ms });
    case 'fill':
      return kernel.dispatch({
        type: 'record_fill',
        account_id: command.accountId,
        instrument_id: command.symbol,
        side: command.side,
        quantity: command.quantity,
        price: command.price,
        ...(command.occurredAtMs === undefined ? {} : { occurred_at: command.occurredAtMs }),
      });
    case 'firm':
      return runFirmOperation(kernel, command.accountId, command.op);
  }
}

function runFirmOperation(kernel: Kernel, accountId: string, op: FirmOperation): Outcome<unknown> {
  switch (op) {
    case 'lockout':
      return kernel.dispatch({ type: 'lockout', account_id: accountId, body: { reason_code: 'model' } });
    case 'lockout_flatten':
      return kernel.dispatch({ type: 'lockout', account_id: accountId, body: { reason_code: 'model', flatten: true } });
    default:
      return kernel.dispatch({ type: op, account_id: accountId });
  }
}
