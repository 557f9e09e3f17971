// The interpreter of random kernel commands (kernel-command-arbs.ts): resolves "pick an order / a group" against what
// exists so far and runs the command the way a driver does. Firm operations (lockout with or without flatten, unlock,
// flatten, cancel-all) bring the risk engine's orders in, and picks may aim a client's cancel or modify at one of them.
import type { Kernel } from '../../src/core/kernel/kernel.js';
import type { Outcome } from '../../src/core/outcome.js';
import type { Side } from '../../src/core/orders/order-types.js';
import type { Command, FirmOperation, Pick, PriceDraw } from './kernel-command-arbs.js';
import { isWorking, riskOrderIds, type Sim } from './kernel-sim.js';
import { ES, INSTRUMENTS, instrumentOf, offGridPriceOf, priceOf, type ModelInstrument } from './model-instruments.js';

/** An order id the kernel never issued (its ids come from a seeded generator: this one is not among them). */
export const UNKNOWN_ORDER_ID = '00000000-0000-4000-8000-000000000000';
export const UNKNOWN_GROUP_ID = '00000000-0000-4000-8000-00000000000f';

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
