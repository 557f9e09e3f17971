// Daily loss that fails (docs/risk-rules.md#daily-loss-that-fails): with risk_profile.daily_loss_action fail, a
// daily-loss breach fails the evaluation (rule daily_loss_failure, lock evaluation_failed) instead of locking it until
// the next roll; orders are cancelled and positions flattened as a breach does. Plan: 50,000 static $2,500 (trigger
// 47,500), $1,000 daily loss (trigger 49,000). ES = $50 a point. T0 = Tue 2026-03-10 09:00 CDT; rolls at 22:00Z.
import { describe, expect, it } from 'vitest';
import { ms, plan, riskHarness } from './risk-harness.js';

const FAILS = {
  max_drawdown_mode: 'static',
  max_drawdown_value: '2500',
  daily_loss_value: '1000',
  daily_loss_action: 'fail',
};
const ROLL_TUE = ms('2026-03-10T22:00:00Z');

function failingAccount(risk: Record<string, unknown> = FAILS) {
  const h = riskHarness();
  const a = h.open(plan(risk));
  return { ...h, a };
}

describe('docs/risk-rules.md#daily-loss-that-fails: daily_loss_failure', () => {
  it('equity 49,000 at the daily trigger fails the evaluation; flattened at the next print; the roll lifts nothing', () => {
    const h = failingAccount();
    h.tick('5000.00');
    h.trade(h.a, 'buy', 1, '5000.00');
    const resting = h.place(h.a, {
      side: 'buy',
      type: 'limit',
      quantity: 1,
      limit_price: '4900.00',
      time_in_force: 'gtc',
    });
    const locked = h.events('accounts.locked');
    h.tick('4980.00');
    expect(h.item(h.a), '50,000 - 20 x 50 = 49,000 <= 49,000: failed, not locked till the roll').toMatchObject({
      equity: '49000.00',
      account_status: 'failed',
      is_locked: true,
      lockout_reason: 'evaluation_failed',
      failed_rule: 'daily_loss_failure',
    });
    expect(locked, 'one lock, evaluation_failed, with the breach as its reason; no daily_loss_breach lock').toEqual([
      {
        account_id: h.a,
        lock: 'evaluation_failed',
        reason: 'equity 49000.00 at or below the daily-loss trigger 49000.00',
        account_status: 'failed',
        is_locked: true,
        lockout_reason: 'evaluation_failed',
        failed_rule: 'daily_loss_failure',
      },
    ]);
    expect(h.lastState(resting), 'cancelled with the rule as reason').toMatchObject({
      status: 'CANCELLED',
      reason: 'daily_loss_failure',
    });
    h.tick('4979.00');
    expect(h.item(h.a), 'flatten sell at 4979.00: -21 x 50 = -1,050; balance 48,950').toMatchObject({
      balance: '48950.00',
      equity: '48950.00',
    });
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE });
    expect(h.item(h.a), 'failed is terminal: the roll lifts nothing').toMatchObject({
      account_status: 'failed',
      lockout_reason: 'evaluation_failed',
      failed_rule: 'daily_loss_failure',
    });
    const id = h.place(h.a, { side: 'buy', quantity: 1 });
    expect(h.order(id)).toMatchObject({ status: 'REJECTED', error: { code: 'account_failed' } });
  });

  it('lock, the default, and an explicit lock: the same breach locks until the roll and the account stays active', () => {
    for (const action of [undefined, 'lock']) {
      const h = failingAccount({ ...FAILS, daily_loss_action: action });
      h.tick('5000.00');
      h.trade(h.a, 'buy', 1, '5000.00');
      h.tick('4980.00');
      expect(h.item(h.a), String(action)).toMatchObject({
        account_status: 'active',
        lockout_reason: 'daily_loss_breach',
      });
      expect(h.item(h.a).failed_rule).toBeUndefined();
    }
  });

  it('max loss wins when one mark crosses both floors: static $2,000 (48,000) and daily 49,000 at 4960.00', () => {
    const h = failingAccount({ ...FAILS, max_drawdown_value: '2000' });
    h.tick('5000.00');
    h.trade(h.a, 'buy', 1, '5000.00');
    h.tick('4960.00');
    expect(h.item(h.a), '50,000 - 40 x 50 = 48,000 <= 48,000 and <= 49,000').toMatchObject({
      account_status: 'failed',
      lockout_reason: 'max_loss_breach',
      failed_rule: 'max_loss_breach',
    });
  });

  it('a daily trigger raised to equity by setDailyLossTrigger fails the account at once', () => {
    const h = failingAccount();
    h.ok('set_daily_loss_trigger', h.a, { reason_code: 'desk', daily_loss_limit_trigger: '50000.00' });
    expect(h.item(h.a), 'equity 50,000 <= 50,000').toMatchObject({
      account_status: 'failed',
      failed_rule: 'daily_loss_failure',
    });
  });
});
