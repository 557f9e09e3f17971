// Accounts of the lifecycle machine for the account-machine tests: an event by its type, a new account, and an account
// brought to one of 13 fixtures (a status with its locks) by the shortest path; the locks' short names.
import { createActor } from 'xstate';
import { expect } from 'vitest';
import {
  accountMachine,
  riskEngineStateOf,
  type AccountLifecycleEvent,
} from '../../../src/core/accounts/account.machine.js';

/** An event with its type, lowercased, as its reason; RULE_FAILURE fails by the time limit. */
export const ev = (
  type: Exclude<AccountLifecycleEvent['type'], 'RISK_LOADED'>,
  occurredAtMs: number,
): AccountLifecycleEvent =>
  type === 'RULE_FAILURE'
    ? { type, rule: 'time_limit', reason: 'rule_failure', occurredAtMs }
    : { type, reason: type.toLowerCase(), occurredAtMs };

export function newAccount(occurredAtMs = 0) {
  return createActor(accountMachine, { input: { occurredAtMs } }).start();
}

export type Fixture =
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

export const SETUP: Record<Fixture, AccountLifecycleEvent[]> = {
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
export function accountIn(fixture: Fixture) {
  const actor = newAccount(0);
  actor.send({ type: 'RISK_LOADED', loadStartedAtMs: 0, occurredAtMs: 0 });
  for (const event of SETUP[fixture]) actor.send(event);
  expect(riskEngineStateOf(actor.getSnapshot())).toBe('ready');
  return actor;
}

export const ML = 'max_loss_breach';
export const EF = 'evaluation_failed';
export const DL = 'daily_loss_breach';
export const FB = 'flat_by';
export const FL = 'firm_lockout';
export const EP = 'evaluation_passed';
export const AR = 'account_replaced';
