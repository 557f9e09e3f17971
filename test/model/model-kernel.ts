// The kernel as the models drive and read it: commands through `dispatch`, and what one call published, read from
// its events, for the counts an answer does not carry (a lockout answers the risk-state item, so whether it added
// the lock, which client orders it cancelled and how many closing orders it sent are read from what it did).
import type { KernelCommand } from '../../src/core/kernel/write/commands.js';
import type { KernelEvent } from '../../src/core/kernel/events.js';
import type { Kernel } from '../../src/core/kernel/kernel.js';
import type { Outcome } from '../../src/core/outcome.js';
import { InvariantError } from './model-assert.js';

/** The body of a successful outcome, else an InvariantError with the refusal (the status is checked separately). */
export function bodyOf<T>(outcome: Outcome<T>): T {
  if (!outcome.ok)
    throw new InvariantError(`expected a success, got ${outcome.status} ${JSON.stringify(outcome.body)}`);
  return outcome.body;
}

/** A command the model needs to succeed (opening an account, moving time): its answer's body. */
export function dispatchOk(kernel: Kernel, command: KernelCommand): unknown {
  const outcome = kernel.dispatch(command);
  if (!outcome.ok)
    throw new InvariantError(`${command.type} answered ${outcome.status} ${JSON.stringify(outcome.body)}`);
  return outcome.body;
}

/** Opens an account on a plan: its id. */
export function openAccount(kernel: Kernel, plan: unknown): string {
  const opened = kernel.dispatch({ type: 'open_account', plan });
  if (!opened.ok) throw new Error(`opening an account failed: ${JSON.stringify(opened.body)}`);
  return opened.body.account_id;
}

/** The live risk state item of an account, read directly (no loading window), as a plain record. */
export function riskItem(kernel: Kernel, accountId: string): Record<string, unknown> {
  const item = kernel.read.accountState(accountId);
  if (!item) throw new Error(`no account ${accountId}`);
  return { ...item };
}

/** Runs one kernel call and keeps every event it published. */
export function recorded<T>(kernel: Kernel, call: () => T): { result: T; events: readonly KernelEvent[] } {
  const events: KernelEvent[] = [];
  const subscription = kernel.events$.subscribe((event) => events.push(event));
  try {
    return { result: call(), events };
  } finally {
    subscription.unsubscribe();
  }
}

/** How many times the events added `lock` to the account. */
export function locksAdded(events: readonly KernelEvent[], accountId: string, lock: string): number {
  return events.filter((e) => e.type === 'accounts.locked' && e.data.account_id === accountId && e.data.lock === lock)
    .length;
}

/** How many of the account's orders the events recorded as CANCELLED with `reason`. */
export function cancelledWith(events: readonly KernelEvent[], accountId: string, reason: string): number {
  return events.filter(
    (e) =>
      e.type === 'orders.state' &&
      e.data.account_id === accountId &&
      e.data.status === 'CANCELLED' &&
      e.data.reason === reason,
  ).length;
}

/** How many orders the risk engine has ever sent for the account (closing orders sent = the count's growth). */
export function riskOrderCount(kernel: Kernel, accountId: string): number {
  let count = 0;
  for (const order of kernel.internals().desk.orderList)
    if (order.origin === 'risk' && order.accountId === accountId) count++;
  return count;
}
