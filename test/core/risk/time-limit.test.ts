// The evaluation time limit (docs/risk-rules.md#time-limit): passing_criteria.time_limit_days trade dates, counted
// from the account's first session (1 whether it traded or not); at the roll that closes the last, after the passing
// check and the roll's mark, an account still active fails with rule time_limit (lock evaluation_failed), its working
// orders cancelled and its positions flattened. Plans: 50,000 static $2,000, target $1,000; ES = $50 a point.
// T0 = Tue 2026-03-10 09:00 CDT (trade date 03-10); rolls at 17:00 CDT = 22:00Z; Fri 03-13's session is followed
// by Mon 03-16's, which opens Sun 17:00 CDT.
import { describe, expect, it } from 'vitest';
import { ms, plan, riskHarness } from './risk-harness.js';

const STATIC = { max_drawdown_mode: 'static', max_drawdown_value: '2000' };
const rollOf = (date: string) => ms(`${date}T22:00:00Z`);

function limitedAccount(days: number, passing: Record<string, unknown> = {}, risk: Record<string, unknown> = STATIC) {
  const h = riskHarness();
  const a = h.open(plan(risk, { passing_criteria: { profit_target: '1000', time_limit_days: days, ...passing } }));
  return { ...h, a };
}

describe('docs/risk-rules.md#time-limit: time_limit fails an account not passed at the roll closing its last trade date', () => {
  it('time_limit_days 2 from Tue: active after the Tue roll (1 closed), failed at the Wed roll (2 closed)', () => {
    const h = limitedAccount(2);
    const locked = h.events('accounts.locked');
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    expect(h.item(h.a), 'Tue 17:00: trade date 1 of 2 closed, no trade needed for it to count').toMatchObject({
      account_status: 'active',
      is_locked: false,
    });
    expect(h.item(h.a).failed_rule, 'absent while active').toBeUndefined();
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-11') - 1 });
    expect(h.item(h.a).account_status, 'Wed 16:59:59.999: the last trade date has not closed').toBe('active');
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-11') });
    expect(h.item(h.a), 'Wed 17:00: trade date 2 of 2 closed without a pass').toMatchObject({
      account_status: 'failed',
      is_locked: true,
      lockout_reason: 'evaluation_failed',
      failed_rule: 'time_limit',
      balance: '50000.00',
    });
    expect(locked, 'one lock event, naming the rule').toEqual([
      {
        account_id: h.a,
        lock: 'evaluation_failed',
        reason: 'the time limit of 2 trade dates from 2026-03-10 ended without a pass',
        account_status: 'failed',
        is_locked: true,
        lockout_reason: 'evaluation_failed',
        failed_rule: 'time_limit',
      },
    ]);
    const dropped = h.fill(h.a, 'buy', 1, '5000.00');
    expect(dropped.body, 'a failed account drops historical fills').toMatchObject({ dropped: true });
  });

  // Trade dates, not calendar days: opened Fri 03-13 with 2, the Sun 17:00 roll to Mon closes Fri (1 of 2; Sat and
  // Sun have no session), the Mon 17:00 roll closes Mon (2 of 2): two trade dates over four calendar dates. Opened in Tue's 16:00-17:00 CT
  // halt, its first trade date is the next session's: the Tue 17:00 roll opens 03-11 (nothing of it has closed) and
  // the Wed 17:00 roll closes it (1 of 1).
  it.each([
    [
      'opened Fri 03-13 09:00, 2 trade dates',
      '2026-03-13T14:00:00Z',
      2,
      '2026-03-15T22:00:00Z',
      '2026-03-16T22:00:00Z',
    ],
    ['opened Tue 03-10 16:30 (the halt), 1', '2026-03-10T21:30:00Z', 1, '2026-03-10T22:00:00Z', '2026-03-11T22:00:00Z'],
  ])('%s: still active after the first roll, failed at the second', (_, openedAt, days, activeAt, failedAt) => {
    const h = riskHarness({ startMs: ms(openedAt) });
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000', time_limit_days: days } }));
    h.kernel.dispatch({ type: 'advance', to_ms: ms(activeAt) });
    expect(h.item(a).account_status).toBe('active');
    h.kernel.dispatch({ type: 'advance', to_ms: ms(failedAt) });
    expect(h.item(a)).toMatchObject({ account_status: 'failed', failed_rule: 'time_limit' });
  });

  it('a pass at the roll that closes the last trade date wins: +1,500 on day 1 of 1 passes', () => {
    const h = limitedAccount(1);
    h.fill(h.a, 'buy', 1, '5000.00');
    h.fill(h.a, 'sell', 1, '5030.00'); // +30 x 50 = +1,500 >= 1,000
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    expect(h.item(h.a), 'the passing check comes first').toMatchObject({
      account_status: 'passed',
      lockout_reason: 'evaluation_passed',
    });
    expect(h.item(h.a).failed_rule).toBeUndefined();
  });

  it('holding a position at that roll: no pass (not flat), so it fails, its orders cancelled, flattened at the next print', () => {
    const h = limitedAccount(1);
    h.tick('5000.00');
    h.trade(h.a, 'buy', 1, '5000.00');
    h.tick('5030.00'); // open +1,500: the target would be met, but a position is held
    const resting = h.place(h.a, {
      side: 'buy',
      type: 'limit',
      quantity: 1,
      limit_price: '4900.00',
      time_in_force: 'gtc',
    });
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    expect(h.item(h.a), 'Tue 17:00: long 1, so not passed; day 1 of 1 closed').toMatchObject({
      account_status: 'failed',
      failed_rule: 'time_limit',
      equity: '51500.00',
    });
    expect(h.lastState(resting), 'working client orders end with the rule as reason').toMatchObject({
      status: 'CANCELLED',
      reason: 'time_limit',
    });
    expect(h.ordersOf(h.a, 'risk'), 'a risk sell 1 at market').toMatchObject([{ side: 'sell', quantity: 1 }]);
    h.tick('5020.00', { afterMs: 1_000 });
    expect(h.net(h.a), 'flat at the first print of the new session').toBe(0);
    expect(h.item(h.a), '(5020 - 5000) x 50 = +1,000 realized: 51,000, still failed').toMatchObject({
      balance: '51000.00',
      account_status: 'failed',
    });
  });

  it("a breach the roll's mark finds is the cause: a daily-loss lock at that roll, then time_limit; a fail action, daily_loss_failure", () => {
    // +1,000 realized (51,000), long 1 @ 5000.00 marked 4970.00: equity 51,000 - 30 x 50 = 49,500 > 49,000 today;
    // the roll's trigger 51,000 - 1,000 = 50,000 >= 49,500 breaches at the roll (docs/risk-rules.md#session-rolls).
    for (const [action, rule] of [
      ['lock', 'time_limit'],
      ['fail', 'daily_loss_failure'],
    ] as const) {
      const h = limitedAccount(1, {}, { ...STATIC, daily_loss_value: '1000', daily_loss_action: action });
      h.fill(h.a, 'buy', 1, '5000.00');
      h.fill(h.a, 'sell', 1, '5020.00');
      h.fill(h.a, 'buy', 1, '5000.00');
      h.tick('4970.00');
      expect(h.item(h.a).equity).toBe('49500.00');
      h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
      expect(h.item(h.a), `${action}: failed by ${rule}`).toMatchObject({
        account_status: 'failed',
        failed_rule: rule,
        lockout_reason: 'evaluation_failed',
      });
    }
  });

  it('no limit: the plan without time_limit_days stays active past any number of rolls', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000' } }));
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-20') });
    expect(h.item(a).account_status).toBe('active');
  });
});
