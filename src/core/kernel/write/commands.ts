// The kernel's one command union (docs/architecture.md#one-kernel-many-drivers): every driver (scenario runner,
// journal replay, back-tester, HTTP routes) changes the kernel only through `kernel.dispatch(command)`, which
// answers an Outcome: an HTTP status and a body in the API's shapes (docs/api.md#shapes), or the error envelope.
// A command is plain JSON: it is journaled as it came (`input.<type>` with the other fields as data), and
// replaying a journal dispatches the same commands again. Request bodies arrive as received (`unknown`) and are
// validated by the kernel, so a scenario step and an HTTP request get the same answer.
import type { AdjustmentJson, ProvisionResultJson, ReplaceResultJson, RiskStateJson } from '../../shapes/account.js';
import type { ClockJson } from '../../shapes/clock.js';
import type { FillJson } from '../../shapes/fill.js';
import type {
  CancelAllResultJson,
  DailyLossTriggerResultJson,
  FlattenResultJson,
  OfferingsJson,
  ReanchorResultJson,
} from '../../shapes/firm-control.js';
import type { OcoGroupJson, OrderJson } from '../../shapes/order.js';
import type { Side } from '../../orders/order-types.js';

/** Operations on one account: the request body as received. */
interface AccountCommand<T extends string> {
  type: T;
  account_id: string;
  body?: unknown;
}

export type KernelCommand =
  /** Moves the clock forward, firing what falls due (a scenario `at`/`advance`, the sandbox clock). */
  | { type: 'advance'; to_ms: number }
  /** A trade print written as a decimal price, at the current time (scenario `tick`, sandbox market prints). */
  | { type: 'tick'; instrument_id: string; price: string; size?: number }
  /** A firm (the sandbox seed, a scenario's or back-test's own) with its plan templates by plan_reference. */
  | {
      type: 'register_firm';
      slug: string;
      name?: string;
      /** plan_reference → plan template as written (docs/risk-rules.md#plan-templates). */
      plans: Record<string, unknown>;
      /** Staff members who can log in (docs/api.md#keys-and-login). */
      staff?: { email: string; first_name?: string }[];
    }
  /** An account opened on a plan directly (scenario and back-test accounts; the API provisions instead). */
  | { type: 'open_account'; plan: unknown; alias?: string; firm_id?: string; price_paid?: string }
  | { type: 'provision_accounts'; firm_id: string; body: unknown }
  | { type: 'replace_account'; account_id: string }
  | { type: 'place_order'; body: unknown }
  | { type: 'modify_order'; order_id: string; body: unknown }
  | { type: 'cancel_order'; order_id: string }
  | { type: 'link_oco'; body: unknown }
  | { type: 'add_oco_companion'; body: unknown }
  /** A historical execution replayed without the venue (docs/risk-rules.md#historical-fills). */
  | {
      type: 'record_fill';
      account_id: string;
      instrument_id: string;
      side: Side;
      quantity: number;
      price: string;
      /** When it happened, if earlier than now (a replayed history lags the clock); default now. */
      occurred_at?: number;
    }
  | AccountCommand<'set_daily_loss_trigger'>
  | AccountCommand<'reanchor_daily_loss'>
  | AccountCommand<'lockout'>
  | AccountCommand<'unlock'>
  | AccountCommand<'flatten'>
  | AccountCommand<'cancel_all_orders'>
  | AccountCommand<'set_max_loss_limit'>
  | AccountCommand<'adjust_balance'>
  | AccountCommand<'set_user_risk_halt'>
  | { type: 'set_offering'; firm_id: string; body: unknown }
  | { type: 'assign_staff_role'; firm_id: string; body: unknown }
  | { type: 'remove_staff_role'; firm_id: string; body: unknown };

export type KernelCommandType = KernelCommand['type'];

/** A historical fill that arrived for an account that could not trade: dropped and counted. */
export interface DroppedFillJson {
  account_id: string;
  instrument_id: string;
  dropped: true;
  reason: string;
}

/** The body each command answers with on success (docs/api.md#shapes). */
export interface CommandAnswers {
  advance: ClockJson;
  tick: { instrument_id: string; price: string; size?: number; occurred_at: number };
  register_firm: { firm_id: string; slug: string };
  open_account: RiskStateJson;
  provision_accounts: ProvisionResultJson;
  replace_account: ReplaceResultJson;
  place_order: OrderJson;
  modify_order: OrderJson;
  cancel_order: OrderJson;
  link_oco: OcoGroupJson;
  add_oco_companion: OcoGroupJson;
  record_fill: FillJson | DroppedFillJson;
  set_daily_loss_trigger: DailyLossTriggerResultJson;
  reanchor_daily_loss: ReanchorResultJson;
  lockout: RiskStateJson;
  unlock: RiskStateJson;
  flatten: FlattenResultJson;
  cancel_all_orders: CancelAllResultJson;
  set_max_loss_limit: RiskStateJson;
  adjust_balance: AdjustmentJson;
  set_user_risk_halt: RiskStateJson;
  set_offering: OfferingsJson;
  assign_staff_role: { status: 'ok'; role_id: string };
  remove_staff_role: { status: 'ok' };
}

export type AnswerOf<C extends KernelCommand> = CommandAnswers[C['type']];

/** The firm-control operations on one account, by command type. */
export const ACCOUNT_COMMANDS = [
  'set_daily_loss_trigger',
  'reanchor_daily_loss',
  'lockout',
  'unlock',
  'flatten',
  'cancel_all_orders',
  'set_max_loss_limit',
  'adjust_balance',
  'set_user_risk_halt',
] as const;
export type AccountCommandType = (typeof ACCOUNT_COMMANDS)[number];

/** Every command type, for readers of journaled inputs (a scenario's `input` steps). */
export const KERNEL_COMMAND_TYPES = [
  'advance',
  'tick',
  'register_firm',
  'open_account',
  'provision_accounts',
  'replace_account',
  'place_order',
  'modify_order',
  'cancel_order',
  'link_oco',
  'add_oco_companion',
  'record_fill',
  'set_offering',
  'assign_staff_role',
  'remove_staff_role',
  ...ACCOUNT_COMMANDS,
] as const satisfies readonly KernelCommand['type'][];

// The list above names every member of the union: a compile error here names the one it misses.
const _everyCommandListed: [Exclude<KernelCommand['type'], (typeof KERNEL_COMMAND_TYPES)[number]>] extends [never]
  ? true
  : never = true;
