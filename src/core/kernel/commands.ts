// The kernel's one command union (docs/architecture.md#one-kernel-many-drivers): every driver (scenario runner,
// journal replay, back-tester, HTTP routes) changes the kernel only through `kernel.dispatch(command)`, which
// answers an Outcome: an HTTP status and a body in the API's shapes, or the error envelope. Bodies arrive as
// received (`unknown`) and are validated by the kernel, so a scenario step and a request get the same answer.
import type { PlanTemplate } from '../accounts/plans.js';
import type { Side } from '../orders/order-types.js';
import type { OpenAccountInput } from './accounts.js';

/** Firm-control operations on one account, by name. */
export type AccountOperation =
  | 'setDailyLossTrigger'
  | 'reanchor'
  | 'lockout'
  | 'unlock'
  | 'flatten'
  | 'cancelAll'
  | 'setMaxLossLimit'
  | 'adjust'
  | 'setUserRiskHalt';

export const ACCOUNT_OPERATIONS: readonly AccountOperation[] = [
  'setDailyLossTrigger',
  'reanchor',
  'lockout',
  'unlock',
  'flatten',
  'cancelAll',
  'setMaxLossLimit',
  'adjust',
  'setUserRiskHalt',
];

export interface HistoricalFill {
  accountId: string;
  symbol: string;
  side: Side;
  quantity: number;
  price: string;
  /** When the execution happened, if earlier than now (a replayed history lags the clock); default now. */
  occurredAtMs?: number;
}

export type KernelCommand =
  /** Moves the clock forward, firing what falls due (a scenario `at`/`advance`, the sandbox clock). */
  | { type: 'advance'; toMs: number }
  /** A trade print written as a decimal price (scenario `tick`, sandbox market prints), at the current time. */
  | { type: 'tick'; instrument: string; price: string; size?: number }
  /** A firm of the sandbox seed (or a back-test cell) with its plan templates and staff members. */
  | {
      type: 'register_firm';
      firmId: string;
      slug: string;
      plans: ReadonlyMap<string, PlanTemplate>;
      staff?: readonly { email: string; first_name?: string }[];
    }
  | { type: 'open_account'; input: OpenAccountInput }
  | { type: 'provision_accounts'; firmId: string; body: unknown }
  | { type: 'place_order'; body: unknown }
  | { type: 'modify_order'; orderId: string; body: unknown }
  | { type: 'cancel_order'; orderId: string }
  | { type: 'link_oco'; orderIds: readonly string[] }
  | { type: 'add_oco_companion'; ocoGroupId: string; orderId: string }
  | { type: 'record_fill'; fill: HistoricalFill }
  | { type: 'account_operation'; operation: AccountOperation; accountId: string; body?: unknown }
  | { type: 'set_offering'; firmId: string; body: unknown }
  | { type: 'replace_account'; accountId: string }
  | { type: 'assign_staff_role'; firmId: string; body: unknown }
  | { type: 'remove_staff_role'; firmId: string; body: unknown };

export type KernelCommandType = KernelCommand['type'];
