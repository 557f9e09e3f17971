// The account lifecycle (docs/risk-rules.md#statuses-and-locks), checked pair by pair: every (status with its locks,
// event), then the rules one at a time: lock severity, the risk engine's loading window, the session roll, refused
// unlocks.
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  accountMachine,
  accountStatusOf,
  failedRuleOf,
  isLocked,
  LOCK_SEVERITY,
  lockoutReasonOf,
  riskEngineStateOf,
  type AccountLifecycleEvent,
  type AccountStatus,
  type LockReason,
} from '../../../src/core/accounts/account.machine.js';

/** An event with its type, lowercased, as its reason; RULE_FAILURE fails by the time limit. */
const ev = (
  type: Exclude<AccountLifecycleEvent['type'], 'RISK_LOADED'>,
  occurredAtMs: number,
): AccountLifecycleEvent =>
  type === 'RULE_FAILURE'
    ? { type, rule: 'time_limit', reason: 'rule_failure', occurredAtMs }
    : { type, reason: type.toLowerCase(), occurredAtMs };

function newAccount(occurredAtMs = 0) {
  return createActor(accountMachine, { input: { occurredAtMs } }).start();
}

type Fixture =
  | 'active'
  | 'active+daily'
  | 'active+firm'
  | 'active+daily+firm'
  | 'active+flat'
  | 'failed'
  | 'failed+firm'
  | 'failed-by-rule'
  | 'failed-by-rule+firm'
  | 'passed'
  | 'passed+firm'
  | 'closed'
  | 'closed+firm';

const SETUP: Record<Fixture, AccountLifecycleEvent[]> = {
  active: [],
  'active+daily': [ev('DAILY_LOSS_BREACH', 1)],
  'active+firm': [ev('LOCKOUT', 1)],
  'active+daily+firm': [ev('DAILY_LOSS_BREACH', 1), ev('LOCKOUT', 2)],
  'active+flat': [ev('FLAT_BY', 1)],
  failed: [ev('MAX_LOSS_BREACH', 1)],
  'failed+firm': [ev('MAX_LOSS_BREACH', 1), ev('LOCKOUT', 2)],
  'failed-by-rule': [ev('RULE_FAILURE', 1)],
  'failed-by-rule+firm': [ev('LOCKOUT', 1), ev('RULE_FAILURE', 2)],
  passed: [ev('PASS', 1)],
  'passed+firm': [ev('PASS', 1), ev('LOCKOUT', 2)],
  closed: [ev('REPLACE', 1)],
  'closed+firm': [ev('LOCKOUT', 1), ev('REPLACE', 2)],
};

/** An account created at 0, its risk engine loaded, then brought to `fixture` by the shortest path. */
function accountIn(fixture: Fixture) {
  const actor = newAccount(0);
  actor.send({ type: 'RISK_LOADED', loadStartedAtMs: 0, occurredAtMs: 0 });
  for (const event of SETUP[fixture]) actor.send(event);
  expect(riskEngineStateOf(actor.getSnapshot())).toBe('ready');
  return actor;
}

const EVENTS: Record<AccountLifecycleEvent['type'], AccountLifecycleEvent> = {
  MAX_LOSS_BREACH: ev('MAX_LOSS_BREACH', 9),
  RULE_FAILURE: ev('RULE_FAILURE', 9),
  DAILY_LOSS_BREACH: ev('DAILY_LOSS_BREACH', 9),
  SESSION_ROLL: ev('SESSION_ROLL', 9),
  FLAT_BY: ev('FLAT_BY', 9),
  FLAT_BY_END: ev('FLAT_BY_END', 9),
  LOCKOUT: ev('LOCKOUT', 9),
  UNLOCK: ev('UNLOCK', 9),
  PASS: ev('PASS', 9),
  REPLACE: ev('REPLACE', 9),
  RISK_LOADED: { type: 'RISK_LOADED', loadStartedAtMs: 0, occurredAtMs: 9 },
};

type Change = [LockReason, 'added' | 'removed'] | null;
type Row = [Fixture, AccountLifecycleEvent['type'], AccountStatus, LockReason[], Change];

const ML = 'max_loss_breach';
const EF = 'evaluation_failed';
const DL = 'daily_loss_breach';
const FB = 'flat_by';
const FL = 'firm_lockout';
const EP = 'evaluation_passed';
const AR = 'account_replaced';

// [from, event, status after, locks after (most severe first), lock change recorded]. A row whose change is
// null leaves the account exactly as it was. RISK_LOADED here meets a ready risk engine: nothing to do.
const TABLE: Row[] = [
  ['active', 'MAX_LOSS_BREACH', 'failed', [ML], [ML, 'added']],
  ['active', 'RULE_FAILURE', 'failed', [EF], [EF, 'added']],
  ['active', 'DAILY_LOSS_BREACH', 'active', [DL], [DL, 'added']],
  ['active', 'SESSION_ROLL', 'active', [], null],
  ['active', 'FLAT_BY', 'active', [FB], [FB, 'added']],
  ['active', 'FLAT_BY_END', 'active', [], null],
  ['active', 'LOCKOUT', 'active', [FL], [FL, 'added']],
  ['active', 'UNLOCK', 'active', [], null],
  ['active', 'PASS', 'passed', [EP], [EP, 'added']],
  ['active', 'REPLACE', 'closed', [AR], [AR, 'added']],
  ['active', 'RISK_LOADED', 'active', [], null],

  ['active+daily', 'MAX_LOSS_BREACH', 'failed', [ML, DL], [ML, 'added']],
  ['active+daily', 'RULE_FAILURE', 'failed', [EF, DL], [EF, 'added']],
  ['active+daily', 'DAILY_LOSS_BREACH', 'active', [DL], null],
  ['active+daily', 'SESSION_ROLL', 'active', [], [DL, 'removed']],
  ['active+daily', 'FLAT_BY', 'active', [DL, FB], [FB, 'added']],
  ['active+daily', 'FLAT_BY_END', 'active', [DL], null],
  ['active+daily', 'LOCKOUT', 'active', [DL, FL], [FL, 'added']],
  ['active+daily', 'UNLOCK', 'active', [DL], null],
  ['active+daily', 'PASS', 'passed', [DL, EP], [EP, 'added']],
  ['active+daily', 'REPLACE', 'closed', [DL, AR], [AR, 'added']],
  ['active+daily', 'RISK_LOADED', 'active', [DL], null],

  ['active+firm', 'MAX_LOSS_BREACH', 'failed', [ML, FL], [ML, 'added']],
  ['active+firm', 'RULE_FAILURE', 'failed', [EF, FL], [EF, 'added']],
  ['active+firm', 'DAILY_LOSS_BREACH', 'active', [DL, FL], [DL, 'added']],
  ['active+firm', 'SESSION_ROLL', 'active', [FL], null],
  ['active+firm', 'FLAT_BY', 'active', [FB, FL], [FB, 'added']],
  ['active+firm', 'FLAT_BY_END', 'active', [FL], null],
  ['active+firm', 'LOCKOUT', 'active', [FL], null],
  ['active+firm', 'UNLOCK', 'active', [], [FL, 'removed']],
  ['active+firm', 'PASS', 'passed', [FL, EP], [EP, 'added']],
  ['active+firm', 'REPLACE', 'closed', [FL, AR], [AR, 'added']],
  ['active+firm', 'RISK_LOADED', 'active', [FL], null],

  ['active+daily+firm', 'MAX_LOSS_BREACH', 'failed', [ML, DL, FL], [ML, 'added']],
  ['active+daily+firm', 'RULE_FAILURE', 'failed', [EF, DL, FL], [EF, 'added']],
  ['active+daily+firm', 'DAILY_LOSS_BREACH', 'active', [DL, FL], null],
  ['active+daily+firm', 'SESSION_ROLL', 'active', [FL], [DL, 'removed']],
  ['active+daily+firm', 'FLAT_BY', 'active', [DL, FB, FL], [FB, 'added']],
  ['active+daily+firm', 'FLAT_BY_END', 'active', [DL, FL], null],
  ['active+daily+firm', 'LOCKOUT', 'active', [DL, FL], null],
  ['active+daily+firm', 'UNLOCK', 'active', [DL], [FL, 'removed']],
  ['active+daily+firm', 'PASS', 'passed', [DL, FL, EP], [EP, 'added']],
  ['active+daily+firm', 'REPLACE', 'closed', [DL, FL, AR], [AR, 'added']],
  ['active+daily+firm', 'RISK_LOADED', 'active', [DL, FL], null],

  ['active+flat', 'MAX_LOSS_BREACH', 'failed', [ML, FB], [ML, 'added']],
  ['active+flat', 'RULE_FAILURE', 'failed', [EF, FB], [EF, 'added']],
  ['active+flat', 'DAILY_LOSS_BREACH', 'active', [DL, FB], [DL, 'added']],
  ['active+flat', 'SESSION_ROLL', 'active', [FB], null],
  ['active+flat', 'FLAT_BY', 'active', [FB], null],
  ['active+flat', 'FLAT_BY_END', 'active', [], [FB, 'removed']],
  ['active+flat', 'LOCKOUT', 'active', [FB, FL], [FL, 'added']],
  ['active+flat', 'UNLOCK', 'active', [FB], null],
  ['active+flat', 'PASS', 'passed', [FB, EP], [EP, 'added']],
  ['active+flat', 'REPLACE', 'closed', [FB, AR], [AR, 'added']],
  ['active+flat', 'RISK_LOADED', 'active', [FB], null],

  ['failed', 'MAX_LOSS_BREACH', 'failed', [ML], null],
  ['failed', 'RULE_FAILURE', 'failed', [ML], null],
  ['failed', 'DAILY_LOSS_BREACH', 'failed', [ML], null],
  ['failed', 'SESSION_ROLL', 'failed', [ML], null],
  ['failed', 'FLAT_BY', 'failed', [ML], null],
  ['failed', 'FLAT_BY_END', 'failed', [ML], null],
  ['failed', 'LOCKOUT', 'failed', [ML, FL], [FL, 'added']],
  ['failed', 'UNLOCK', 'failed', [ML], null],
  ['failed', 'PASS', 'failed', [ML], null],
  ['failed', 'REPLACE', 'closed', [ML, AR], [AR, 'added']],
  ['failed', 'RISK_LOADED', 'failed', [ML], null],

  ['failed+firm', 'MAX_LOSS_BREACH', 'failed', [ML, FL], null],
  ['failed+firm', 'RULE_FAILURE', 'failed', [ML, FL], null],
  ['failed+firm', 'DAILY_LOSS_BREACH', 'failed', [ML, FL], null],
  ['failed+firm', 'SESSION_ROLL', 'failed', [ML, FL], null],
  ['failed+firm', 'FLAT_BY', 'failed', [ML, FL], null],
  ['failed+firm', 'FLAT_BY_END', 'failed', [ML, FL], null],
  ['failed+firm', 'LOCKOUT', 'failed', [ML, FL], null],
  ['failed+firm', 'UNLOCK', 'failed', [ML], [FL, 'removed']],
  ['failed+firm', 'PASS', 'failed', [ML, FL], null],
  ['failed+firm', 'REPLACE', 'closed', [ML, FL, AR], [AR, 'added']],
  ['failed+firm', 'RISK_LOADED', 'failed', [ML, FL], null],

  ['failed-by-rule', 'MAX_LOSS_BREACH', 'failed', [EF], null],
  ['failed-by-rule', 'RULE_FAILURE', 'failed', [EF], null],
  ['failed-by-rule', 'DAILY_LOSS_BREACH', 'failed', [EF], null],
  ['failed-by-rule', 'SESSION_ROLL', 'failed', [EF], null],
  ['failed-by-rule', 'FLAT_BY', 'failed', [EF], null],
  ['failed-by-rule', 'FLAT_BY_END', 'failed', [EF], null],
  ['failed-by-rule', 'LOCKOUT', 'failed', [EF, FL], [FL, 'added']],
  ['failed-by-rule', 'UNLOCK', 'failed', [EF], null],
  ['failed-by-rule', 'PASS', 'failed', [EF], null],
  ['failed-by-rule', 'REPLACE', 'closed', [EF, AR], [AR, 'added']],
  ['failed-by-rule', 'RISK_LOADED', 'failed', [EF], null],

  ['failed-by-rule+firm', 'MAX_LOSS_BREACH', 'failed', [EF, FL], null],
  ['failed-by-rule+firm', 'RULE_FAILURE', 'failed', [EF, FL], null],
  ['failed-by-rule+firm', 'DAILY_LOSS_BREACH', 'failed', [EF, FL], null],
  ['failed-by-rule+firm', 'SESSION_ROLL', 'failed', [EF, FL], null],
  ['failed-by-rule+firm', 'FLAT_BY', 'failed', [EF, FL], null],
  ['failed-by-rule+firm', 'FLAT_BY_END', 'failed', [EF, FL], null],
  ['failed-by-rule+firm', 'LOCKOUT', 'failed', [EF, FL], null],
  ['failed-by-rule+firm', 'UNLOCK', 'failed', [EF], [FL, 'removed']],
  ['failed-by-rule+firm', 'PASS', 'failed', [EF, FL], null],
  ['failed-by-rule+firm', 'REPLACE', 'closed', [EF, FL, AR], [AR, 'added']],
  ['failed-by-rule+firm', 'RISK_LOADED', 'failed', [EF, FL], null],

  ['passed', 'MAX_LOSS_BREACH', 'passed', [EP], null],
  ['passed', 'RULE_FAILURE', 'passed', [EP], null],
  ['passed', 'DAILY_LOSS_BREACH', 'passed', [EP], null],
  ['passed', 'SESSION_ROLL', 'passed', [EP], null],
  ['passed', 'FLAT_BY', 'passed', [EP], null],
  ['passed', 'FLAT_BY_END', 'passed', [EP], null],
  ['passed', 'LOCKOUT', 'passed', [FL, EP], [FL, 'added']],
  ['passed', 'UNLOCK', 'passed', [EP], null],
  ['passed', 'PASS', 'passed', [EP], null],
  ['passed', 'REPLACE', 'closed', [AR, EP], [AR, 'added']],
  ['passed', 'RISK_LOADED', 'passed', [EP], null],

  ['passed+firm', 'MAX_LOSS_BREACH', 'passed', [FL, EP], null],
  ['passed+firm', 'RULE_FAILURE', 'passed', [FL, EP], null],
  ['passed+firm', 'DAILY_LOSS_BREACH', 'passed', [FL, EP], null],
  ['passed+firm', 'SESSION_ROLL', 'passed', [FL, EP], null],
  ['passed+firm', 'FLAT_BY', 'passed', [FL, EP], null],
  ['passed+firm', 'FLAT_BY_END', 'passed', [FL, EP], null],
  ['passed+firm', 'LOCKOUT', 'passed', [FL, EP], null],
  ['passed+firm', 'UNLOCK', 'passed', [EP], [FL, 'removed']],
  ['passed+firm', 'PASS', 'passed', [FL, EP], null],
  ['passed+firm', 'REPLACE', 'closed', [FL, AR, EP], [AR, 'added']],
  ['passed+firm', 'RISK_LOADED', 'passed', [FL, EP], null],

  ...(
    [
      'MAX_LOSS_BREACH',
      'RULE_FAILURE',
      'DAILY_LOSS_BREACH',
      'SESSION_ROLL',
      'FLAT_BY',
      'FLAT_BY_END',
      'LOCKOUT',
      'UNLOCK',
      'PASS',
      'REPLACE',
      'RISK_LOADED',
    ] as const
  ).flatMap((event): Row[] => [
    ['closed', event, 'closed', [AR], null],
    ['closed+firm', event, 'closed', [FL, AR], null],
  ]),
];

describe('account lifecycle: every (status with its locks, event) pair', () => {
  it('covers all 13 fixtures x 11 events', () => {
    expect(TABLE).toHaveLength(Object.keys(SETUP).length * Object.keys(EVENTS).length);
    expect(new Set(TABLE.map(([from, event]) => `${from} ${event}`)).size, 'each pair exactly once').toBe(TABLE.length);
  });

  it.each(TABLE)('%s + %s -> %s %j (lock change: %j)', (from, eventName, status, locks, change) => {
    const actor = accountIn(from);
    const before = actor.getSnapshot();
    const event = EVENTS[eventName];
    expect(before.can(event), 'can() tells the kernel whether the event will change anything').toBe(change !== null);
    actor.send(event);
    const after = actor.getSnapshot();
    expect(accountStatusOf(after)).toBe(status);
    expect(after.context.locks, 'locks are a set, most severe first').toEqual(locks);
    expect(
      after.context.lockChanges.length - before.context.lockChanges.length,
      'one lock change per accepted event, none otherwise',
    ).toBe(change ? 1 : 0);
    if (change) {
      expect(after.context.lockChanges.at(-1)).toEqual({
        lock: change[0],
        change: change[1],
        reason: 'reason' in event ? event.reason : '',
        occurredAtMs: 9,
      });
    } else {
      expect(after.value, 'an ignored event changes no state').toEqual(before.value);
      expect(after.context, 'an ignored event changes nothing').toEqual(before.context);
    }
    const statusChanged = status !== accountStatusOf(before);
    expect(
      after.context.statusHistory.length - before.context.statusHistory.length,
      'a status record per status change',
    ).toBe(statusChanged ? 1 : 0);
    if (statusChanged)
      expect(after.context.statusHistory.at(-1), 'a failed record names the rule that failed the account').toEqual({
        status,
        reason: 'reason' in event ? event.reason : '',
        occurredAtMs: 9,
        ...(status === 'failed' ? { rule: eventName === 'RULE_FAILURE' ? 'time_limit' : ML } : {}),
      });
    expect(riskEngineStateOf(after), 'only an accepted UNLOCK reloads the risk engine').toBe(
      eventName === 'UNLOCK' && change ? 'loading' : 'ready',
    );
  });
});

describe('docs/risk-rules.md#statuses-and-locks: status and locks', () => {
  it('a new account is active, unlocked, with its risk engine loading', () => {
    const snapshot = newAccount(42).getSnapshot();
    expect(snapshot.value, 'the state value reads as status + risk engine').toEqual({
      status: 'active',
      riskEngine: 'loading',
    });
    expect(snapshot.context).toEqual({
      locks: [],
      lockChanges: [],
      statusHistory: [{ status: 'active', reason: 'created', occurredAtMs: 42 }],
      riskLoadStartedAtMs: 42,
    });
    expect(isLocked(snapshot.context.locks)).toBe(false);
    expect(lockoutReasonOf(snapshot.context.locks), 'no lock: lockout_reason absent').toBeUndefined();
  });

  it('lockout_reason names the most severe lock', () => {
    expect(LOCK_SEVERITY).toEqual([ML, EF, DL, FB, FL, AR, EP]);
    for (let i = 0; i < LOCK_SEVERITY.length; i += 1) {
      for (let j = i + 1; j < LOCK_SEVERITY.length; j += 1) {
        const severe = LOCK_SEVERITY[i]!;
        const lesser = LOCK_SEVERITY[j]!;
        expect(lockoutReasonOf([lesser, severe]), `${severe} outranks ${lesser} in any order`).toBe(severe);
        expect(lockoutReasonOf([severe, lesser])).toBe(severe);
      }
    }
    expect(lockoutReasonOf([EP, FL, DL])).toBe(DL);
  });

  it('is_locked while any lock is present', () => {
    expect(isLocked([])).toBe(false);
    for (const lock of LOCK_SEVERITY) expect(isLocked([lock]), lock).toBe(true);
  });

  it('a replaced passed account reads account_replaced, matching its closed status', () => {
    const actor = accountIn('passed');
    actor.send(ev('REPLACE', 5));
    expect(accountStatusOf(actor.getSnapshot())).toBe('closed');
    expect(lockoutReasonOf(actor.getSnapshot().context.locks)).toBe(AR);
  });

  it('docs/risk-rules.md#breach-on-touch: a max-loss breach while daily-locked fails the account with both locks, reason max_loss_breach', () => {
    const actor = accountIn('active+daily');
    actor.send(ev('MAX_LOSS_BREACH', 5));
    const { context } = actor.getSnapshot();
    expect(accountStatusOf(actor.getSnapshot())).toBe('failed');
    expect(context.locks).toEqual([ML, DL]);
    expect(lockoutReasonOf(context.locks), 'the max-loss breach wins').toBe(ML);
    actor.send(ev('SESSION_ROLL', 6));
    expect(actor.getSnapshot().context.locks, 'a failed account is permanent: the roll lifts nothing').toEqual([
      ML,
      DL,
    ]);
  });

  it('docs/risk-rules.md#session-rolls: the session roll lifts daily_loss_breach but keeps firm_lockout', () => {
    const actor = accountIn('active+daily+firm');
    expect(lockoutReasonOf(actor.getSnapshot().context.locks)).toBe(DL);
    actor.send(ev('SESSION_ROLL', 5));
    const { context } = actor.getSnapshot();
    expect(context.locks).toEqual([FL]);
    expect(isLocked(context.locks), 'the firm lock still blocks order entry').toBe(true);
    expect(lockoutReasonOf(context.locks)).toBe(FL);
    expect(context.lockChanges.at(-1)).toEqual({
      lock: DL,
      change: 'removed',
      reason: 'session_roll',
      occurredAtMs: 5,
    });
  });

  it('docs/risk-rules.md#what-a-breach-does: a second daily-loss breach in the same session changes nothing', () => {
    const actor = accountIn('active+daily');
    const before = actor.getSnapshot().context;
    actor.send(ev('DAILY_LOSS_BREACH', 5));
    expect(actor.getSnapshot().context).toEqual(before);
  });

  it('docs/risk-rules.md#lockout-and-unlock: LOCKOUT twice records one lock change (the second answers 200 unchanged)', () => {
    const actor = accountIn('active');
    actor.send(ev('LOCKOUT', 5));
    expect(actor.getSnapshot().can(ev('LOCKOUT', 6)), 'already firm-locked: nothing to do').toBe(false);
    actor.send(ev('LOCKOUT', 6));
    expect(actor.getSnapshot().context.lockChanges).toEqual([
      { lock: FL, change: 'added', reason: 'lockout', occurredAtMs: 5 },
    ]);
  });

  it('docs/risk-rules.md#lockout-and-unlock: UNLOCK without a firm_lockout is refused (can() false, so the kernel answers 409); other locks stay', () => {
    for (const fixture of ['active', 'active+daily', 'failed', 'passed', 'closed', 'closed+firm'] as const) {
      const actor = accountIn(fixture);
      const before = actor.getSnapshot();
      expect(before.can(ev('UNLOCK', 5)), `${fixture}: nothing to unlock`).toBe(false);
      actor.send(ev('UNLOCK', 5));
      expect(actor.getSnapshot().context, `${fixture}: unchanged`).toEqual(before.context);
      expect(actor.getSnapshot().value, `${fixture}: the risk engine is not reloaded`).toEqual(before.value);
    }
  });

  it('docs/risk-rules.md#lockout-and-unlock: UNLOCK removes only firm_lockout, on a failed or passed account too', () => {
    for (const [fixture, rest] of [
      ['active+daily+firm', [DL]],
      ['failed+firm', [ML]],
      ['passed+firm', [EP]],
    ] as const) {
      const actor = accountIn(fixture);
      expect(actor.getSnapshot().can(ev('UNLOCK', 5))).toBe(true);
      actor.send(ev('UNLOCK', 5));
      expect(actor.getSnapshot().context.locks, fixture).toEqual(rest);
    }
  });

  it('docs/risk-rules.md#statuses-and-locks: a rule failure fails the account with evaluation_failed, above a daily lock and a firm lockout, and names its rule', () => {
    const actor = accountIn('active+daily+firm');
    actor.send({ type: 'RULE_FAILURE', rule: 'daily_loss_failure', reason: 'equity at the trigger', occurredAtMs: 5 });
    const { context } = actor.getSnapshot();
    expect(accountStatusOf(actor.getSnapshot())).toBe('failed');
    expect(lockoutReasonOf(context.locks), 'the terminal lock outranks the daily and firm locks').toBe(EF);
    expect(failedRuleOf(context)).toBe('daily_loss_failure');
    actor.send(ev('SESSION_ROLL', 6));
    expect(actor.getSnapshot().context.locks, 'failed is permanent: the roll lifts nothing').toEqual([EF, DL, FL]);
    actor.send(ev('REPLACE', 7));
    expect(failedRuleOf(actor.getSnapshot().context), 'a replaced account still names the rule it failed by').toBe(
      'daily_loss_failure',
    );
    expect(failedRuleOf(accountIn('failed').getSnapshot().context), 'a max-loss breach names its own rule').toBe(ML);
    expect(failedRuleOf(accountIn('passed').getSnapshot().context), 'never failed: no rule').toBeUndefined();
  });

  it('docs/risk-rules.md#passing: passing locks the account with evaluation_passed and ends trading for good', () => {
    const actor = accountIn('active');
    actor.send(ev('PASS', 5));
    expect(actor.getSnapshot().value).toEqual({ status: 'passed', riskEngine: 'ready' });
    expect(lockoutReasonOf(actor.getSnapshot().context.locks)).toBe(EP);
    expect(actor.getSnapshot().can(ev('MAX_LOSS_BREACH', 6)), 'a passed account no longer fails').toBe(false);
  });
});

describe('docs/risk-rules.md#the-loading-window: the risk engine loading window', () => {
  it('after create, the risk engine loads until RISK_LOADED for that load', () => {
    const actor = newAccount(100);
    expect(riskEngineStateOf(actor.getSnapshot()), 'risk-state answers 503').toBe('loading');
    actor.send({ type: 'RISK_LOADED', loadStartedAtMs: 100, occurredAtMs: 350 });
    expect(riskEngineStateOf(actor.getSnapshot())).toBe('ready');
    expect(actor.getSnapshot().context.lockChanges, 'loading is not a lock change').toEqual([]);
  });

  it('after an unlock, the risk engine loads again from the unlock time', () => {
    const actor = accountIn('active+firm');
    actor.send(ev('UNLOCK', 500));
    expect(actor.getSnapshot().value).toEqual({ status: 'active', riskEngine: 'loading' });
    expect(actor.getSnapshot().context.riskLoadStartedAtMs).toBe(500);
    actor.send({ type: 'RISK_LOADED', loadStartedAtMs: 500, occurredAtMs: 750 });
    expect(riskEngineStateOf(actor.getSnapshot())).toBe('ready');
  });

  it('a RISK_LOADED from a load that an unlock restarted is ignored', () => {
    const actor = newAccount(0);
    actor.send(ev('LOCKOUT', 100));
    actor.send(ev('UNLOCK', 200));
    const stale = { type: 'RISK_LOADED', loadStartedAtMs: 0, occurredAtMs: 250 } as const;
    expect(actor.getSnapshot().can(stale)).toBe(false);
    actor.send(stale);
    expect(riskEngineStateOf(actor.getSnapshot()), 'the load begun at 200 runs until 450').toBe('loading');
    actor.send({ type: 'RISK_LOADED', loadStartedAtMs: 200, occurredAtMs: 450 });
    expect(riskEngineStateOf(actor.getSnapshot())).toBe('ready');
  });

  it('the loading window ends whatever the status (an account replaced while loading)', () => {
    const actor = newAccount(0);
    actor.send(ev('REPLACE', 10));
    actor.send({ type: 'RISK_LOADED', loadStartedAtMs: 0, occurredAtMs: 250 });
    expect(actor.getSnapshot().value).toEqual({ status: 'closed', riskEngine: 'ready' });
  });
});
