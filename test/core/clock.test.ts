import { describe, expect, it } from 'vitest';
import { ClockError, SimClock } from '../../src/core/clock.js';
import { IdGenerator } from '../../src/core/ids.js';

describe('SimClock', () => {
  it('fires due events in (time, sequence) order with the clock at each event time', () => {
    const clock = new SimClock<string>(1000);
    clock.schedule(3000, 'c');
    clock.schedule(2000, 'a');
    clock.schedule(2000, 'b'); // same time, scheduled later: fires after 'a'
    clock.schedule(5000, 'late');
    const fired: string[] = [];
    const n = clock.advanceTo(4000, (event, atMs) => fired.push(`${event}@${atMs}/${clock.nowMs}`));
    expect(fired).toEqual(['a@2000/2000', 'b@2000/2000', 'c@3000/3000']);
    expect(n).toBe(3);
    expect(clock.nowMs).toBe(4000);
    expect(clock.nextDueMs()).toBe(5000);
  });

  it('refuses to go backwards or schedule in the past', () => {
    const clock = new SimClock<string>(1000);
    expect(() => clock.advanceTo(999, () => {})).toThrowError(ClockError);
    expect(() => clock.advanceTo(999, () => {})).toThrowError(/does not go backwards/);
    expect(() => clock.schedule(999, 'x')).toThrowError(/already at 1000/);
    expect(clock.nowMs).toBe(1000);
  });

  it('fires an event at exactly the target and at the current time', () => {
    const clock = new SimClock<string>(1000);
    clock.schedule(1000, 'now');
    clock.schedule(2000, 'edge');
    const fired: string[] = [];
    clock.advanceTo(1000, (e) => fired.push(e));
    expect(fired).toEqual(['now']);
    clock.advanceTo(2000, (e) => fired.push(e));
    expect(fired).toEqual(['now', 'edge']);
  });

  it('fires events scheduled while firing when they are due by the target', () => {
    const clock = new SimClock<string>(0);
    clock.schedule(10, 'first');
    const fired: string[] = [];
    clock.advanceTo(100, (event, atMs) => {
      fired.push(`${event}@${atMs}`);
      if (event === 'first') {
        clock.schedule(atMs + 5, 'latency');
        clock.schedule(200, 'after-target');
      }
    });
    expect(fired).toEqual(['first@10', 'latency@15']);
    expect(clock.pending).toBe(1);
  });

  it('cancels a scheduled event once', () => {
    const clock = new SimClock<string>(0);
    const seq = clock.schedule(10, 'expiry');
    clock.schedule(20, 'other');
    expect(clock.cancel(seq)).toBe(true);
    expect(clock.cancel(seq)).toBe(false);
    const fired: string[] = [];
    clock.advanceTo(30, (e) => fired.push(e));
    expect(fired).toEqual(['other']);
    expect(clock.cancel(999)).toBe(false);
  });

  it('keeps (time, seq) order over many shuffled events', () => {
    const clock = new SimClock<number>(0);
    const times = Array.from({ length: 500 }, (_, i) => (i * 7919) % 97);
    times.forEach((t, i) => clock.schedule(t, i));
    const fired: Array<[number, number]> = [];
    clock.advanceTo(1000, (event, atMs) => fired.push([atMs, event]));
    const sorted = [...fired].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(fired).toEqual(sorted);
    expect(fired).toHaveLength(500);
  });
});

describe('seeded ids', () => {
  it('gives lowercase v4-format UUIDs, the same for the same seed', () => {
    const a = new IdGenerator(7);
    const b = new IdGenerator(7);
    const first = a.nextUuid();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b.nextUuid()).toBe(first);
    expect(a.nextUuid()).toBe(b.nextUuid());
    expect(new IdGenerator(8).nextUuid()).not.toBe(first);
  });

  it('keeps the ids every journal so far was written with (seed 7)', () => {
    // Pinned from the generator as it was first written: a change of how ids are spelled out would move every
    // journal's hash and every id a user's scenario expects.
    const ids = new IdGenerator(7);
    expect([ids.nextUuid(), ids.nextUuid(), ids.nextUuid()], 'the first three ids of seed 7').toEqual([
      '2370b6c5-caf3-4fed-b48c-35e14636c0ab',
      'd7272d77-f67c-42d1-9cdc-2c01c980f79c',
      '40e8a93b-6c0e-4700-b089-434791a568f9',
    ]);
  });

  it('continues the same sequence from a saved state', () => {
    const a = new IdGenerator(42);
    a.nextUuid();
    const resumed = new IdGenerator(a.state());
    expect(resumed.nextUuid()).toBe(a.nextUuid());
  });

  it('does not repeat over many ids', () => {
    const ids = new IdGenerator(1);
    const seen = new Set(Array.from({ length: 10_000 }, () => ids.nextUuid()));
    expect(seen.size).toBe(10_000);
  });
});
