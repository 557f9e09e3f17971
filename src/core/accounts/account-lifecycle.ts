// The account machine run without an actor (docs/architecture.md#xstate-models-lifecycles-not-ticks), as the order
// machine is (order-lifecycle.ts). An actor per account (its system, mailbox and snapshots) is costly to open and to
// collect for a lifecycle that sees a handful of events, and a replay opens thousands of accounts. The
// machine (two parallel regions) is compiled once into a table through XState's pure functions (machine-tables.ts):
// its leaves hold the whole state value and every region's assigns in the order XState runs them.
// test/core/accounts/account-lifecycle.test.ts checks that it answers as an actor does for every state an account
// can reach and every event.
import { assignedContext, chooseTransition, compileMachine } from '../machine-tables.js';
import {
  accountAssignments,
  accountGuards,
  accountMachine,
  initialAccountContext,
  type AccountLifecycleContext,
  type AccountLifecycleEvent,
  type AccountLifecycleInput,
  type AccountStatus,
  type RiskEngineState,
} from './account.machine.js';

export interface AccountStateValue {
  status: AccountStatus;
  riskEngine: RiskEngineState;
}

/** An account's lifecycle as plain data: the machine's state value and context. */
export interface AccountLifecycleState {
  value: AccountStateValue;
  context: AccountLifecycleContext;
}

const EVENT_TYPES = {
  MAX_LOSS_BREACH: true,
  RULE_FAILURE: true,
  DAILY_LOSS_BREACH: true,
  SESSION_ROLL: true,
  FLAT_BY: true,
  FLAT_BY_END: true,
  LOCKOUT: true,
  UNLOCK: true,
  PASS: true,
  REPLACE: true,
  RISK_LOADED: true,
} satisfies Record<AccountLifecycleEvent['type'], true>;

const TABLE = compileMachine<AccountLifecycleContext, AccountLifecycleEvent, AccountStateValue>(
  accountMachine,
  { guards: accountGuards, assignments: accountAssignments },
  Object.keys(EVENT_TYPES) as AccountLifecycleEvent['type'][],
  { occurredAtMs: 0 } satisfies AccountLifecycleInput,
  (value) => `${value.status},${value.riskEngine}`,
);

export function initialAccountState(input: AccountLifecycleInput): AccountLifecycleState {
  return { value: { ...TABLE.initialValue }, context: initialAccountContext(input) };
}

/** The state after `event`, or undefined when no transition takes it (the actor would ignore it: `can` is false). */
export function nextAccountState(
  state: AccountLifecycleState,
  event: AccountLifecycleEvent,
): AccountLifecycleState | undefined {
  const taken = chooseTransition(TABLE, state.value, state.context, event);
  if (!taken) return undefined;
  return { value: { ...taken.value }, context: assignedContext(taken, state.context, event) };
}
