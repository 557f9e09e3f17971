// Flat by a time (docs/risk-rules.md#flat-by-a-time): risk_profile.flat_by "HH:MM" in exchange time. At that instant
// of each session (one minute before the close when the session closes at or before it), every active account with
// the rule is locked flat_by until the next session opens, its working client orders are cancelled (reason flat_by)
// and its positions flattened by risk market orders that meet the next print. flat_by_action fail instead fails an
// account that still holds a position then (flat_by_violation). Plans: 50,000 static $2,000; ES = $50 a point.
// T0 = Tue 2026-03-10 09:00 CDT (UTC-5); flat_by 15:59 is 20:59Z, the roll 17:00 CDT is 22:00Z.
import { describe, expect, it } from 'vitest';
import { ms, plan, riskHarness } from './risk-harness.js';

const STATIC = { max_drawdown_mode: 'static', max_drawdown_value: '2000' };

describe('docs/risk-rules.md#flat-by-a-time: flat_by flattens and locks until the next session opens', () => {
  it('15:59: long 2 ES and a resting buy limit; the limit is cancelled, the risk sell fills at the next print, and orders wait for the roll', () => {
    const h = riskHarness();
    const a = h.open(plan({ ...STATIC, flat_by: '15:59' }));
    const locked = h.events('accounts.locked');
    const unlocked = h.events('accounts.unlocked');
    const flattened = h.events('accounts.flattened');
    h.fill(a, 'buy', 2, '5000.00');
    const limit = h.place(a, { side: 'buy', quantity: 1, type: 'limit', limit_price: '4990.00', time_in_force: 'gtc' });
    h.at('2026-03-10T20:58:59.999Z');
    expect(h.item(a), '15:58:59.999: not yet').toMatchObject({ is_locked: false, account_status: 'active' });
    h.at('2026-03-10T20:59:00Z');
    expect(h.item(a), '15:59:00.000: locked, still active').toMatchObject({
      is_locked: true,
      lockout_reason: 'flat_by',
      account_status: 'active',
    });
    expect(locked).toEqual([
      {
        account_id: a,
        lock: 'flat_by',
        reason:
          'the flat-by time 15:59 CT of trade date 2026-03-10: flat, and no new orders until the next session opens',
        account_status: 'active',
        is_locked: true,
        lockout_reason: 'flat_by',
      },
    ]);
    expect(h.lastState(limit), 'the working order is cancelled, the rule as its reason').toMatchObject({
      status: 'CANCELLED',
      reason: 'flat_by',
    });
    expect(flattened, 'the rule that flattened, named on its event').toEqual([
      {
        account_id: a,
        rule: 'flat_by',
        reason:
          'the flat-by time 15:59 CT of trade date 2026-03-10: flat, and no new orders until the next session opens',
        cancelled_orders: 1,
        closing_orders: 1,
      },
    ]);
    h.tick('5004.00', { afterMs: 30_000 });
    expect(h.net(a), 'the risk sell 2 filled at 5004.00').toBe(0);
    expect(h.item(a).balance, '50,000 + 4 x 2 x 50 = 50,400').toBe('50400.00');
    const late = h.place(a, { side: 'buy', quantity: 1 });
    expect(h.order(late), 'no new entry after the flat time').toMatchObject({
      status: 'REJECTED',
      error: { code: 'account_locked', message: `account ${a} is locked (flat_by)` },
    });
    expect(h.fill(a, 'buy', 1, '5004.00').body, 'a historical fill is dropped while locked').toMatchObject({
      dropped: true,
      reason: 'account is locked (flat_by)',
    });
    h.at('2026-03-10T22:00:00Z');
    expect(h.item(a), 'the 17:00 roll opens the next session: unlocked').toMatchObject({ is_locked: false });
    expect(unlocked).toEqual([expect.objectContaining({ lock: 'flat_by', reason: 'session roll', is_locked: false })]);
    const next = h.place(a, { side: 'buy', quantity: 1 });
    h.tick('5005.00');
    expect(h.order(next).status, 'Wednesday session: orders again').toBe('FILLED');
    h.at('2026-03-11T20:59:00Z');
    expect(h.item(a).lockout_reason, 'and flat again at Wednesday 15:59').toBe('flat_by');
  });

  it('a flat account with nothing working is locked only: no flatten event', () => {
    const h = riskHarness();
    const a = h.open(plan({ ...STATIC, flat_by: '15:10' }));
    const flattened = h.events('accounts.flattened');
    h.at('2026-03-10T20:10:00Z');
    expect(h.item(a).lockout_reason).toBe('flat_by');
    expect(flattened).toEqual([]);
  });

  it('an account opened after the flat time starts locked; one opened in the halt does not', () => {
    const h = riskHarness({ startMs: ms('2026-03-10T21:30:00Z') });
    const a = h.open(plan({ ...STATIC, flat_by: '15:59' }));
    expect(h.item(a), '16:30 is the halt: the market is closed, nothing to lock').toMatchObject({ is_locked: false });
    const g = riskHarness({ startMs: ms('2026-03-10T20:59:30Z') });
    const created = g.kernel.dispatch({ type: 'open_account', plan: plan({ ...STATIC, flat_by: '15:59' }) });
    expect(created.ok && created.body, 'opened 15:59:30: answered locked').toMatchObject({
      is_locked: true,
      lockout_reason: 'flat_by',
    });
  });

  it('an early close: flat_by 15:59 acts one minute before Juneteenth 12:00 CT halt (Fri 2026-06-19, 11:59 CDT = 16:59Z)', () => {
    const h = riskHarness({ startMs: ms('2026-06-19T14:00:00Z') });
    const a = h.open(plan({ ...STATIC, flat_by: '15:59' }));
    const locked = h.events('accounts.locked');
    h.fill(a, 'buy', 1, '5000.00');
    h.at('2026-06-19T16:58:59.999Z');
    expect(h.item(a).is_locked).toBe(false);
    h.at('2026-06-19T16:59:00Z');
    expect(locked[0]).toMatchObject({
      lock: 'flat_by',
      reason:
        'the flat-by time 15:59 CT, at 11:59 CT before the 12:00 CT early close of trade date 2026-06-19: flat, and no new orders until the next session opens',
    });
    h.tick('5001.00', { afterMs: 1 });
    expect(h.net(a), 'flattened before the close').toBe(0);
  });
});

describe('docs/risk-rules.md#flat-by-a-time: flat_by_action fail', () => {
  it('holding at the flat time fails flat_by_violation; a flat account on the plan is only locked', () => {
    const h = riskHarness();
    const rules = { ...STATIC, flat_by: '15:59', flat_by_action: 'fail' };
    const a = h.open(plan(rules));
    const b = h.open(plan(rules));
    const flattened = h.events('accounts.flattened');
    h.fill(a, 'sell', 1, '5000.00');
    const stop = h.place(a, { side: 'buy', quantity: 1, type: 'stop', stop_price: '5020.00', time_in_force: 'gtc' });
    h.at('2026-03-10T20:59:00Z');
    expect(h.item(a)).toMatchObject({
      account_status: 'failed',
      lockout_reason: 'evaluation_failed',
      failed_rule: 'flat_by_violation',
    });
    expect(h.lastState(stop)).toMatchObject({ status: 'CANCELLED', reason: 'flat_by_violation' });
    expect(flattened).toEqual([
      {
        account_id: a,
        rule: 'flat_by_violation',
        reason: 'held ESM6 short 1 at the flat-by time 15:59 CT',
        cancelled_orders: 1,
        closing_orders: 1,
      },
    ]);
    expect(h.item(b), 'flat: locked, not failed').toMatchObject({
      account_status: 'active',
      lockout_reason: 'flat_by',
    });
    h.tick('4998.00', { afterMs: 1_000 });
    expect(h.item(a).balance, 'the risk buy fills at 4998.00: +2 x 50 = 50,100 on the failed account').toBe('50100.00');
  });

  it('flat_by_action fail needs a flat time: refused naming the field', () => {
    expect(() => plan({ ...STATIC, flat_by_action: 'fail' })).toThrow(
      'risk_profile.flat_by_action: flat_by_action fail needs risk_profile.flat_by or hold_over_weekend false',
    );
  });
});
