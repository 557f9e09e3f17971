// Daily loss through the kernel (docs/risk-rules.md#daily-loss), with setDailyLossTrigger and reanchorDailyLoss.
// Plan: 50,000 static, $2,500 max loss (trigger 47,500), $1,000 daily loss (trigger 49,000). ES = $50 a point.
// T0 = Tue 2026-03-10 09:00 CDT; rolls at 17:00 CDT = 22:00Z; the weekly roll is Sunday 17:00 CT.
import { describe, expect, it } from 'vitest';
import { ms, plan, riskHarness } from './risk-harness.js';

const DAILY = { max_drawdown_mode: 'static', max_drawdown_value: '2500', daily_loss_value: '1000' };
const ROLL_TUE = ms('2026-03-10T22:00:00Z');
const ROLL_WED = ms('2026-03-11T22:00:00Z');

function dailyAccount(options: Parameters<typeof riskHarness>[0] = {}) {
  const h = riskHarness(options);
  const a = h.open(plan(DAILY));
  return { ...h, a };
}

describe('docs/risk-rules.md#daily-loss: the daily window is rebuilt at each session roll', () => {
  it('at the roll: start_of_day_balance = balance, realized_day_pnl = 0, trigger = balance - 1,000', () => {
    const h = dailyAccount();
    expect(h.item(h.a), 'at provisioning: start_of_day_balance = starting_balance').toMatchObject({
      start_of_day_balance: '50000.00',
      daily_loss_limit_trigger: '49000.00',
      realized_day_pnl: '0.00',
    });
    h.fill(h.a, 'buy', 1, '5000.00');
    h.fill(h.a, 'sell', 1, '4990.00');
    expect(h.item(h.a), '-10 x 50 = -500; balance = start_of_day_balance + realized_day_pnl').toMatchObject({
      balance: '49500.00',
      realized_day_pnl: '-500.00',
      realized_week_pnl: '-500.00',
      start_of_day_balance: '50000.00',
    });
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE });
    expect(h.item(h.a), 'Tue 17:00 CDT roll: 49,500 - 1,000 = 48,500').toMatchObject({
      start_of_day_balance: '49500.00',
      daily_loss_limit_trigger: '48500.00',
      realized_day_pnl: '0.00',
      realized_week_pnl: '-500.00',
    });
  });

  it('with a position open at the roll the anchor is cash (balance), not equity', () => {
    const h = dailyAccount();
    h.tick('5000.00');
    h.trade(h.a, 'buy', 1, '5000.00');
    h.tick('5010.00');
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE });
    expect(h.item(h.a), 'equity 50,500 but the anchor is the balance 50,000').toMatchObject({
      equity: '50500.00',
      start_of_day_balance: '50000.00',
      daily_loss_limit_trigger: '49000.00',
    });
  });
});

describe('docs/risk-rules.md#daily-loss: a daily-loss breach locks until the next session roll, and only the roll lifts it', () => {
  it('equity = 49,000 breaches; unlock, reanchor and setDailyLossTrigger leave the lock; the 17:00 roll lifts it', () => {
    const h = dailyAccount();
    h.tick('5000.00');
    h.trade(h.a, 'buy', 1, '5000.00');
    h.tick('4980.00');
    expect(h.item(h.a), '50,000 - 20 x 50 = 49,000 = the daily trigger: locked, still active').toMatchObject({
      equity: '49000.00',
      is_locked: true,
      lockout_reason: 'daily_loss_breach',
      account_status: 'active',
    });
    h.tick('4980.00');
    expect(h.net(h.a), 'flattened through the venue at the next print').toBe(0);
    expect(h.control('unlock', h.a).status, 'DELETE lockout removes only firm_lockout: none here').toBe(409);
    expect(
      h.ok('reanchor_daily_loss', h.a, { reason_code: 'ops' }),
      'allowance 50,000 - 49,000 = 1,000; anchor 49,000; trigger 48,000',
    ).toMatchObject({ start_of_day_balance: '49000.00', daily_loss_limit_trigger: '48000.00' });
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '45000' });
    expect(h.item(h.a), 'neither operation lifts the breach').toMatchObject({
      is_locked: true,
      lockout_reason: 'daily_loss_breach',
      daily_loss_limit_trigger: '45000.00',
    });
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE - 1 });
    expect(h.item(h.a).is_locked, '16:59:59.999 CDT').toBe(true);
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE });
    expect(h.item(h.a), 'roll: lock lifted, window rebuilt from 49,000: trigger 48,000').toMatchObject({
      is_locked: false,
      start_of_day_balance: '49000.00',
      daily_loss_limit_trigger: '48000.00',
      realized_day_pnl: '0.00',
    });
    expect(h.item(h.a).lockout_reason).toBeUndefined();
  });

  it('new orders while daily-locked end REJECTED account_locked; after the roll they trade again', () => {
    const h = dailyAccount();
    h.tick('5000.00');
    h.trade(h.a, 'buy', 1, '5000.00');
    h.tick('4980.00');
    h.tick('4980.00');
    const refused = h.place(h.a, { side: 'buy', quantity: 1, time_in_force: 'gtc' });
    expect(h.order(refused)).toMatchObject({ status: 'REJECTED', error: { code: 'account_locked' } });
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE });
    h.tick('4980.00');
    const again = h.place(h.a, { side: 'buy', quantity: 1 });
    h.tick('4980.00');
    expect(h.order(again).status).toBe('FILLED');
  });
});

describe('docs/risk-rules.md#setdailylosstrigger', () => {
  it('answers exactly the listed fields; balance, start_of_day_balance and realized P&L stay', () => {
    const h = dailyAccount();
    h.fill(h.a, 'buy', 1, '5000.00');
    h.fill(h.a, 'sell', 1, '5004.00');
    const updates = h.events('balance.updated');
    const body = h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '49500' });
    expect(Object.keys(body).sort()).toEqual(
      [
        'account_id',
        'reason_code',
        'previous_daily_loss_limit_trigger',
        'daily_loss_limit_trigger',
        'start_of_day_balance',
        'realized_day_pnl',
        'balance',
      ].sort(),
    );
    expect(body, '+4 x 50 = +200: balance 50,200; the trigger 49,000 -> 49,500').toEqual({
      account_id: h.a,
      reason_code: 'ops',
      previous_daily_loss_limit_trigger: '49000.00',
      daily_loss_limit_trigger: '49500.00',
      start_of_day_balance: '50000.00',
      realized_day_pnl: '200.00',
      balance: {
        account_id: h.a,
        balance: '50200.00',
        start_of_day_balance: '50000.00',
        realized_day_pnl: '200.00',
        daily_loss_limit_trigger: '49500.00',
        realized_week_pnl: '200.00',
      },
    });
    expect(h.item(h.a), 'unchanged but the trigger').toMatchObject({
      balance: '50200.00',
      start_of_day_balance: '50000.00',
      realized_day_pnl: '200.00',
      realized_week_pnl: '200.00',
      daily_loss_limit_trigger: '49500.00',
    });
    expect(updates.length, 'publishes balance.updated').toBeGreaterThanOrEqual(1);
  });

  it('a trigger raised above equity breaches at once, at the same timestamp', () => {
    const h = dailyAccount();
    h.tick('5000.00');
    h.trade(h.a, 'buy', 1, '5000.00');
    h.tick('4995.00');
    const locked = h.events('accounts.locked');
    const at = h.kernel.nowMs;
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '49800' });
    expect(h.item(h.a), 'equity 50,000 - 5 x 50 = 49,750 ≤ 49,800').toMatchObject({
      equity: '49750.00',
      is_locked: true,
      lockout_reason: 'daily_loss_breach',
      account_status: 'active',
    });
    expect(locked.map((e) => e.lock)).toEqual(['daily_loss_breach']);
    expect(h.kernel.nowMs, 'no time passed').toBe(at);
    expect(
      h.ordersOf(h.a, 'risk').map((o) => [o.side, o.quantity, o.status]),
      'flatten sent',
    ).toEqual([['sell', 1, 'SUBMITTED']]);
  });

  it('a trigger set below equity does not breach; touching it does', () => {
    const h = dailyAccount();
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '49999.99' });
    expect(h.item(h.a).is_locked, 'equity 50,000 > 49,999.99').toBe(false);
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '50000' });
    expect(h.item(h.a).lockout_reason, 'equity 50,000 = trigger').toBe('daily_loss_breach');
  });

  it('the change applies to the current session only: the next roll rebuilds from daily_loss_value', () => {
    const h = dailyAccount();
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '45000' });
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE });
    expect(h.item(h.a).daily_loss_limit_trigger, '50,000 - 1,000').toBe('49000.00');
  });

  it('409 on an account without a daily-loss limit; the state is unchanged', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2500' }));
    const outcome = h.control('set_daily_loss_trigger', a, { reason_code: 'ops', daily_loss_limit_trigger: '49000' });
    expect([outcome.status, !outcome.ok && outcome.body.code]).toEqual([409, 'no_daily_loss_limit']);
    expect(h.item(a).daily_loss_limit_trigger, 'no daily-loss field on such an account').toBeUndefined();
  });
});

describe('docs/risk-rules.md#reanchordailyloss', () => {
  it('allowance = previous anchor - previous trigger; anchor = balance; realized_day_pnl = 0; answers the listed fields', () => {
    const h = dailyAccount();
    h.fill(h.a, 'buy', 1, '5000.00');
    h.fill(h.a, 'sell', 1, '5004.00');
    const body = h.ok('reanchor_daily_loss', h.a, { reason_code: 'ops' });
    expect(Object.keys(body).sort()).toEqual(
      [
        'account_id',
        'reason_code',
        'daily_loss_value',
        'previous_start_of_day_balance',
        'previous_daily_loss_limit_trigger',
        'start_of_day_balance',
        'daily_loss_limit_trigger',
        'balance',
      ].sort(),
    );
    expect(body, 'allowance 50,000 - 49,000 = 1,000; anchor 50,200; trigger 50,200 - 1,000 = 49,200').toEqual({
      account_id: h.a,
      reason_code: 'ops',
      daily_loss_value: '1000.00',
      previous_start_of_day_balance: '50000.00',
      previous_daily_loss_limit_trigger: '49000.00',
      start_of_day_balance: '50200.00',
      daily_loss_limit_trigger: '49200.00',
      balance: {
        account_id: h.a,
        balance: '50200.00',
        start_of_day_balance: '50200.00',
        realized_day_pnl: '0.00',
        daily_loss_limit_trigger: '49200.00',
        realized_week_pnl: '200.00',
      },
    });
  });

  it('preserves a moved allowance: trigger 49,500 then reanchor at 50,200 gives 50,200 - 500 = 49,700', () => {
    const h = dailyAccount();
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '49500' });
    h.fill(h.a, 'buy', 1, '5000.00');
    h.fill(h.a, 'sell', 1, '5004.00');
    expect(h.ok('reanchor_daily_loss', h.a, { reason_code: 'ops' })).toMatchObject({
      daily_loss_value: '500.00',
      daily_loss_limit_trigger: '49700.00',
      start_of_day_balance: '50200.00',
    });
  });

  it('the anchor is cash while the breach check is live equity: a reanchor with a losing position open breaches', () => {
    const h = dailyAccount();
    h.tick('5000.00');
    h.trade(h.a, 'buy', 1, '5000.00');
    h.tick('4990.00');
    expect(h.item(h.a), 'equity 49,500 > 49,000').toMatchObject({ equity: '49500.00', is_locked: false });
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '49400' });
    h.ok('reanchor_daily_loss', h.a, { reason_code: 'ops' });
    expect(h.item(h.a), 'allowance 600; anchor 50,000 (cash); trigger 49,400; equity 49,500: no breach').toMatchObject({
      daily_loss_limit_trigger: '49400.00',
      is_locked: false,
    });
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '49600' });
    expect(h.item(h.a).lockout_reason, 'equity 49,500 ≤ 49,600').toBe('daily_loss_breach');
  });

  it('409 without a daily-loss limit', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2500' }));
    const outcome = h.control('reanchor_daily_loss', a, { reason_code: 'ops' });
    expect([outcome.status, !outcome.ok && outcome.body.code]).toEqual([409, 'no_daily_loss_allowance']);
  });

  it('409 when the allowance is 0 or negative (trigger at or above the anchor) and nothing changes', () => {
    const h = dailyAccount();
    h.fill(h.a, 'buy', 1, '5000.00');
    h.fill(h.a, 'sell', 1, '5004.00'); // balance 50,200
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '50000' });
    expect(h.item(h.a).is_locked, 'equity 50,200 > 50,000: no breach').toBe(false);
    expect(h.control('reanchor_daily_loss', h.a, { reason_code: 'ops' }).status, 'allowance 50,000 - 50,000 = 0').toBe(
      409,
    );
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '50100' });
    expect(
      h.control('reanchor_daily_loss', h.a, { reason_code: 'ops' }).status,
      'allowance 50,000 - 50,100 = -100',
    ).toBe(409);
    expect(h.item(h.a), 'unchanged').toMatchObject({
      start_of_day_balance: '50000.00',
      daily_loss_limit_trigger: '50100.00',
      realized_day_pnl: '200.00',
    });
  });
});

describe('docs/risk-rules.md#session-rolls: realized_week_pnl resets at the weekly roll only', () => {
  it('Thu +100, Fri -50: the Thu roll keeps the week; no roll over Saturday; Sunday 17:00 CT resets it', () => {
    const h = riskHarness({ startMs: ms('2026-03-12T14:00:00Z') }); // Thu 09:00 CDT
    const a = h.open(plan(DAILY));
    const rolls = h.events('session.rolled');
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5002.00');
    expect(h.item(a), '+2 x 50').toMatchObject({ realized_day_pnl: '100.00', realized_week_pnl: '100.00' });
    h.kernel.dispatch({ type: 'advance', to_ms: ms('2026-03-12T22:00:00Z') });
    expect(h.item(a), 'Thu 17:00 roll: a daily roll, not weekly').toMatchObject({
      realized_day_pnl: '0.00',
      realized_week_pnl: '100.00',
      start_of_day_balance: '50100.00',
      daily_loss_limit_trigger: '49100.00',
    });
    h.kernel.dispatch({ type: 'advance', to_ms: ms('2026-03-13T14:00:00Z') });
    h.fill(a, 'buy', 1, '5002.00');
    h.fill(a, 'sell', 1, '5001.00');
    expect(h.item(a), 'Fri: -1 x 50').toMatchObject({
      balance: '50050.00',
      realized_day_pnl: '-50.00',
      realized_week_pnl: '50.00',
    });
    h.kernel.dispatch({ type: 'advance', to_ms: ms('2026-03-14T18:00:00Z') });
    expect(h.item(a), 'Saturday: no session opened since Friday 16:00 CT').toMatchObject({
      realized_day_pnl: '-50.00',
      realized_week_pnl: '50.00',
    });
    h.kernel.dispatch({ type: 'advance', to_ms: ms('2026-03-15T22:00:00Z') });
    expect(h.item(a), 'Sunday 17:00 CDT: the weekly roll opens Monday 03-16').toMatchObject({
      realized_day_pnl: '0.00',
      realized_week_pnl: '0.00',
      start_of_day_balance: '50050.00',
      daily_loss_limit_trigger: '49050.00',
    });
    h.fill(a, 'buy', 1, '5001.00');
    h.fill(a, 'sell', 1, '5003.00');
    h.kernel.dispatch({ type: 'advance', to_ms: ms('2026-03-16T22:00:00Z') });
    expect(h.item(a), 'Monday 17:00: daily only; the week keeps +100').toMatchObject({
      realized_day_pnl: '0.00',
      realized_week_pnl: '100.00',
    });
    expect(rolls, 'Thu->Fri, Sun->Mon (weekly), Mon->Tue').toEqual([
      { trade_date: '2026-03-13', weekly: false },
      { trade_date: '2026-03-16', weekly: true },
      { trade_date: '2026-03-17', weekly: false },
    ]);
  });
});

describe('a daily-loss lock does not stop the max-loss check (docs/risk-rules.md#daily-loss, docs/risk-rules.md#breach-on-touch)', () => {
  it('daily-locked, then a later mark at the max-loss trigger fails the account', () => {
    const h = dailyAccount();
    h.tick('5000.00');
    h.trade(h.a, 'buy', 1, '5000.00');
    h.ok('lockout', h.a, {}); // keep a position open while locked: firm lock, no flatten
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'ops', daily_loss_limit_trigger: '50000' }); // daily breach now
    // The flatten order works; a print that fills it also marks the account: 4950 -> realized -2,500
    h.tick('4950.00');
    expect(h.item(h.a), 'flattened at 4950: balance 47,500 = the max-loss trigger').toMatchObject({
      balance: '47500.00',
      account_status: 'failed',
      lockout_reason: 'max_loss_breach',
    });
    expect(h.kernel.internals().accounts.get(h.a).locks, 'all three locks, most severe first').toEqual([
      'max_loss_breach',
      'daily_loss_breach',
      'firm_lockout',
    ]);
  });
});

describe('docs/risk-rules.md#daily-loss with the daily roll on later days', () => {
  it('the Wed roll rebuilds again from Wed’s closing balance', () => {
    const h = dailyAccount();
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE });
    h.fill(h.a, 'buy', 2, '5000.00');
    h.fill(h.a, 'sell', 2, '5003.00');
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_WED });
    expect(h.item(h.a), '+3 x 2 x 50 = 300: anchor 50,300, trigger 49,300').toMatchObject({
      start_of_day_balance: '50300.00',
      daily_loss_limit_trigger: '49300.00',
      realized_week_pnl: '300.00',
    });
  });
});
