// The compiler of lifecycle tables (src/core/machine-tables.ts): it learns a machine only through XState's pure
// functions, answers as an actor does (guards asked in XState's order, assigns run in its order, across parallel
// regions, `stateIn` included), and refuses at start-up what a table cannot run. The order and account lifecycles'
// own tests check their tables against actors for every state and event.
import { and, assign, createActor, not, setup, stateIn, type AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  assignedContext,
  chooseTransition,
  compileMachine,
  stateKey,
  type MachineTable,
} from '../../src/core/machine-tables.js';

type Context = { count: number; log: string };
type Event = { type: 'ADD'; by: number } | { type: 'RESET' };
type Args = { context: Context; event: Event };

const guards = {
  small: ({ event }: Args) => event.type === 'ADD' && event.by < 10,
  atLeast: ({ context }: Args, params: { count: number }) => context.count >= params.count,
};
const assignments = {
  add: ({ context, event }: Args) => ({ count: context.count + (event.type === 'ADD' ? event.by : 0) }),
  note: ({ context }: Args, params: { text: string }) => ({ log: `${context.log}${params.text}` }),
  reset: () => ({ count: 0 }),
};
const base = setup({
  types: { context: {} as Context, events: {} as Event },
  guards,
  actions: {
    add: assign(assignments.add),
    note: assign(assignments.note),
    reset: assign(assignments.reset),
    shout: () => undefined,
  },
});
const START: Context = { count: 0, log: '' };
const compile = (machine: AnyStateMachine): MachineTable<Context, Event, unknown> =>
  compileMachine<Context, Event, unknown>(machine, { guards, assignments }, ['ADD', 'RESET'], undefined);

/** A parallel machine whose regions both take ADD, one guarded by the other's state. */
const parallel = base.createMachine({
  type: 'parallel',
  context: START,
  states: {
    left: {
      initial: 'low',
      states: {
        low: {
          on: {
            ADD: [
              { guard: 'small', actions: ['add', { type: 'note', params: { text: 's' } }] },
              { target: 'high', actions: 'add' },
            ],
          },
        },
        high: { on: { RESET: { target: 'low', actions: 'reset' } } },
      },
    },
    right: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            ADD: {
              guard: and([{ type: 'atLeast', params: { count: 5 } }, not(stateIn({ left: 'high' }))]),
              target: 'busy',
              actions: { type: 'note', params: { text: 'r' } },
            },
          },
        },
        busy: {},
      },
    },
  },
});

describe('machine tables (machine-tables.ts)', () => {
  it('answers as an actor of a parallel machine: guards on the context before the event, assigns in region order', () => {
    const table = compile(parallel);
    const actor = createActor(parallel).start();
    let state = { value: table.initialValue, context: START };
    // ADD 3: left takes `small` (count 0 + 3 = 3, log 's'); right asks atLeast 5 of the count before: 0, no.
    // ADD 4: left small again (3 + 4 = 7, log 'ss'); right: atLeast 5 of the count before (3), no.
    // ADD 2: left small (7 + 2 = 9, 'sss'); right: 7 >= 5 and left not high: busy, note 'r' after left's: 'sssr'.
    // ADD 20: not small: left goes high, count 29; right is busy and takes nothing. RESET: left low, count 0.
    const events: Event[] = [
      { type: 'ADD', by: 3 },
      { type: 'ADD', by: 4 },
      { type: 'ADD', by: 2 },
      { type: 'ADD', by: 20 },
      { type: 'RESET' },
      { type: 'RESET' },
    ];
    const seen: string[] = [];
    for (const event of events) {
      const taken = chooseTransition(table, state.value, state.context, event);
      const accepted = actor.getSnapshot().can(event);
      expect(taken !== undefined, `${event.type} taken as the actor's can() says`).toBe(accepted);
      actor.send(event);
      if (taken) state = { value: taken.value, context: assignedContext(taken, state.context, event) };
      expect(state).toEqual({ value: actor.getSnapshot().value, context: actor.getSnapshot().context });
      seen.push(`${stateKey(state.value as object)} ${state.context.count} ${state.context.log}`);
    }
    expect(seen).toEqual([
      'left:low,right:idle 3 s',
      'left:low,right:idle 7 ss',
      'left:low,right:busy 9 sssr',
      'left:high,right:busy 29 sssr',
      'left:low,right:busy 0 sssr',
      'left:low,right:busy 0 sssr',
    ]);
  });

  it('asks the guards XState asks, in its order, and a repeated guard only once', () => {
    let asked: string[] = [];
    const counting = {
      small: (args: Args) => (asked.push('small'), guards.small(args)),
      atLeast: (args: Args, params: { count: number }) => (
        asked.push(`atLeast ${params.count}`),
        guards.atLeast(args, params)
      ),
    };
    const table = compileMachine<Context, Event, unknown>(
      parallel,
      { guards: counting, assignments },
      ['ADD', 'RESET'],
      undefined,
    );
    asked = [];
    chooseTransition(table, { left: 'low', right: 'idle' }, { count: 7, log: '' }, { type: 'ADD', by: 30 });
    expect(asked, "left's small fails, its second transition is unguarded; right asks atLeast 5").toEqual([
      'small',
      'atLeast 5',
    ]);
    asked = [];
    const taken = chooseTransition(
      table,
      { left: 'high', right: 'idle' },
      { count: 7, log: '' },
      { type: 'ADD', by: 1 },
    );
    expect(asked, 'left:high takes no ADD; atLeast is asked, then stateIn (not a named guard) says no').toEqual([
      'atLeast 5',
    ]);
    expect(taken).toBeUndefined();
  });

  /** A flat machine starting in `a`. */
  const flat = (states: Record<string, object>) =>
    base.createMachine({ initial: 'a', context: START, states } as Parameters<typeof base.createMachine>[0]);
  const refusals: Array<[string, Record<string, object>, RegExp]> = [
    ['entry actions when it starts', { a: { entry: 'add' } }, /runs add when it starts/],
    ['an action that is not a named assign', { a: { on: { RESET: { actions: 'shout' } } } }, /a \+ RESET runs shout/],
    ['delayed transitions', { a: { on: { RESET: 'b' } }, b: { after: { 100: 'a' } } }, /a \+ RESET runs xstate/],
    [
      'an inline assign',
      { a: { on: { RESET: { actions: assign({ count: 1 }) } } } },
      /a \+ RESET changes its context other than by a named assign/,
    ],
  ];
  it.each(refusals)('refuses a machine with %s, naming the state and event', (_what, states, message) => {
    expect(() => compile(flat(states))).toThrow(message);
  });

  it('runs entry and exit actions and eventless transitions the way XState does', () => {
    const machine = flat({
      a: { on: { ADD: 'b' }, exit: { type: 'note', params: { text: 'x' } } },
      b: { entry: 'add', always: { guard: 'small', target: 'a' } },
    });
    const table = compile(machine);
    const actor = createActor(machine).start();
    for (const by of [3, 30]) {
      const before = actor.getSnapshot();
      const event: Event = { type: 'ADD', by };
      const taken = chooseTransition(table, before.value, before.context, event)!;
      actor.send(event);
      expect({ value: taken.value, context: assignedContext(taken, before.context, event) }).toEqual({
        value: actor.getSnapshot().value,
        context: actor.getSnapshot().context,
      });
    }
    expect(actor.getSnapshot().context, 'exit a (x), enter b (+3), back to a; exit a (x), +30, stays in b').toEqual({
      count: 33,
      log: 'xx',
    });
  });
});
