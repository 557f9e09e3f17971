// The account machine run without an actor (docs/architecture.md#xstate-models-lifecycles-not-ticks), as the order
// machine is (order-lifecycle.ts). An actor per account (its system, mailbox and snapshots) cost ~30 µs to open and
// ~40 % of the garbage collection of a replay of 10,000 accounts, for a lifecycle that sees a handful of events. The
// machine is parallel: each of its regions is compiled once into a table (machine-tables.ts), and the tables are run
// the way XState runs a parallel machine:
// - each region's active state offers its transitions for the event, then the region's own, first enabled wins;
// - every guard sees the state before the event; the chosen transitions' assigns then run in region order, each on
//   the context the one before left.
// test/core/accounts/account-lifecycle.test.ts checks that it answers as an actor does for every state an account
// can reach and every event.
import { cannotRun, checkQuiet, compileRegion, type TableTransition, type TransitionTable } from '../machine-tables.js';
import {
  accountMachine,
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

type Region = keyof AccountStateValue;

interface CompiledRegion {
  name: Region;
  table: TransitionTable<AccountLifecycleContext, AccountLifecycleEvent>;
}

const REGIONS = compile();

export function initialAccountState(input: AccountLifecycleInput): AccountLifecycleState {
  const makeContext = accountMachine.config.context as (args: {
    input: AccountLifecycleInput;
  }) => AccountLifecycleContext;
  const value = Object.fromEntries(
    REGIONS.map((region) => [region.name, accountMachine.root.states[region.name]!.config.initial]),
  ) as unknown as AccountStateValue;
  return { value, context: makeContext({ input }) };
}

/** The state after `event`, or undefined when no transition takes it (the actor would ignore it: `can` is false). */
export function nextAccountState(
  state: AccountLifecycleState,
  event: AccountLifecycleEvent,
): AccountLifecycleState | undefined {
  let chosen: [Region, TableTransition<AccountLifecycleContext, AccountLifecycleEvent>][] | undefined;
  for (const region of REGIONS) {
    const candidates = region.table.get(state.value[region.name])?.get(event.type);
    const transition = candidates?.find((t) => t.guard === undefined || t.guard(state.context, event, state.value));
    if (transition) (chosen ??= []).push([region.name, transition]);
  }
  if (chosen === undefined) return undefined;
  let context = state.context;
  const value = { ...state.value };
  for (const [region, transition] of chosen) {
    for (const assignment of transition.assignments) context = { ...context, ...assignment({ context, event }) };
    if (transition.target !== undefined) (value as Record<Region, string>)[region] = transition.target;
  }
  return { value, context };
}

/** The machine's regions as lookup tables: a parallel root that takes no events itself, over compound regions. */
function compile(): CompiledRegion[] {
  const { root } = accountMachine;
  if (root.type !== 'parallel') cannotRun(accountMachine, 'its root is not a parallel state');
  checkQuiet(accountMachine, root);
  if (Object.keys(root.on).length > 0) cannotRun(accountMachine, 'its root takes events');
  return Object.entries(root.states).map(([name, region]) => ({
    name: name as Region,
    table: compileRegion<AccountLifecycleContext, AccountLifecycleEvent>(accountMachine, region),
  }));
}
