// XState machines run without an actor (docs/architecture.md#xstate-models-lifecycles-not-ticks): orders and
// accounts are many, and an actor each (its system, mailbox and snapshots) cost more than the rest of their work. So
// a machine is compiled once, at start-up, into a table, and only through XState's public pure functions
// (`initialTransition`, `transition`, `snapshot.can`, `machine.provide`): never its internals, so an XState upgrade
// that changed how a machine answers changes the table the same way, or is refused here.
//
// How: the machine's named guards and assign actions are also given here as plain functions. A probe copy of the
// machine (`provide`) answers each guard from a list of decisions and only records its actions. Walking from the
// initial state, every (state, event) pair is asked of `transition` under every answer of the guards XState asks,
// in the order it asks them; that is a small decision tree per pair, whose leaves hold the next state value and the
// actions XState would run, in its order. What a table cannot run the XState way (an action that is not one of the
// named assigns, an action when the machine starts, a context changed by something else) is refused.
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine, type StateValue } from 'xstate';

export type GuardArgs<C, E> = { context: C; event: E };
/** A guard as the machine's `setup` names it: a pure test of the context before the event, and the event. */
export type NamedGuard<C, E> = (args: GuardArgs<C, E>, params: never) => boolean;
/** An assign action's assignment as the machine's `setup` names it (`assign(assignment)`). */
export type NamedAssignment<C, E> = (args: GuardArgs<C, E>, params: never) => Partial<C>;

export interface MachineImplementations<C, E> {
  guards: Record<string, NamedGuard<C, E>>;
  assignments: Record<string, NamedAssignment<C, E>>;
}

/** A transition XState would take: the state value after it and the assignments, in the order XState runs them. */
export interface TakenTransition<C, E, V> {
  value: V;
  assignments: readonly ((args: GuardArgs<C, E>) => Partial<C>)[];
}

/** What XState does with an event in one state: ask a guard, take a transition, or ignore the event. */
type Step<C, E, V> =
  | { ask: (args: GuardArgs<C, E>) => boolean; then: Step<C, E, V>; otherwise: Step<C, E, V> }
  | { take: TakenTransition<C, E, V> }
  | { ignore: true };

export interface MachineTable<C, E extends { type: string }, V> {
  initialValue: V;
  keyOf: (value: V) => string;
  /** By state (keyOf its value), then event type. */
  steps: ReadonlyMap<string, ReadonlyMap<string, Step<C, E, V>>>;
}

/** Throws: `machine` has something a table cannot run as XState would. */
export function cannotRun(machine: AnyStateMachine, what: string): never {
  throw new Error(`the ${machine.id} machine cannot run without an actor (machine-tables.ts): ${what}`);
}

/**
 * A state value as a lookup key: a flat machine's state name; a parallel one's regions in the order of the value's
 * keys, which is the machine's (every value here is XState's, or a copy of one).
 */
export function stateKey(value: StateValue | object): string {
  if (typeof value === 'string') return value;
  const regions = value as Record<string, StateValue>;
  let key = '';
  for (const region in regions) key += `${key ? ',' : ''}${region}:${stateKey(regions[region]!)}`;
  return key;
}

/**
 * The table of `machine`, whose named guards and assigns are `implementations`, for the events `eventTypes`. `input`
 * starts the walk: the machine's guards are asked of the probe, so any input reaches every state a real one does.
 * `keyOf` names a state value for the lookup (an account's is looked up at each of its events: stateKey's loop cost
 * more than the rest of the lookup).
 */
export function compileMachine<C, E extends { type: string }, V>(
  machine: AnyStateMachine,
  implementations: MachineImplementations<C, E>,
  eventTypes: readonly E['type'][],
  input: unknown,
  keyOf: (value: V) => string = stateKey as (value: V) => string,
): MachineTable<C, E, V> {
  const probe = probeOf(machine, implementations);
  const [initial, startActions] = initialTransition(probe.machine, input);
  if (startActions.length > 0) cannotRun(machine, `it runs ${startActions[0]!.type} when it starts`);
  const steps = new Map<string, Map<string, Step<C, E, V>>>();
  const frontier: AnyMachineSnapshot[] = [initial as AnyMachineSnapshot];
  for (let snapshot = frontier.pop(); snapshot; snapshot = frontier.pop()) {
    const key = keyOf(snapshot.value as V);
    if (steps.has(key)) continue;
    const byEvent = new Map<string, Step<C, E, V>>();
    steps.set(key, byEvent);
    for (const type of eventTypes) {
      const explored = explore<C, E, V>(machine, probe, implementations, snapshot, type, new Map());
      byEvent.set(type, explored.step);
      frontier.push(...explored.reached);
    }
  }
  return { initialValue: initial.value as V, keyOf, steps };
}

/** The transition XState takes for `event` in the state `value` with `context`, or undefined when it ignores it. */
export function chooseTransition<C, E extends { type: string }, V>(
  table: MachineTable<C, E, V>,
  value: V,
  context: C,
  event: E,
): TakenTransition<C, E, V> | undefined {
  let step = table.steps.get(table.keyOf(value))?.get(event.type);
  while (step && 'ask' in step) step = step.ask({ context, event }) ? step.then : step.otherwise;
  return step && 'take' in step ? step.take : undefined;
}

/** The context after the transition's assignments, each on the context the one before left, as XState's assign. */
export function assignedContext<C, E, V>(taken: TakenTransition<C, E, V>, context: C, event: E): C {
  for (const assignment of taken.assignments) context = { ...context, ...assignment({ context, event }) };
  return context;
}

interface Probe {
  machine: AnyStateMachine;
  /** The guard decisions of the path being explored, by guardKey; a guard not decided yet is recorded here. */
  decisions: Map<string, boolean>;
  undecided: { key: string; name: string; params: unknown } | undefined;
}

const guardKey = (name: string, params: unknown) => `${name}(${JSON.stringify(params) ?? ''})`;

/** The machine with its guards answered from the probe's decisions and its actions only recorded, not run. */
function probeOf<C, E>(machine: AnyStateMachine, implementations: MachineImplementations<C, E>): Probe {
  const probe: Probe = { machine, decisions: new Map(), undecided: undefined };
  const guards = Object.fromEntries(
    Object.keys(implementations.guards).map((name) => [
      name,
      (_args: unknown, params: unknown) => {
        const key = guardKey(name, params);
        const decided = probe.decisions.get(key);
        if (decided !== undefined) return decided;
        probe.undecided ??= { key, name, params };
        return false;
      },
    ]),
  );
  const actions = Object.fromEntries(Object.keys(implementations.assignments).map((name) => [name, () => undefined]));
  probe.machine = machine.provide({ guards, actions } as never) as AnyStateMachine;
  return probe;
}

/**
 * What XState does with an event of `type` in `snapshot`'s state, given the guard answers `decisions`: the first
 * guard it asks that is not decided yet becomes a question, each answer explored in turn. Also the states reached.
 */
function explore<C, E extends { type: string }, V>(
  machine: AnyStateMachine,
  probe: Probe,
  implementations: MachineImplementations<C, E>,
  snapshot: AnyMachineSnapshot,
  type: string,
  decisions: Map<string, boolean>,
): { step: Step<C, E, V>; reached: AnyMachineSnapshot[] } {
  const where = `${stateKey(snapshot.value)} + ${type}`;
  probe.decisions = decisions;
  probe.undecided = undefined;
  const [next, actions] = transition(probe.machine, snapshot, { type });
  const undecided = probe.undecided as Probe['undecided'];
  if (undecided) {
    const branch = (answer: boolean) =>
      explore<C, E, V>(machine, probe, implementations, snapshot, type, new Map(decisions).set(undecided.key, answer));
    const [yes, no] = [branch(true), branch(false)];
    const guard = implementations.guards[undecided.name]!;
    const params = undecided.params as never;
    return {
      step: { ask: (args) => guard(args, params), then: yes.step, otherwise: no.step },
      reached: [...yes.reached, ...no.reached],
    };
  }
  if (!snapshot.can({ type })) return { step: { ignore: true }, reached: [] };
  if (next.context !== snapshot.context)
    cannotRun(machine, `${where} changes its context other than by a named assign`);
  const assignments = actions.map((action) => {
    const assignment = implementations.assignments[action.type] ?? cannotRun(machine, `${where} runs ${action.type}`);
    const params = action.params as never;
    return (args: GuardArgs<C, E>) => assignment(args, params);
  });
  return { step: { take: { value: next.value as V, assignments } }, reached: [next] };
}
