// Firm operations that move the floors, through the kernel: cash adjust (docs/risk-rules.md#cash-adjust, floors
// shifted or kept) and its history, and max-loss-limit changes (docs/risk-rules.md#max-loss-limit-change).
// ES = $50 a point. Plans start at 50,000.
import { describe, expect, it } from 'vitest';
import { plan, riskHarness } from './risk-harness.js';

describe('docs/risk-rules.md#cash-adjust: cash moves the balance and shifts anchor, peak, both triggers and the ceiling', () => {
  // realtime_balance 2,000, capped at +500 (ceiling 50,500), daily 1,000. A +1,000 round trip first:
  // balance 51,000, peak 51,000, trigger min(49,000, 50,500) = 49,000, daily trigger 49,000 (anchor 50,000).
  function adjusted() {
    const h = riskHarness();
    const a = h.open(
      plan({
        max_drawdown_mode: 'realtime_balance',
        max_drawdown_value: '2000',
        max_drawdown_limit: '500',
        daily_loss_value: '1000',
      }),
    );
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5020.00');
    expect(h.item(a)).toMatchObject({
      balance: '51000.00',
      highest_realized_balance: '51000.00',
      max_loss_limit_trigger: '49000.00',
      max_drawdown_lock_ceiling: '50500.00',
      daily_loss_limit_trigger: '49000.00',
    });
    return { ...h, a };
  }

  it('-250: every floor moves by -250, so both headrooms stay 2,000', () => {
    const h = adjusted();
    const body = h.ok('adjust_balance', h.a, { amount: '-250.00', reason_code: 'fee' });
    expect(body).toMatchObject({
      account_id: h.a,
      amount: '-250.00',
      reason_code: 'fee',
      shift_floors: true,
      balance: '50750.00',
      occurred_at: h.kernel.nowMs,
    });
    const balance = h.kernel.read.balance({}, h.a);
    expect(balance.ok && balance.body).toMatchObject({
      account_id: h.a,
      balance: '50750.00',
      start_of_day_balance: '49750.00',
      realized_day_pnl: '1000.00',
      daily_loss_limit_trigger: '48750.00',
      realized_week_pnl: '1000.00',
    });
    const item = h.item(h.a);
    expect(item, '51,000 - 250; 50,000 - 250; 49,000 - 250 (both triggers); 50,500 - 250').toMatchObject({
      balance: '50750.00',
      equity: '50750.00',
      start_of_day_balance: '49750.00',
      highest_realized_balance: '50750.00',
      max_loss_limit_trigger: '48750.00',
      daily_loss_limit_trigger: '48750.00',
      max_drawdown_lock_ceiling: '50250.00',
    });
    expect(Number(item.equity) - Number(item.max_loss_limit_trigger), 'max-loss headroom 51,000 - 49,000 before').toBe(
      2000,
    );
    expect(Number(item.equity) - Number(item.daily_loss_limit_trigger), 'daily headroom 51,000 - 49,000 before').toBe(
      2000,
    );
    expect(item.realized_day_pnl, 'an adjustment is not trading P&L').toBe('1000.00');
  });

  it('shift_floors: false moves only the balance (headroom shrinks by 250)', () => {
    const h = adjusted();
    h.ok('adjust_balance', h.a, { amount: '-250.00', shift_floors: false });
    expect(h.item(h.a), 'floors as before').toMatchObject({
      balance: '50750.00',
      start_of_day_balance: '50000.00',
      highest_realized_balance: '51000.00',
      max_loss_limit_trigger: '49000.00',
      daily_loss_limit_trigger: '49000.00',
      max_drawdown_lock_ceiling: '50500.00',
    });
  });

  it('an unshifted withdrawal that takes equity to the trigger breaches at once', () => {
    const h = adjusted();
    h.ok('adjust_balance', h.a, { amount: '-2000.00', shift_floors: false });
    expect(h.item(h.a), '51,000 - 2,000 = 49,000 = trigger (max loss wins over daily)').toMatchObject({
      balance: '49000.00',
      account_status: 'failed',
      lockout_reason: 'max_loss_breach',
    });
  });

  it('the adjustment history lists every adjustment in order', () => {
    const h = adjusted();
    h.ok('adjust_balance', h.a, { amount: '-250.00', reason_code: 'fee' });
    h.ok('adjust_balance', h.a, { amount: '100.50', reason_code: 'refund', shift_floors: false });
    const listed = h.kernel.read.adjustments({}, h.a, {});
    const history: Array<Record<string, unknown>> = listed.ok ? listed.body.items : [];
    expect(
      history.map((r) => [r.amount, r.reason_code, r.shift_floors, r.balance]),
      '51,000 - 250 = 50,750; + 100.50 = 50,850.50',
    ).toEqual([
      ['-250.00', 'fee', true, '50750.00'],
      ['100.50', 'refund', false, '50850.50'],
    ]);
    expect(new Set(history.map((r) => r.adjustment_id)).size).toBe(2);
  });
});

describe('docs/risk-rules.md#max-loss-limit-change', () => {
  it('409 on a static account', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
    const outcome = h.control('set_max_loss_limit', a, { max_drawdown_limit: '0' });
    expect([outcome.status, !outcome.ok && outcome.body.code]).toEqual([409, 'static_drawdown']);
  });

  it('on a trailing account it sets the ceiling and recomputes the trigger at once: it may fall, and rise again', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'realtime_balance', max_drawdown_value: '2000' }));
    const other = h.open(plan({ max_drawdown_mode: 'realtime_balance', max_drawdown_value: '2000' }));
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5060.00');
    expect(h.item(a).max_loss_limit_trigger, '+3,000: peak 53,000 - 2,000').toBe('51000.00');
    const capped = h.ok('set_max_loss_limit', a, { max_drawdown_limit: '100' });
    expect(capped, 'ceiling 50,000 + 100; trigger min(51,000, 50,100): falls').toMatchObject({
      max_drawdown_limit: '100.00',
      max_drawdown_lock_ceiling: '50100.00',
      max_loss_limit_trigger: '50100.00',
    });
    h.ok('set_max_loss_limit', a, { max_drawdown_limit: '5000' });
    expect(h.item(a), 'ceiling 55,000: trigger min(51,000, 55,000)').toMatchObject({
      max_drawdown_lock_ceiling: '55000.00',
      max_loss_limit_trigger: '51000.00',
    });
    h.ok('set_max_loss_limit', a, { max_drawdown_limit: null });
    expect(h.item(a).max_drawdown_lock_ceiling, 'null removes the cap').toBeUndefined();
    expect(h.item(a).max_loss_limit_trigger).toBe('51000.00');
    expect(h.item(other), 'another account on the same plan is untouched').toMatchObject({
      max_loss_limit_trigger: '48000.00',
    });
    expect(h.kernel.internals().accounts.get(other).plan.riskProfile.maxDrawdownLimitCents).toBeUndefined();
  });

  it('a change that lifts the trigger to equity fails the account at once', () => {
    const h = riskHarness();
    const a = h.open(
      plan({ max_drawdown_mode: 'realtime_balance', max_drawdown_value: '2000', max_drawdown_limit: '100' }),
    );
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5060.00'); // balance 53,000, trigger capped at 50,100
    h.tick('5060.00');
    h.trade(a, 'buy', 1, '5060.00');
    h.tick('5018.00');
    expect(h.item(a), '53,000 - 42 x 50 = 50,900 > 50,100').toMatchObject({
      equity: '50900.00',
      account_status: 'active',
    });
    h.ok('set_max_loss_limit', a, { max_drawdown_limit: null });
    expect(h.item(a), 'uncapped: 53,000 - 2,000 = 51,000 ≥ 50,900: breach').toMatchObject({
      max_loss_limit_trigger: '51000.00',
      account_status: 'failed',
      lockout_reason: 'max_loss_breach',
    });
  });

  it('with cash adjustments the new ceiling keeps their shift: -250 then cap 0 gives 49,750', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'eod_balance', max_drawdown_value: '2000' }));
    h.ok('adjust_balance', a, { amount: '-250.00' });
    h.ok('set_max_loss_limit', a, { max_drawdown_limit: '0' });
    expect(h.item(a), 'peak 49,750 - 2,000 = 47,750 < ceiling 50,000 - 250').toMatchObject({
      max_drawdown_lock_ceiling: '49750.00',
      max_loss_limit_trigger: '47750.00',
    });
  });
});
