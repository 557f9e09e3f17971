// Passing (docs/risk-rules.md#passing) at each session roll (17:00 CDT = 22:00Z): balance ≥ starting_balance +
// profit_target, trade dates with a fill ≥ min_trading_days, best day ≤ consistency_pct % of total profit.
// Plans: 50,000 static $2,000; ES = $50 a point. T0 = Tue 2026-03-10 09:00 CDT (trade date 03-10).
import { describe, expect, it } from 'vitest';
import { ms, plan, riskHarness } from './risk-harness.js';

const STATIC = { max_drawdown_mode: 'static', max_drawdown_value: '2000' };
const rollOf = (date: string) => ms(`${date}T22:00:00Z`);

describe('docs/risk-rules.md#passing: min_trading_days', () => {
  it('target met on the first day but 1 trading day < 2: still active; the second day’s roll passes it', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000', min_trading_days: 2 } }));
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5030.00');
    expect(h.item(a), '+30 x 50 = 1,500 ≥ 1,000 intraday, but passing waits for the roll').toMatchObject({
      balance: '51500.00',
      account_status: 'active',
    });
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    expect(h.item(a), 'Tue roll: 1 trade date with a fill < 2').toMatchObject({
      account_status: 'active',
      is_locked: false,
    });
    h.fill(a, 'buy', 1, '5030.00');
    h.fill(a, 'sell', 1, '5031.00');
    const locked = h.events('accounts.locked');
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-11') });
    expect(h.item(a), 'Wed roll: 51,550 ≥ 51,000 and 2 trade dates').toMatchObject({
      balance: '51550.00',
      account_status: 'passed',
      is_locked: true,
      lockout_reason: 'evaluation_passed',
    });
    expect(locked.map((e) => [e.lock, e.account_status])).toEqual([['evaluation_passed', 'passed']]);
  });

  it('enough days but the balance short of the target by a cent: not passed', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000.01', min_trading_days: 1 } }));
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5020.00');
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    expect(h.item(a), '51,000 < 51,000.01').toMatchObject({ balance: '51000.00', account_status: 'active' });
  });

  it('a trade date counts with any fill, an opening one included', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000', min_trading_days: 2 } }));
    h.fill(a, 'buy', 1, '5000.00'); // Tue: opens only
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    h.fill(a, 'sell', 1, '5030.00'); // Wed: closes +1,500
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-11') });
    expect(h.item(a).account_status, 'Tue and Wed have fills').toBe('passed');
  });
});

describe('docs/risk-rules.md#passing: consistency — best day ≤ consistency_pct % of total profit', () => {
  it('50%: days +1,500, +1,000, +500 pass on the third roll, where 1,500 = 50% of 3,000', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000', consistency_pct: '50' } }));
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5030.00');
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    expect(h.item(a).account_status, 'Tue: best 1,500 > 50% of 1,500 = 750').toBe('active');
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5020.00');
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-11') });
    expect(h.item(a).account_status, 'Wed: best 1,500 > 50% of 2,500 = 1,250').toBe('active');
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5010.00');
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-12') });
    expect(h.item(a), 'Thu: best 1,500 ≤ 50% of 3,000 = 1,500: passed').toMatchObject({
      balance: '53000.00',
      account_status: 'passed',
      lockout_reason: 'evaluation_passed',
    });
  });

  it('a losing day lowers the total the best day is compared with', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000', consistency_pct: '60' } }));
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5030.00'); // Tue +1,500
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5030.00'); // Wed +1,500
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-11') });
    expect(h.item(a), 'Wed: total 3,000, best 1,500 ≤ 60% x 3,000 = 1,800 -> passed').toMatchObject({
      account_status: 'passed',
    });

    const h2 = riskHarness();
    const b = h2.open(plan(STATIC, { passing_criteria: { profit_target: '1000', consistency_pct: '60' } }));
    h2.fill(b, 'buy', 1, '5000.00');
    h2.fill(b, 'sell', 1, '5030.00'); // Tue +1,500
    h2.fill(b, 'buy', 1, '5000.00');
    h2.fill(b, 'sell', 1, '4995.00'); // Tue -250: Tue nets +1,250
    h2.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    h2.fill(b, 'buy', 1, '5000.00');
    h2.fill(b, 'sell', 1, '5010.00'); // Wed +500
    h2.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-11') });
    expect(h2.item(b), 'total 1,750, best day 1,250 > 60% x 1,750 = 1,050: not passed').toMatchObject({
      balance: '51750.00',
      account_status: 'active',
    });
  });
});

describe('docs/risk-rules.md#passing: a passed account is locked evaluation_passed', () => {
  it('later orders end REJECTED; its working orders are cancelled at the pass; the next roll changes nothing', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000' } }));
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5030.00'); // realized +1,500, flat
    const resting = h.place(a, {
      side: 'buy',
      type: 'limit',
      quantity: 1,
      limit_price: '4900.00',
      time_in_force: 'gtc',
    });
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    expect(h.item(a), 'trading profit 1,500 ≥ 1,000 at the roll').toMatchObject({
      account_status: 'passed',
      lockout_reason: 'evaluation_passed',
      balance: '51500.00',
    });
    expect(h.order(resting).status, 'working orders are cancelled at the pass').toBe('CANCELLED');
    h.tick('5040.00', { afterMs: 60_000 });
    const id = h.place(a, { side: 'buy', quantity: 1 });
    expect(h.order(id)).toMatchObject({ status: 'REJECTED', error: { code: 'account_passed' } });
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-11') });
    expect(h.item(a), 'passed is terminal: the next roll changes nothing').toMatchObject({
      account_status: 'passed',
      is_locked: true,
      lockout_reason: 'evaluation_passed',
    });
  });
});

describe('passing counts trading profit: balance − starting_balance − Σ adjustments; a deposit never passes', () => {
  it('a $1,000 deposit alone does not pass; $1,000 of trading on top does, at balance 52,000', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000' } }));
    h.ok('adjust_balance', a, { amount: '1000.00', reason_code: 'deposit' });
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5010.00'); // +10 x 50 = +500
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    expect(
      h.item(a),
      'balance 51,500 = 50,000 + 1,000 deposit + 500 trading: trading profit 500 < 1,000',
    ).toMatchObject({ balance: '51500.00', account_status: 'active' });
    h.fill(a, 'buy', 1, '5010.00');
    h.fill(a, 'sell', 1, '5020.00'); // +500 more
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-11') });
    expect(h.item(a), '52,000 − 50,000 − 1,000 = 1,000 ≥ 1,000').toMatchObject({
      balance: '52000.00',
      account_status: 'passed',
    });
  });

  it('a $500 withdrawal does not hold back a trader who made $1,000: balance 50,500 passes', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000' } }));
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5020.00'); // +20 x 50 = +1,000
    h.ok('adjust_balance', a, { amount: '-500.00', reason_code: 'withdrawal' });
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    expect(h.item(a), '50,500 − 50,000 − (−500) = 1,000 ≥ 1,000').toMatchObject({
      balance: '50500.00',
      account_status: 'passed',
    });
  });
});

describe('no pass at a roll while holding a position or under firm_lockout; judged again at the next roll', () => {
  it('long 1 at the roll with the target met: active; closed the next day, it passes at that roll', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000' } }));
    h.fill(a, 'buy', 2, '5000.00');
    h.fill(a, 'sell', 1, '5030.00'); // realized +1,500, long 1 left open
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    expect(h.item(a), 'trading profit 1,500 ≥ 1,000 but long 1 at the roll').toMatchObject({
      balance: '51500.00',
      account_status: 'active',
      is_locked: false,
    });
    h.fill(a, 'sell', 1, '5010.00'); // +10 x 50 = +500, flat
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-11') });
    expect(h.item(a), 'flat at the Wed roll with 2,000 ≥ 1,000').toMatchObject({
      balance: '52000.00',
      account_status: 'passed',
    });
  });

  it('under firm_lockout at the roll: active and still locked; unlocked, it passes at the next roll', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC, { passing_criteria: { profit_target: '1000' } }));
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5020.00'); // +1,000
    h.ok('lockout', a, { reason_code: 'review' });
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-10') });
    expect(h.item(a), 'the firm lock holds the pass back').toMatchObject({
      account_status: 'active',
      lockout_reason: 'firm_lockout',
    });
    h.ok('unlock', a);
    h.kernel.dispatch({ type: 'advance', to_ms: rollOf('2026-03-11') });
    expect(h.item(a), 'unlocked and flat at the Wed roll').toMatchObject({
      account_status: 'passed',
      lockout_reason: 'evaluation_passed',
    });
  });
});
