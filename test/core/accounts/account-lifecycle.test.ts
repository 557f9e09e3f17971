// The account machine run without an actor (src/core/accounts/account-lifecycle.ts) answers as XState does: every
// state an account can reach (status × risk engine × lock set, found by walking the machine from its initial state)
// against every event, the next state value and context equal, and an ignored event ignored by both.
import { getInitialSnapshot, transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  initialAccountState,
  nextAccountState,
  type AccountLifecycleState,
} from '../../../src/core/accounts/account-lifecycle.js';
import {
  accountMachine,
  type AccountLifecycleEvent,
  type AccountSnapshot,
} from '../../../src/core/accounts/account.machine.js';

/** Every event type; RISK_LOADED twice, for the load in progress and for one an UNLOCK has restarted since. */
function eventsAt(snapshot: AccountSnapshot, occurredAtMs: number): AccountLifecycleEvent[] {
  const reason = `at ${occurredAtMs}`;
  const { riskLoadStartedAtMs } = snapshot.context;
  return [
    { type: 'MAX_LOSS_BREACH', reason, occurredAtMs },
    { type: 'RULE_FAILURE', rule: 'time_limit', reason, occurredAtMs },
    { type: 'DAILY_LOSS_BREACH', reason, occurredAtMs },
    { type: 'SESSION_ROLL', reason, occurredAtMs },
    { type: 'LOCKOUT', reason, occurredAtMs },
    { type: 'UNLOCK', reason, occurredAtMs },
    { type: 'PASS', reason, occurredAtMs },
    { type: 'REPLACE', reason, occurredAtMs },
    { type: 'RISK_LOADED', loadStartedAtMs: riskLoadStartedAtMs, occurredAtMs },
    { type: 'RISK_LOADED', loadStartedAtMs: riskLoadStartedAtMs - 1, occurredAtMs },
  ];
}

const plain = (snapshot: AccountSnapshot): AccountLifecycleState => ({
  value: snapshot.value,
  context: snapshot.context,
});

/** What decides an account's answers: its state value and lock set (the history only grows). */
const keyOf = (snapshot: AccountSnapshot) => JSON.stringify([snapshot.value, snapshot.context.locks]);

describe('account lifecycle without an actor (account-lifecycle.ts)', () => {
  it('starts where the machine starts', () => {
    const input = { occurredAtMs: 1_700 };
    expect(initialAccountState(input)).toEqual(plain(getInitialSnapshot(accountMachine, input)));
  });

  it('answers as XState for every reachable state and every event', () => {
    let clock = 1_000;
    const seen = new Map<string, AccountSnapshot>();
    let frontier = [getInitialSnapshot(accountMachine, { occurredAtMs: clock })];
    let pairs = 0;
    let ignored = 0;
    while (frontier.length > 0) {
      const next: AccountSnapshot[] = [];
      for (const snapshot of frontier) {
        if (seen.has(keyOf(snapshot))) continue;
        seen.set(keyOf(snapshot), snapshot);
        for (const event of eventsAt(snapshot, (clock += 10))) {
          const [after] = transition(accountMachine, snapshot, event);
          const compiled = nextAccountState(plain(snapshot), event);
          pairs++;
          if (snapshot.can(event)) {
            expect(compiled, `${keyOf(snapshot)} + ${event.type}`).toEqual(plain(after));
            next.push(after);
          } else {
            ignored++;
            expect(compiled, `${keyOf(snapshot)} + ${event.type} is ignored`).toBeUndefined();
            expect(plain(after)).toEqual(plain(snapshot));
          }
        }
      }
      frontier = next;
    }
    // Four statuses, two risk-engine states, locks: the walk found the combinations the rules allow.
    const statuses = new Set([...seen.values()].map((s) => s.value.status));
    expect(statuses).toEqual(new Set(['active', 'failed', 'passed', 'closed']));
    expect(new Set([...seen.values()].map((s) => s.value.riskEngine))).toEqual(new Set(['loading', 'ready']));
    expect(seen.size).toBeGreaterThan(40);
    expect(ignored).toBeGreaterThan(0);
    expect(pairs).toBe(seen.size * 10);
  });

  it('keeps the history the actor keeps: a breach, a roll that lifts a daily lock, an unlock that reloads', () => {
    let state = initialAccountState({ occurredAtMs: 0 });
    const send = (event: AccountLifecycleEvent) => (state = nextAccountState(state, event) ?? state);
    send({ type: 'RISK_LOADED', loadStartedAtMs: 0, occurredAtMs: 5 });
    send({ type: 'DAILY_LOSS_BREACH', reason: 'daily', occurredAtMs: 10 });
    send({ type: 'SESSION_ROLL', reason: 'roll', occurredAtMs: 20 });
    send({ type: 'LOCKOUT', reason: 'firm', occurredAtMs: 30 });
    send({ type: 'UNLOCK', reason: 'firm done', occurredAtMs: 40 });
    expect(state.value).toEqual({ status: 'active', riskEngine: 'loading' });
    expect(state.context.riskLoadStartedAtMs).toBe(40);
    expect(state.context.lockChanges.map((c) => `${c.lock} ${c.change} ${c.occurredAtMs}`)).toEqual([
      'daily_loss_breach added 10',
      'daily_loss_breach removed 20',
      'firm_lockout added 30',
      'firm_lockout removed 40',
    ]);
    expect(nextAccountState(state, { type: 'RISK_LOADED', loadStartedAtMs: 0, occurredAtMs: 45 })).toBeUndefined();
    send({ type: 'MAX_LOSS_BREACH', reason: 'max', occurredAtMs: 50 });
    expect(state.value.status).toBe('failed');
    expect(state.context.locks).toEqual(['max_loss_breach']);
    expect(state.context.statusHistory.map((r) => r.status)).toEqual(['active', 'failed']);
  });
});
