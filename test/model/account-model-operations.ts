// The firm operations of the account model (docs/risk-rules.md#daily-loss,
// docs/risk-rules.md#firm-controls-and-the-order-gate)
// and a client's DELETE or PATCH aimed at
// the risk engine's orders, each as one step of AccountSim: the kernel call, its expected answer, and its effect
// on the model.
import type { AccountCommandType } from '../../src/core/kernel/write/commands.js';
import type { Outcome } from '../../src/core/outcome.js';
import { centsText, type Command } from './account-model-commands.js';
import type { ModelAccount } from './account-model-ledger.js';
import type { Before, Step, StepSim } from './account-model-steps.js';
import { eq } from './model-assert.js';
import { bodyOf, locksAdded, recorded, riskOrderCount } from './model-kernel.js';

/** The orders of the risk engine are not the client's: DELETE and PATCH on them answer 409 risk_order. */
const RISK_ORDER_REFUSAL = 'risk_order';

/** Open instruments of the account with no closing order working before the step: what a flatten sends orders for. */
function closingOrdersToSend(account: ModelAccount, before: Before): number {
  return [...account.net].filter(([symbol, net]) => net !== 0 && !before.riskIn.has(symbol)).length;
}

export function runOperation(sim: StepSim, i: number, command: Extract<Command, { a: number }>): void {
  const before = sim.snapshot();
  const account = sim.accounts[i]!;
  const control = (op: AccountCommandType, body?: unknown): Outcome<Record<string, unknown>> => {
    const outcome = sim.kernel.dispatch({ type: op, account_id: account.id, ...(body === undefined ? {} : { body }) });
    return outcome.ok ? { ...outcome, body: { ...outcome.body } } : outcome;
  };
  const expect = (outcome: Outcome<unknown>, accepted: boolean, why: string) => {
    eq(outcome.status, accepted ? 200 : 409, why);
    return accepted;
  };
  const mark = () => sim.count(account.mark(sim.lastPrintTicks));
  switch (command.kind) {
    case 'adjust': {
      const outcome = control('adjust_balance', {
        amount: centsText(command.amountCents),
        reason_code: 'model',
        shift_floors: command.shift,
      });
      expect(outcome, true, 'a cash adjust on an open account is accepted (docs/risk-rules.md#cash-adjust)');
      const step: Step = {
        kind: 'op',
        a: i,
        op: 'adjust_balance',
        accepted: true,
        shift: { amountCents: command.amountCents, floors: command.shift },
      };
      return sim.finish(step, before, () => {
        account.adjust(command.amountCents, command.shift);
        mark();
      });
    }
    case 'dailyTrigger': {
      const triggerCents = account.equityCents(sim.lastPrintTicks) + command.offsetCents;
      const outcome = control('set_daily_loss_trigger', {
        reason_code: 'model',
        daily_loss_limit_trigger: centsText(triggerCents),
      });
      const accepted = expect(
        outcome,
        account.dailyTriggerCents !== undefined,
        'setDailyLossTrigger answers 409 without a daily-loss limit (docs/risk-rules.md#status-codes-of-the-two-operations)',
      );
      return sim.finish({ kind: 'op', a: i, op: 'set_daily_loss_trigger', accepted }, before, () => {
        if (!accepted) return;
        account.dailyTriggerCents = triggerCents;
        mark();
      });
    }
    case 'reanchor': {
      const outcome = control('reanchor_daily_loss', { reason_code: 'model' });
      const probe = account.dailyTriggerCents !== undefined && account.startOfDayCents - account.dailyTriggerCents > 0;
      const accepted = expect(
        outcome,
        probe,
        'reanchor answers 409 without a daily-loss trigger or with an allowance ≤ 0 (docs/risk-rules.md#status-codes-of-the-two-operations)',
      );
      return sim.finish({ kind: 'op', a: i, op: 'reanchor_daily_loss', accepted }, before, () => {
        if (!accepted) return;
        account.reanchor();
        mark();
      });
    }
    case 'lockout': {
      // A lockout answers the risk-state item (docs/api.md#routes): what it changed and sent is read from what it
      // published and from the risk engine's orders.
      const riskOrdersBefore = riskOrderCount(sim.kernel, account.id);
      const { result: outcome, events } = recorded(sim.kernel, () =>
        control('lockout', { reason_code: 'model', flatten: command.flatten }),
      );
      expect(
        outcome,
        true,
        'lockout answers 200, also on a firm-locked account (docs/risk-rules.md#lockout-and-unlock)',
      );
      eq(bodyOf(outcome).is_locked, true, 'lockout answers the risk-state item, locked');
      eq(
        locksAdded(events, account.id, 'firm_lockout') > 0,
        !account.locks.has('firm_lockout'),
        'lockout changes something only when there was no firm lock',
      );
      if (command.flatten) {
        eq(
          riskOrderCount(sim.kernel, account.id) - riskOrdersBefore,
          closingOrdersToSend(account, before[i]!),
          'lockout with flatten sends a closing order for each open position that has none working',
        );
        sim.flattening.requested(account.id);
      }
      return sim.finish({ kind: 'op', a: i, op: 'lockout', accepted: true }, before, () =>
        account.locks.add('firm_lockout'),
      );
    }
    case 'unlock': {
      const accepted = expect(
        control('unlock'),
        account.locks.has('firm_lockout'),
        'unlock answers 409 when there is no firm lockout (docs/risk-rules.md#lockout-and-unlock)',
      );
      return sim.finish({ kind: 'op', a: i, op: 'unlock', accepted }, before, () =>
        account.locks.delete('firm_lockout'),
      );
    }
    case 'maxLossLimit': {
      const body = { max_drawdown_limit: command.limitCents === null ? null : centsText(command.limitCents) };
      const accepted = expect(
        control('set_max_loss_limit', body),
        account.setup.mode !== 'static',
        'a max-loss-limit change answers 409 on a static account (docs/risk-rules.md#max-loss-limit-change)',
      );
      return sim.finish({ kind: 'op', a: i, op: 'set_max_loss_limit', accepted }, before, () => {
        if (!accepted) return;
        account.limitCents = command.limitCents ?? undefined;
        mark();
      });
    }
    case 'flatten': {
      const outcome = control('flatten');
      expect(outcome, true, 'flatten answers its counts (docs/risk-rules.md#flatten)');
      eq(
        bodyOf(outcome).cancelled_orders,
        0,
        'no client order outlives its print in this model: flatten has nothing to cancel',
      );
      eq(
        bodyOf(outcome).closed_positions,
        closingOrdersToSend(account, before[i]!),
        'flatten sends a closing order for each open position that has none working',
      );
      sim.flattening.requested(account.id);
      return sim.finish({ kind: 'op', a: i, op: 'flatten', accepted: true }, before);
    }
    case 'cancelAll': {
      const outcome = control('cancel_all_orders');
      expect(outcome, true, 'cancel-all answers its count (docs/risk-rules.md#cancel-all)');
      eq(
        bodyOf(outcome).cancelled_orders,
        0,
        'no client order outlives its print in this model, and cancel-all leaves the risk engine’s orders alone',
      );
      return sim.finish({ kind: 'op', a: i, op: 'cancel_all_orders', accepted: true }, before);
    }
    case 'cancelRisk':
    case 'modifyRisk': {
      const risk = sim.riskOrdersOf(i);
      if (risk.length === 0) return;
      const order = risk[command.n % risk.length]!;
      const outcome =
        command.kind === 'cancelRisk'
          ? sim.kernel.dispatch({ type: 'cancel_order', order_id: order.id })
          : sim.kernel.dispatch({ type: 'modify_order', order_id: order.id, body: { quantity: command.quantity } });
      const request = `${command.kind === 'cancelRisk' ? 'DELETE' : 'PATCH'} of risk order ${order.id} (${order.side} ${order.quantity - order.filledQuantity} ${order.symbol})`;
      eq(
        outcome.status,
        409,
        `${request}: the risk engine's orders are not the client's to cancel or modify (docs/order-lifecycle.md#risk-orders)`,
      );
      eq(
        (outcome.body as unknown as Record<string, unknown>).code,
        RISK_ORDER_REFUSAL,
        `${request}: refused as a risk order`,
      );
      sim.seen.riskOrderRequests++;
      return sim.finish({ kind: 'op', a: i, op: command.kind, accepted: false }, before);
    }
    default:
      throw new Error(`not an operation: ${command.kind}`);
  }
}
