// The account lifecycle (docs/risk-rules.md#statuses-and-locks), checked pair by pair: every (status with its locks,
// event) → the status, the locks and the lock change after it. The rules one at a time (lock severity, the session
// roll, refused unlocks, the risk engine's loading window): account-machine-rules.test.ts.
import { describe, expect, it } from 'vitest';
import {
  accountStatusOf,
  riskEngineStateOf,
  type AccountLifecycleEvent,
  type AccountStatus,
  type LockReason,
} from '../../../src/core/accounts/account.machine.js';
import { accountIn, AR, DL, EF, EP, ev, FB, FL, ML, SETUP, type Fixture } from './account-machine-fixtures.js';

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
