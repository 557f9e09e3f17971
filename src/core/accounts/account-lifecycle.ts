// The account machine run without an actor (docs/architecture.md#xstate-models-lifecycles-not-ticks), as the order
// machine is (order-lifecycle.ts). An actor per account (its system, mailbox and snapshots) cost ~30 µs to open and
// ~40 % of the garbage collection of a replay of 10,000 accounts, for a lifecycle that sees a handful of events. So
// the machine's own definition is compiled once, at start-up, into per-region tables of (state, event) → candidate
// transitions, each with the machine's guard, target and `assign` actions, and run the way XState runs a parallel
// machine:
// - each region's active state offers its transitions for the event, then the region's own, first enabled wins;
// - every guard sees the state before the event; the chosen transitions' assigns then run in region order, each on
//   the context the one before left.
// The machine stays the only statement of the lifecycle: the compiler refuses what it does not run the XState way
// (deeper nesting, entry/exit or side-effect actions, eventless or delayed transitions, a target in another
// region), and test/core/accounts/account-lifecycle.test.ts checks that it answers as an actor does for every state
// an account can reach and every event.
import { and, not, or, stateIn } from 'xstate';
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
type Args = { context: AccountLifecycleContext; event: AccountLifecycleEvent };
type Guard = (state: AccountLifecycleState, event: AccountLifecycleEvent) => boolean;
type Assignment = (args: Args) => Partial<AccountLifecycleContext>;
type EventType = AccountLifecycleEvent['type'];

interface CompiledTransition {
  guard: Guard | undefined;
  /** The region's next state; a targetless transition stays where it is. */
  target: string | undefined;
  assignments: readonly Assignment[];
}

interface CompiledRegion {
  name: Region;
  /** Transitions of each state of the region, then of the region itself, in the order XState tries them. */
  byState: Map<string, Map<EventType, CompiledTransition[]>>;
}

const REGIONS = compile();

export function initialAccountState(input: AccountLifecycleInput): AccountLifecycleState {
  const makeContext = accountMachine.config.context as (args: { input: AccountLifecycleInput }) => Args['context'];
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
  let chosen: [Region, CompiledTransition][] | undefined;
  for (const region of REGIONS) {
    const candidates = region.byState.get(state.value[region.name])?.get(event.type);
    const transition = candidates?.find((t) => t.guard === undefined || t.guard(state, event));
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

/** The machine's regions as lookup tables, checked to be the parallel machine of flat regions it runs. */
function compile(): CompiledRegion[] {
  const refuse = (what: string): never => {
    throw new Error(`account-lifecycle.ts cannot run the account machine without an actor: ${what}`);
  };
  const { root } = accountMachine;
  if (root.type !== 'parallel') refuse('its root is not a parallel state');
  for (const node of [root, ...Object.values(root.states)])
    if (node.entry.length > 0 || node.exit.length > 0) refuse(`${node.id} has entry or exit actions`);
  if (Object.keys(root.on).length > 0) refuse('its root takes events');
  const guardOf = compileGuard(refuse);
  const actions = accountMachine.implementations.actions as unknown as Record<string, { assignment?: unknown }>;
  const assignmentOf = (action: unknown): Assignment => {
    const { type, params } =
      typeof action === 'string'
        ? { type: action, params: undefined }
        : typeof action === 'object' && action !== null && 'type' in action
          ? (action as { type: string; params?: unknown })
          : refuse('an inline action');
    const assignment = actions[type]?.assignment;
    if (typeof assignment !== 'function') return refuse(`${type} is not an assign action`);
    return (args) => (assignment as (args: Args, params: unknown) => Partial<AccountLifecycleContext>)(args, params);
  };
  return Object.entries(root.states).map(([name, region]) => {
    if (region.type !== 'compound') refuse(`region ${name} is not a compound state`);
    const compileOn = (node: typeof region) => {
      if (node.always && node.always.length > 0) refuse(`${node.id} has eventless transitions`);
      if (node.after.length > 0) refuse(`${node.id} has delayed transitions`);
      if (node.invoke.length > 0) refuse(`${node.id} invokes`);
      return Object.entries(node.on).map(([eventType, transitions]) => {
        const compiled = transitions.map((t): CompiledTransition => {
          if (t.target && t.target.length !== 1) refuse(`${node.id} + ${eventType} has ${t.target.length} targets`);
          const target = t.target?.[0];
          if (target && target.parent !== region) refuse(`${node.id} + ${eventType} leaves its region`);
          return { guard: guardOf(t.guard), target: target?.key, assignments: t.actions.map(assignmentOf) };
        });
        return [eventType as EventType, compiled] as const;
      });
    };
    const ofRegion = compileOn(region);
    const byState = new Map<string, Map<EventType, CompiledTransition[]>>();
    for (const [key, node] of Object.entries(region.states)) {
      if (Object.keys(node.states).length > 0) refuse(`${node.id} has child states`);
      const table = new Map(compileOn(node));
      for (const [eventType, transitions] of ofRegion)
        table.set(eventType, [...(table.get(eventType) ?? []), ...transitions]);
      byState.set(key, table);
    }
    return { name: name as Region, byState };
  });
}

/**
 * A guard as XState states it: a named guard of the machine (with its params), or `and`, `or`, `not` and `stateIn`
 * built from them. The combinators are told apart by their check, compared with those of the same combinators made
 * here: XState's own functions, not a name that could change.
 */
function compileGuard(refuse: (what: string) => never): (guard: unknown) => Guard | undefined {
  const guards = accountMachine.implementations.guards as unknown as Record<
    string,
    (args: Args, params: unknown) => boolean
  >;
  const checkOf = (combinator: unknown) => (combinator as { check: unknown }).check;
  const checks = {
    and: checkOf(and([])),
    or: checkOf(or([])),
    not: checkOf(not(() => true)),
    stateIn: checkOf(stateIn({})),
  };
  const compileOne = (guard: unknown): Guard => {
    if (typeof guard === 'string' || (typeof guard === 'object' && guard !== null && 'type' in guard)) {
      const { type, params } = typeof guard === 'string' ? { type: guard, params: undefined } : (guard as never);
      const implementation = guards[type] ?? refuse(`unknown guard ${String(type)}`);
      return (state, event) => implementation({ context: state.context, event }, params);
    }
    const combinator = guard as { check?: unknown; guards?: unknown[]; stateValue?: unknown };
    if (typeof guard !== 'function') return refuse('a guard that is neither named nor a combinator');
    if (combinator.check === checks.and || combinator.check === checks.or || combinator.check === checks.not) {
      const parts = (combinator.guards ?? []).map(compileOne);
      if (combinator.check === checks.and) return (state, event) => parts.every((part) => part(state, event));
      if (combinator.check === checks.or) return (state, event) => parts.some((part) => part(state, event));
      return (state, event) => !parts[0]!(state, event);
    }
    if (combinator.check === checks.stateIn && typeof combinator.stateValue === 'object') {
      const wanted = Object.entries(combinator.stateValue as Record<string, unknown>);
      if (!wanted.every(([region, key]) => region in accountMachine.root.states && typeof key === 'string'))
        refuse('a stateIn guard that is not one state per region');
      return (state) => wanted.every(([region, key]) => state.value[region as Region] === key);
    }
    return refuse('an inline guard');
  };
  return (guard) => (guard === undefined ? undefined : compileOne(guard));
}
