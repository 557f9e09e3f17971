// Runs the order model (order-lifecycle.model.test.ts): each command's expected answer, then every check after
// every command, and the drain at the end of a run that lets the risk engine finish flattening.
import type { KernelEvent } from '../../src/core/kernel/events.js';
import type { Outcome } from '../../src/core/outcome.js';
import type { Command, FirmOperation, RunSetup } from './kernel-command-arbs.js';
import { resolve, run, type Resolved } from './kernel-commands.js';
import { newSim, workingRiskOrderIds, type Sim } from './kernel-sim.js';
import { eq, none, ok } from './model-assert.js';
import { INSTRUMENTS, priceOf } from './model-instruments.js';
import { cancelledWith, recorded } from './model-kernel.js';
import { checkAccounts, checkFill, checkOco, checkPrint } from './order-model-fills.js';
import { checkClose, checkOrder, readOrders, updateVenue } from './order-model-orders.js';
import { Model, TERMINAL, WORKING, type Context, type Json } from './order-model-state.js';

// ---- expected outcomes: docs/order-lifecycle.md#what-causes-each-event,
// docs/risk-rules.md#firm-controls-and-the-order-gate

/**
 * The orders of the risk engine are not the client's (docs/order-lifecycle.md#risk-orders): DELETE and PATCH on
 * one, or linking one into an OCO group, answer 409 risk_order whatever its status or the request's body.
 */
const RISK_ORDER_REFUSAL = 'risk_order';

/** The answer a command must get: its status, and for a refusal the rules name, its code. */
interface Expected {
  status: number;
  code?: string;
}

/** The reason a firm operation cancels the account's working client orders with (docs/risk-rules.md#flatten, ...). */
const CANCEL_REASONS: Partial<Record<FirmOperation, string>> = {
  lockout_flatten: 'firm_lockout',
  flatten: 'flatten',
  cancel_all_orders: 'cancel_all',
};

function expectedStatus(ctx: { sim: Sim; model: Model }, command: Resolved): Expected {
  const { model } = ctx;
  const known = (id: string) => model.orders.has(id);
  const terminal = (id: string) => TERMINAL.has(model.status(id)!);
  const accountOf = (id: string) => model.orders.get(id)!.json.account_id;
  const hasFills = (id: string) => (model.orders.get(id)!.json.filled_quantity as number) > 0;
  const isRisk = (id: string) => model.orders.get(id)?.json.origin === 'risk';
  const riskRefusal: Expected = { status: 409, code: RISK_ORDER_REFUSAL };
  /** Why an order cannot join a group of `accountId` (checked member by member, in order), if it cannot. */
  const cannotJoin = (id: string, accountId: unknown): Expected | undefined => {
    if (isRisk(id)) return riskRefusal;
    if (terminal(id) || model.groupOf.has(id)) return { status: 409 };
    if (accountOf(id) !== accountId) return { status: 400 };
    return undefined;
  };
  switch (command.kind) {
    case 'place':
      return { status: command.body.quantity === 0 ? 400 : 202 };
    case 'modify':
      if (!known(command.orderId)) return { status: 404 };
      if (isRisk(command.orderId)) return riskRefusal;
      if (Object.keys(command.body).length === 0) return { status: 400 };
      return { status: terminal(command.orderId) ? 409 : 202 };
    case 'cancel':
      if (!known(command.orderId)) return { status: 404 };
      if (isRisk(command.orderId)) return riskRefusal;
      if (model.status(command.orderId) === 'CANCELLED') return { status: 200 };
      return { status: terminal(command.orderId) ? 409 : 202 };
    case 'link': {
      const ids = command.orderIds;
      if (new Set(ids).size !== ids.length) return { status: 400 };
      if (!ids.every(known)) return { status: 404 };
      for (const id of ids) {
        const refusal = cannotJoin(id, accountOf(ids[0]!));
        if (refusal) return refusal;
      }
      return { status: ids.some(hasFills) ? 409 : 201 }; // a group is linked before any member fills (oco_member_filled)
    }
    case 'companion': {
      const members = model.groups.get(command.groupId);
      if (members === undefined || !known(command.orderId)) return { status: 404 };
      const refusal = cannotJoin(command.orderId, accountOf(members[0]!));
      if (refusal) return refusal;
      return { status: hasFills(command.orderId) || members.some(hasFills) ? 409 : 200 };
    }
    case 'fill': {
      // Refused (400) when stamped after the clock; booked (201) for an active account without locks, else dropped
      // (200): docs/risk-rules.md#historical-fills.
      if (command.occurredAtMs !== undefined && command.occurredAtMs > ctx.sim.kernel.nowMs)
        return { status: 400, code: 'fill_in_future' };
      const account = model.fills.account(command.accountId);
      return { status: account.status === 'active' && account.locks.size === 0 ? 201 : 200 };
    }
    case 'firm':
      // docs/risk-rules.md#lockout-and-unlock: unlock answers 409 without a firm lockout; the others always answer.
      if (command.op === 'unlock')
        return { status: model.fills.account(command.accountId).locks.has('firm_lockout') ? 200 : 409 };
      return { status: 200 };
    case 'print':
    case 'advance':
      // A print and a move of the clock forward are always taken (200).
      return { status: 200 };
  }
}

/** Client orders of an account still working (or on their way) as the model last saw them. */
function workingClientOrders(model: Model, accountId: string): string[] {
  return [...model.orders]
    .filter(
      ([, { json }]) => json.account_id === accountId && json.origin === 'client' && WORKING.has(json.status as string),
    )
    .map(([id]) => id);
}

function checkOutcome(
  ctx: Context,
  expected: Expected,
  outcome: Outcome<unknown>,
  events: readonly KernelEvent[],
  workingBefore: readonly string[],
): void {
  const { model, command, where } = ctx;
  eq(
    outcome.status,
    expected.status,
    `${where}: the command answers ${expected.status} (${JSON.stringify(outcome.body)})`,
  );
  if (expected.code !== undefined)
    eq((outcome.body as unknown as Json).code, expected.code, `${where}: the refusal names its reason`);
  if (expected.code === RISK_ORDER_REFUSAL) model.seen.riskRefusals++;
  if (!outcome.ok) return;
  const body = outcome.body as Json;
  if (command.kind === 'place') {
    eq(body.status, 'SUBMITTED', `${where}: POST answers 202 with the order SUBMITTED`);
    eq(body.filled_quantity, 0, `${where}: a new order has filled nothing`);
  }
  if (command.kind === 'link') {
    model.groups.set(body.oco_group_id as string, [...command.orderIds]);
    for (const id of command.orderIds) model.groupOf.set(id, body.oco_group_id as string);
  }
  if (command.kind === 'companion') {
    model.groups.get(command.groupId)!.push(command.orderId);
    model.groupOf.set(command.orderId, command.groupId);
  }
  if (command.kind === 'firm' && (command.op === 'lockout' || command.op === 'lockout_flatten'))
    // A lockout answers the risk-state item (docs/api.md#routes), locked.
    eq(body.is_locked, true, `${where}: ${command.op} answers the account's risk-state item, locked`);
  const cancelReason = command.kind === 'firm' ? CANCEL_REASONS[command.op] : undefined;
  if (command.kind === 'firm' && cancelReason !== undefined) {
    // Cancel-all, flatten and lockout with flatten cancel every working client order at once
    // (docs/risk-rules.md#lockout-and-unlock, #flatten, #cancel-all). Flatten and cancel-all answer the count; a
    // lockout answers the risk-state item, so the count is that of the cancels it published.
    if (command.op !== 'lockout_flatten')
      eq(
        body.cancelled_orders,
        workingBefore.length,
        `${where}: ${command.op} cancels the account's ${workingBefore.length} working client order(s)`,
      );
    eq(
      cancelledWith(events, command.accountId, cancelReason),
      workingBefore.length,
      `${where}: ${command.op} cancels the account's ${workingBefore.length} working client order(s), each recorded CANCELLED ${cancelReason}`,
    );
    for (const id of workingBefore)
      eq(
        ctx.sim.kernel.internals().desk.find(id)!.status,
        'CANCELLED',
        `${where}: ${command.op} cancelled client order ${id}`,
      );
    if (command.op !== 'cancel_all_orders') model.flattening.requested(command.accountId);
  }
}

// ---- every check after every command ----

function checkAll(ctx: Context, expected: Expected): void {
  const { sim, model } = ctx;
  none(model.fills.violations, ctx.where);
  none(model.fills.positionViolations(sim.accountIds), ctx.where);
  none(model.flattening.settle(sim.accountIds), ctx.where);
  const current = readOrders(ctx);
  const fills = model.newFills;
  model.newFills = [];
  if (ctx.command.kind === 'fill')
    eq(
      fills.length,
      expected.status === 201 ? 1 : 0,
      `${ctx.where}: a historical fill books exactly one fill, or none when dropped`,
    );
  for (const fill of fills) checkFill(ctx, fill, current);
  if (ctx.command.kind === 'print') model.lastPrintTicks.set(ctx.command.symbol, ctx.command.priceTicks);
  const fillsByOrder = new Map<string, number>();
  for (const accountId of sim.accountIds) {
    for (const f of sim.kernel.internals().positions.fills(accountId))
      if (f.orderId !== null) fillsByOrder.set(f.orderId, (fillsByOrder.get(f.orderId) ?? 0) + f.quantity);
  }
  for (const [id, seen] of current) checkOrder(ctx, id, seen, fillsByOrder.get(id) ?? 0);
  const venueFills = fills.filter((f) => f.order_id !== undefined);
  checkPrint(ctx, current, venueFills);
  checkOco(ctx, current, venueFills);
  checkAccounts(ctx, current);
  checkClose(ctx, current);
  updateVenue(ctx, current);
  for (const [id, seen] of current) model.orders.set(id, seen);
}

export interface Checked {
  sim: Sim;
  model: Model;
  setup: RunSetup;
  closeMs?: number;
}

/** Runs one resolved command and checks everything after it. */
export function step(checked: Checked, command: Resolved, where: string): void {
  const { sim, model, setup, closeMs } = checked;
  const ctx: Context = { sim, model, setup, command, where, ...(closeMs === undefined ? {} : { closeMs }) };
  const expected = expectedStatus(ctx, command);
  const workingBefore = command.kind === 'firm' ? workingClientOrders(model, command.accountId) : [];
  if (command.kind === 'print') model.beforePrint(command.symbol, command.priceTicks);
  let ran: { result: Outcome<unknown>; events: readonly KernelEvent[] };
  try {
    ran = recorded(sim.kernel, () => run(sim, command));
  } catch (error) {
    throw new Error(`${where}: the kernel threw instead of answering a status: ${(error as Error).stack}`, {
      cause: error,
    });
  }
  checkOutcome(ctx, expected, ran.result, ran.events, workingBefore);
  checkAll(ctx, expected);
}

/** Runs one command sequence on a fresh kernel (two roomy accounts and a tight one), checking after every command. */
export function runChecked(
  setup: RunSetup,
  commands: readonly Command[],
  options: { startMs?: number; closeMs?: number } = {},
): Checked {
  const sim = newSim(setup, {
    tightAccount: true,
    ...(options.startMs === undefined ? {} : { startMs: options.startMs }),
  });
  const checked: Checked = {
    sim,
    model: new Model(sim, setup),
    setup,
    ...(options.closeMs === undefined ? {} : { closeMs: options.closeMs }),
  };
  commands.forEach((command, i) => {
    const resolved = resolve(sim, command);
    step(checked, resolved, `#${i} ${JSON.stringify(resolved)}`);
  });
  return checked;
}

/**
 * Flattening ends flat (docs/risk-rules.md#what-a-breach-does, #lockout-and-unlock, #flatten): with the markets open,
 * the
 * clock moved past every latency and each instrument printed (unlimited, at its last price) a few times, no
 * account is still being flattened and no risk order works. Answers the rounds it took.
 */
export function drain(checked: Checked): number {
  const { sim, model, setup } = checked;
  const { latencyMs, cancelLatencyMs, modifyLatencyMs } = setup.fillModel;
  const pending = () =>
    workingRiskOrderIds(sim.kernel).length > 0 || sim.accountIds.some((id) => model.flattening.isFlattening(id));
  let rounds = 0;
  for (; rounds < 6 && pending(); rounds++) {
    step(
      checked,
      { kind: 'advance', ms: Math.max(latencyMs, cancelLatencyMs, modifyLatencyMs) + 1 },
      `drain round ${rounds}: past every latency`,
    );
    for (const instrument of INSTRUMENTS) {
      const priceTicks = model.lastPrintTicks.get(instrument.symbol) ?? instrument.baseTicks;
      const print: Resolved = {
        kind: 'print',
        symbol: instrument.symbol,
        price: priceOf(instrument, priceTicks),
        priceTicks,
        size: undefined,
      };
      step(checked, print, `drain round ${rounds}: ${JSON.stringify(print)}`);
    }
  }
  for (const accountId of sim.accountIds) {
    ok(
      !model.flattening.isFlattening(accountId),
      `after ${rounds} drain rounds: account ${accountId} is flat again (the risk engine flattens until flat)`,
    );
  }
  eq(workingRiskOrderIds(sim.kernel).length, 0, `after ${rounds} drain rounds: no risk order is left working`);
  model.seen.drainRounds += rounds;
  return rounds;
}
