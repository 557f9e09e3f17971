// docs/api.md#streams: how live events reach many sockets (src/api/streams/stream-fanout.ts, batch-per-turn.ts).
// Subscriptions of one key share a group that filters and frames each event once and writes, per turn of the event
// loop, one buffer of the turn's frames to every member (the same buffer to all), no sooner than WRITE_GAP_MS after
// the previous write; a socket with subscriptions in several groups gets their events in one write, in sequence
// order; a member gets only the events after the sequence it joined at; a group of one account's stream sees only
// that account's events; once the last member leaves, the fan-out stops following the events. Timers are faked so that turns and gaps are steps of the test, not waits.
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchPerTurn } from '../../src/api/streams/batch-per-turn.js';
import { eventFrame, type StreamEvent } from '../../src/api/streams/stream-events.js';
import {
  StreamFanout,
  WRITE_GAP_MS,
  type FanoutMember,
  type FanoutSocket,
  type StreamRoute,
} from '../../src/api/streams/stream-fanout.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function event(sequence: number, accountId = 'a1'): StreamEvent {
  return {
    sequence,
    type: 'orders.state',
    occurred_at: 1_000 + sequence,
    account_id: accountId,
    channel: 'orders',
    firm: false,
    data: { order_id: `o${sequence}`, status: 'FILLED' },
  };
}

/** A subscription of a socket of its own, which keeps what it was written. */
function member(after: number, socket = new Socket()): FanoutMember & { writes: Buffer[] } {
  return { after, socket, writes: socket.writes };
}

class Socket implements FanoutSocket {
  readonly writes: Buffer[] = [];
  write(frames: Buffer): void {
    this.writes.push(frames);
  }
}

/** The messages in a buffer of unmasked text frames whose payloads are under 126 bytes. */
function messages(frames: Buffer): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (let at = 0; at < frames.length; at += 2 + frames[at + 1]!) {
    expect(frames[at]).toBe(0x81); // FIN, text
    out.push(JSON.parse(frames.toString('utf8', at + 2, at + 2 + frames[at + 1]!)) as Record<string, unknown>);
  }
  return out;
}

/** A fan-out following a Subject the test publishes on. */
function fanoutOnSubject(): { events$: Subject<StreamEvent>; fanout: StreamFanout } {
  const events$ = new Subject<StreamEvent>();
  return { events$, fanout: new StreamFanout(events$) };
}

const sequences = (frames: Buffer) => messages(frames).map((m) => m.sequence);
const ofAccount = (accountId: string) => (e: StreamEvent) => e.account_id === accountId;
/** The route of a group of one account's stream. */
const route = (key: string, accountId: string): StreamRoute => ({ key, accountId, wanted: ofAccount(accountId) });

describe('eventFrame', () => {
  it('frames an event as one unmasked text frame of {type, sequence, occurred_at, data}, once per event', () => {
    const e = event(7);
    const frame = eventFrame(e);
    expect(messages(frame)).toEqual([
      { type: 'orders.state', sequence: 7, occurred_at: 1_007, data: { order_id: 'o7', status: 'FILLED' } },
    ]);
    expect(eventFrame(e)).toBe(frame);
  });

  it('uses the 16-bit length of a payload of 126 bytes or more', () => {
    const frame = eventFrame({ ...event(1), data: { note: 'x'.repeat(300) } });
    expect(frame[1]).toBe(126);
    expect(frame.readUInt16BE(2)).toBe(frame.length - 4);
  });
});

describe('StreamFanout', () => {
  it("writes a turn's events as one buffer, the same buffer to every member of the group", () => {
    const { events$, fanout } = fanoutOnSubject();
    const [first, second] = [member(0), member(0)];
    fanout.join(route('ws a1 orders', 'a1'), first);
    fanout.join(route('ws a1 orders', 'a1'), second);
    events$.next(event(1));
    events$.next(event(2, 'a2')); // not the group's
    events$.next(event(3));
    expect(first.writes).toHaveLength(0); // not before the turn ends
    vi.advanceTimersToNextTimer();
    expect(first.writes).toHaveLength(1);
    expect(sequences(first.writes[0]!)).toEqual([1, 3]);
    expect(second.writes[0]).toBe(first.writes[0]);
  });

  it('sends a member only the events after the sequence it joined at, even within the turn it joined in', () => {
    const { events$, fanout } = fanoutOnSubject();
    const early = member(0);
    fanout.join(route('k', 'a1'), early);
    events$.next(event(1));
    events$.next(event(2));
    const late = member(2); // subscribed after event 2 had gone out (its backlog, if any, came with the ack)
    fanout.join(route('k', 'a1'), late);
    events$.next(event(3));
    vi.advanceTimersToNextTimer();
    expect(sequences(early.writes[0]!)).toEqual([1, 2, 3]);
    expect(sequences(late.writes[0]!)).toEqual([3]);
    const none = member(3);
    fanout.join(route('k', 'a1'), none);
    events$.next(event(4, 'a2'));
    vi.runAllTimers();
    expect(none.writes).toHaveLength(0);
  });

  it("writes a socket's subscriptions of two groups in one write, in the order the events were published", () => {
    const { events$, fanout } = fanoutOnSubject();
    const socket = new Socket();
    fanout.join(route('ws a1 orders', 'a1'), member(0, socket));
    fanout.join(route('ws a2 orders', 'a2'), member(0, socket));
    const other = member(0);
    fanout.join(route('ws a1 orders', 'a1'), other);
    events$.next(event(1, 'a1'));
    events$.next(event(2, 'a2'));
    events$.next(event(3, 'a1'));
    events$.next(event(4, 'a3'));
    vi.advanceTimersToNextTimer();
    expect(socket.writes.map(sequences)).toEqual([[1, 2, 3]]);
    expect(other.writes.map(sequences)).toEqual([[1, 3]]);
  });

  it("looks at a turn's events only with the groups of their accounts: a thousand traders, each on their own account", () => {
    const { events$, fanout } = fanoutOnSubject();
    let tests = 0;
    const traders = Array.from({ length: 1_000 }, (_, i) => {
      const m = member(0);
      const accountId = `a${i}`;
      fanout.join(
        { key: `ws ${accountId} orders`, accountId, wanted: (e) => (tests++, e.account_id === accountId) },
        m,
      );
      return m;
    });
    for (let sequence = 1; sequence <= 10; sequence++) events$.next(event(sequence, `a${sequence * 7}`));
    vi.advanceTimersToNextTimer();
    expect(tests, 'one test per event, by the group of its account, not one per event and group').toBe(10);
    expect(traders[7]!.writes.map(sequences)).toEqual([[1]]);
    expect(traders[70]!.writes.map(sequences)).toEqual([[10]]);
    expect(traders.filter((t) => t.writes.length > 0)).toHaveLength(10);
  });

  it("gives a firm's stream (a route of no one account) every event it wants, whatever the account", () => {
    const { events$, fanout } = fanoutOnSubject();
    const firm = member(0);
    fanout.join({ key: 'firm-ws f1', wanted: (e) => e.account_id !== 'a2' }, firm);
    const trader = member(0);
    fanout.join(route('ws a2 orders', 'a2'), trader);
    events$.next(event(1, 'a1'));
    events$.next(event(2, 'a2'));
    events$.next(event(3, 'a3'));
    vi.advanceTimersToNextTimer();
    expect(firm.writes.map(sequences)).toEqual([[1, 3]]);
    expect(trader.writes.map(sequences)).toEqual([[2]]);
  });

  it('writes a busy stream no sooner than WRITE_GAP_MS after its previous write', () => {
    const { events$, fanout } = fanoutOnSubject();
    const m = member(0);
    fanout.join(route('k', 'a1'), m);
    events$.next(event(1));
    vi.advanceTimersToNextTimer();
    events$.next(event(2));
    vi.advanceTimersByTime(WRITE_GAP_MS - 1);
    events$.next(event(3));
    expect(m.writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(m.writes.map(sequences)).toEqual([[1], [2, 3]]);
  });

  it('stops following the events when the last member leaves, and follows them again at a new join', () => {
    const { events$, fanout } = fanoutOnSubject();
    const [a, b] = [member(0), member(0)];
    const leaveA = fanout.join(route('k', 'a1'), a);
    const leaveB = fanout.join(route('k', 'a1'), b);
    leaveA();
    expect(events$.observed).toBe(true);
    events$.next(event(1));
    vi.runAllTimers();
    expect([a.writes.length, b.writes.length]).toEqual([0, 1]);
    leaveB();
    expect(events$.observed).toBe(false);
    const c = member(1);
    fanout.join(route('k', 'a1'), c);
    events$.next(event(2));
    vi.runAllTimers();
    expect(c.writes.map(sequences)).toEqual([[2]]);
  });
});

describe('batchPerTurn', () => {
  it('emits what one turn brought as one array and flushes what is left when the source completes', () => {
    const source = new Subject<number>();
    const batches: number[][] = [];
    let completed = false;
    source.pipe(batchPerTurn(WRITE_GAP_MS)).subscribe({
      next: (b) => void batches.push(b),
      complete: () => (completed = true),
    });
    source.next(1);
    source.next(2);
    vi.advanceTimersToNextTimer();
    vi.advanceTimersByTime(WRITE_GAP_MS);
    source.next(3);
    source.complete();
    expect(batches).toEqual([[1, 2], [3]]);
    expect(completed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
