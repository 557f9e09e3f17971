// The account lifecycle's rules one at a time (docs/risk-rules.md#statuses-and-locks): a new account, lock severity and
// is_locked, breaches on a locked account, the session roll, lockout and unlock, failing and passing; then the risk
// engine's loading window (docs/risk-rules.md#the-loading-window).
import { describe, expect, it } from 'vitest';
import {
  accountStatusOf,
  failedRuleOf,
  isLocked,
  LOCK_SEVERITY,
  lockoutReasonOf,
  riskEngineStateOf,
} from '../../../src/core/accounts/account.machine.js';
import { accountIn, AR, DL, EF, EP, ev, FB, FL, ML, newAccount } from './account-machine-fixtures.js';

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
