// XState machines run without an actor (docs/architecture.md#xstate-models-lifecycles-not-ticks): orders and
// accounts are many, and an actor each (its system, mailbox and snapshots) cost more than the rest of their work. So
// a region of a machine (the root of a flat machine, or one region of a parallel one) is compiled once, at start-up,
// into a table of (state, event) → candidate transitions, each with the machine's guard, target and `assign`
// actions, in the order XState tries them: the state's own, then its region's. The machine stays the only statement
// of the lifecycle: what a table cannot run the XState way (child states, entry or exit actions, eventless, delayed
// or invoked work, a target outside the region, a re-entry, an action that is not a named assign, an inline guard)
// is refused here, and each lifecycle's test checks its answers against an actor's for every state and event.
import { and, not, or, stateIn, type AnyStateMachine } from 'xstate';

type StateNode = AnyStateMachine['root'];

/** The state value a guard may test with stateIn: each region's state by its name; undefined without regions. */
export type RegionValue = object | undefined;
export type TableGuard<C, E> = (context: C, event: E, value: RegionValue) => boolean;
export type TableAssignment<C, E> = (args: { context: C; event: E }) => Partial<C>;

export interface TableTransition<C, E> {
  guard: TableGuard<C, E> | undefined;
  /** The region's next state; a targetless transition stays where it is. */
  target: string | undefined;
  assignments: readonly TableAssignment<C, E>[];
}

/** A region's transitions: by state, then by event type, the candidates in the order XState tries them. */
export type TransitionTable<C, E> = ReadonlyMap<string, ReadonlyMap<string, readonly TableTransition<C, E>[]>>;

/** Throws: `machine` has something a table cannot run as XState would. */
export function cannotRun(machine: AnyStateMachine, what: string): never {
  throw new Error(`the ${machine.id} machine cannot run without an actor (machine-tables.ts): ${what}`);
}

/** A state node that does nothing on its own: no entry or exit actions, no eventless, delayed or invoked work. */
export function checkQuiet(machine: AnyStateMachine, node: StateNode): void {
  // Delays and invocations first: XState gives them entry and exit actions of their own.
  if (node.after.length > 0) cannotRun(machine, `${node.id} has delayed transitions`);
  if (node.invoke.length > 0) cannotRun(machine, `${node.id} invokes`);
  if (node.always && node.always.length > 0) cannotRun(machine, `${node.id} has eventless transitions`);
  if (node.entry.length > 0 || node.exit.length > 0) cannotRun(machine, `${node.id} has entry or exit actions`);
}

/** The table of a compound region whose states are flat. */
export function compileRegion<C, E>(machine: AnyStateMachine, region: StateNode): TransitionTable<C, E> {
  if (region.type !== 'compound') cannotRun(machine, `${region.id} is not a compound state`);
  checkQuiet(machine, region);
  const guardOf = guardCompiler<C, E>(machine);
  const assignmentOf = assignmentCompiler<C, E>(machine);
  const compileOn = (node: StateNode) =>
    Object.entries(node.on).map(([eventType, transitions]) => {
      const compiled = transitions.map((t): TableTransition<C, E> => {
        const where = `${node.id} + ${eventType}`;
        if (t.target && t.target.length !== 1) cannotRun(machine, `${where} has ${t.target.length} targets`);
        const target = t.target?.[0];
        if (target && target.parent !== region) cannotRun(machine, `${where} leaves its region`);
        if (t.reenter) cannotRun(machine, `${where} re-enters its state`);
        return { guard: guardOf(t.guard), target: target?.key, assignments: t.actions.map(assignmentOf) };
      });
      return [eventType, compiled] as const;
    });
  const ofRegion = compileOn(region);
  const table = new Map<string, Map<string, TableTransition<C, E>[]>>();
  for (const [key, node] of Object.entries(region.states)) {
    if (Object.keys(node.states).length > 0) cannotRun(machine, `${node.id} has child states`);
    checkQuiet(machine, node);
    const byEvent = new Map(compileOn(node));
    for (const [eventType, transitions] of ofRegion)
      byEvent.set(eventType, [...(byEvent.get(eventType) ?? []), ...transitions]);
    table.set(key, byEvent);
  }
  return table;
}

/** An action as the machine names it (with its params): it must be one of the machine's assign actions. */
function assignmentCompiler<C, E>(machine: AnyStateMachine): (action: unknown) => TableAssignment<C, E> {
  const actions = machine.implementations.actions as unknown as Record<string, { assignment?: unknown }>;
  return (action) => {
    const { type, params } =
      typeof action === 'string'
        ? { type: action, params: undefined }
        : typeof action === 'object' && action !== null && 'type' in action
          ? (action as { type: string; params?: unknown })
          : cannotRun(machine, 'an inline action');
    const assignment = actions[type]?.assignment;
    if (typeof assignment === 'function') {
      const assign = assignment as (args: { context: C; event: E }, params: unknown) => Partial<C>;
      return (args) => assign(args, params);
    }
    // assign({ key: value or (args, params) => value }): each key's value, as XState computes it.
    if (typeof assignment === 'object' && assignment !== null) {
      const properties = Object.entries(assignment);
      return (args) =>
        Object.fromEntries(
          properties.map(([key, value]) => [key, typeof value === 'function' ? value(args, params) : value]),
        ) as Partial<C>;
    }
    return cannotRun(machine, `${type} is not an assign action`);
  };
}

/**
 * A guard as XState states it: a named guard of the machine (with its params), or `and`, `or`, `not` and `stateIn`
 * built from them. The combinators are told apart by their check, compared with those of the same combinators made
 * here: XState's own functions, not a name that could change.
 */
function guardCompiler<C, E>(machine: AnyStateMachine): (guard: unknown) => TableGuard<C, E> | undefined {
  const guards = machine.implementations.guards as unknown as Record<
    string,
    (args: { context: C; event: E }, params: unknown) => boolean
  >;
  const checkOf = (combinator: unknown) => (combinator as { check: unknown }).check;
  const checks = {
    and: checkOf(and([])),
    or: checkOf(or([])),
    not: checkOf(not(() => true)),
    stateIn: checkOf(stateIn({})),
  };
  const compileOne = (guard: unknown): TableGuard<C, E> => {
    if (typeof guard === 'string' || (typeof guard === 'object' && guard !== null && 'type' in guard)) {
      const { type, params } = typeof guard === 'string' ? { type: guard, params: undefined } : (guard as never);
      const implementation = guards[type] ?? cannotRun(machine, `unknown guard ${String(type)}`);
      return (context, event) => implementation({ context, event }, params);
    }
    if (typeof guard !== 'function') return cannotRun(machine, 'a guard that is neither named nor a combinator');
    const combinator = guard as { check?: unknown; guards?: unknown[]; stateValue?: unknown };
    if (combinator.check === checks.and || combinator.check === checks.or || combinator.check === checks.not) {
      const parts = (combinator.guards ?? []).map(compileOne);
      if (combinator.check === checks.and) return (c, e, v) => parts.every((part) => part(c, e, v));
      if (combinator.check === checks.or) return (c, e, v) => parts.some((part) => part(c, e, v));
      return (c, e, v) => !parts[0]!(c, e, v);
    }
    if (combinator.check === checks.stateIn && typeof combinator.stateValue === 'object') {
      const wanted = Object.entries(combinator.stateValue as Record<string, unknown>);
      if (
        machine.root.type !== 'parallel' ||
        !wanted.every(([region, key]) => region in machine.root.states && typeof key === 'string')
      )
        cannotRun(machine, 'a stateIn guard that is not one state per region of a parallel machine');
      return (_c, _e, value) => wanted.every(([region, key]) => (value as Record<string, string>)[region] === key);
    }
    return cannotRun(machine, 'an inline guard');
  };
  return (guard) => (guard === undefined ? undefined : compileOne(guard));
}
