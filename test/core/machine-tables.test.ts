// The compiler of lifecycle tables (src/core/machine-tables.ts): it runs only what a table runs the XState way, and
// refuses the rest at start-up with the node that has it. The order and account lifecycles' own tests check their
// tables against actors for every state and event.
import { assign, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { compileRegion } from '../../src/core/machine-tables.js';

type Context = { count: number };
type Event = { type: 'ADD'; by: number } | { type: 'RESET' };

const base = setup({
  types: { context: {} as Context, events: {} as Event },
  guards: { small: ({ event }) => event.type === 'ADD' && event.by < 10 },
  actions: {
    add: assign(({ context, event }) => ({ count: context.count + (event.type === 'ADD' ? event.by : 0) })),
    reset: assign({ count: 0 }),
    shout: () => undefined,
  },
});

describe('machine tables (machine-tables.ts)', () => {
  it("offers a state's own transitions before its region's, each with the machine's guard, target and assigns", () => {
    const machine = base.createMachine({
      context: { count: 0 },
      initial: 'idle',
      on: { ADD: { target: '.busy', actions: 'add' } },
      states: {
        idle: { on: { ADD: { guard: 'small', actions: 'add' } } },
        busy: { on: { RESET: { target: 'idle', actions: 'reset' } } },
      },
    });
    const table = compileRegion<Context, Event>(machine, machine.root);
    const add = table.get('idle')!.get('ADD')!;
    expect(add.map((t) => t.target)).toEqual([undefined, 'busy']);
    const [small, region] = add;
    expect(small!.guard!({ count: 0 }, { type: 'ADD', by: 3 }, undefined)).toBe(true);
    expect(small!.guard!({ count: 0 }, { type: 'ADD', by: 30 }, undefined), 'by 30 is not small').toBe(false);
    expect(region!.guard).toBeUndefined();
    expect(small!.assignments[0]!({ context: { count: 4 }, event: { type: 'ADD', by: 3 } })).toEqual({ count: 7 });
    const reset = table.get('busy')!.get('RESET')![0]!;
    expect(reset.target).toBe('idle');
    expect(reset.assignments[0]!({ context: { count: 4 }, event: { type: 'RESET' } }), 'assign({ count: 0 })').toEqual({
      count: 0,
    });
    expect(
      table
        .get('busy')!
        .get('ADD')!
        .map((t) => t.target),
      'the region also takes ADD in busy',
    ).toEqual(['busy']);
  });

  /** A flat machine starting in `a`. */
  const flat = (states: Record<string, object>) =>
    base.createMachine({ initial: 'a', context: { count: 0 }, states } as Parameters<typeof base.createMachine>[0]);
  const refusals: Array<[string, Record<string, object>, RegExp]> = [
    ['entry actions', { a: { entry: 'add' } }, /a has entry or exit actions/],
    ['child states', { a: { initial: 'x', states: { x: {} } } }, /a has child states/],
    ['eventless transitions', { a: { always: 'b' }, b: {} }, /a has eventless transitions/],
    ['delayed transitions', { a: { after: { 100: 'b' } }, b: {} }, /a has delayed transitions/],
    ['an action that is not an assign', { a: { on: { RESET: { actions: 'shout' } } } }, /shout is not an assign/],
    ['an inline guard', { a: { on: { RESET: { guard: () => true, target: 'a' } } } }, /an inline guard/],
    ['a re-entry', { a: { on: { RESET: { target: 'a', reenter: true } } } }, /re-enters its state/],
  ];
  it.each(refusals)('refuses a machine with %s, naming the node', (_what, states, message) => {
    const machine = flat(states);
    expect(() => compileRegion(machine, machine.root)).toThrow(message);
  });

  it('refuses a transition out of its region of a parallel machine', () => {
    const machine = base.createMachine({
      type: 'parallel',
      context: { count: 0 },
      states: {
        left: { initial: 'a', states: { a: { on: { RESET: { target: '#right-b' } } } } },
        right: { initial: 'b', states: { b: { id: 'right-b' } } },
      },
    });
    expect(() => compileRegion(machine, machine.root.states.left!)).toThrow(/leaves its region/);
  });
});
