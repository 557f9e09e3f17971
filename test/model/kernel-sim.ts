// The kernel a run of random commands drives (kernel-command-arbs.ts, kernel-commands.ts): the accounts it opens on a
// roomy plan (and with tightAccount one on a tight plan whose breaches cancel and flatten), the orders placed and the
// OCO groups linked so far, and the risk engine's orders among them.
import { Kernel } from '../../src/core/kernel/kernel.js';
import { formatCents } from '../../src/core/money.js';
import { T0, calendar } from '../core/kernel/kernel-harness.js';
import type { RunSetup } from './kernel-command-arbs.js';
import { openAccount } from './model-kernel.js';
import { modelPlan } from './model-plans.js';

/** $10M with a $9M static drawdown and an unreachable profit target: no breach, lock or pass on these two. */
export const STARTING_BALANCE_CENTS = 1_000_000_000;

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

export function isWorking(kernel: Kernel, orderId: string): boolean {
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
