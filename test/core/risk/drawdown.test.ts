// docs/risk-rules.md#equity-and-the-max-loss-floor through the kernel: every drawdown mode driven by real venue fills
// and trade prints, and caps (the ceiling). Breach on touch and what a breach does: drawdown-breach.test.ts.
// ES = $50 a point. Every plan starts at 50,000 with a $2,000 allowance unless said otherwise.
// T0 = Tue 2026-03-10 09:00 CDT; the session roll is 17:00 CDT = 22:00Z.
import { describe, expect, it } from 'vitest';
import { ms, plan, riskHarness } from './risk-harness.js';

const ROLL_TUE = ms('2026-03-10T22:00:00Z');

describe('docs/risk-rules.md#drawdown-modes static: trigger = starting_balance - max_drawdown_value, fixed', () => {
  it('the trigger stays at 48,000 through equity and balance highs; highest_realized_balance is the highest balance', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    h.tick('5040.00');
    expect(h.item(a), 'equity 50,000 + 40 x 50 = 52,000; balance unchanged').toMatchObject({
      equity: '52000.00',
      balance: '50000.00',
      highest_realized_balance: '50000.00',
      max_loss_limit_trigger: '48000.00',
    });
    h.trade(a, 'sell', 1, '5030.00');
    expect(h.item(a), 'realized +30 x 50 = 1,500: balance 51,500 is the highest balance; trigger fixed').toMatchObject({
      balance: '51500.00',
      highest_realized_balance: '51500.00',
      max_loss_limit_trigger: '48000.00',
    });
    expect(h.item(a).max_drawdown_limit, 'static: no cap fields').toBeUndefined();
  });

  it('a max_drawdown_limit on a static plan is ignored: no max_drawdown_limit, no ceiling', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000', max_drawdown_limit: '0' }));
    expect(h.item(a).max_drawdown_limit).toBeUndefined();
    expect(h.item(a).max_drawdown_lock_ceiling).toBeUndefined();
    expect(h.item(a).max_loss_limit_trigger).toBe('48000.00');
  });
});

describe('docs/risk-rules.md#drawdown-modes realtime_balance: the peak follows balance after a realizing fill, not equity', () => {
  it('equity highs leave the trigger; a realized +1,500 raises it to 49,500; a loss never lowers it', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'realtime_balance', max_drawdown_value: '2000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    h.tick('5040.00');
    expect(h.item(a), 'equity 52,000 but balance 50,000: the trigger stays 48,000').toMatchObject({
      equity: '52000.00',
      highest_realized_balance: '50000.00',
      max_loss_limit_trigger: '48000.00',
    });
    h.trade(a, 'sell', 1, '5030.00');
    expect(h.item(a), 'balance 50,000 + 30 x 50 = 51,500: trigger 51,500 - 2,000').toMatchObject({
      balance: '51500.00',
      highest_realized_balance: '51500.00',
      max_loss_limit_trigger: '49500.00',
    });
    h.trade(a, 'buy', 1, '5030.00');
    h.trade(a, 'sell', 1, '5010.00');
    expect(h.item(a), 'a realized -20 x 50 = -1,000: balance 50,500, the peak and trigger stay').toMatchObject({
      balance: '50500.00',
      highest_realized_balance: '51500.00',
      max_loss_limit_trigger: '49500.00',
    });
  });

  it('commissions are part of the balance the peak follows: +1,500 - 2 sides x 2.50 = 51,495', () => {
    const h = riskHarness();
    const a = h.open(
      plan({ max_drawdown_mode: 'realtime_balance', max_drawdown_value: '2000' }, { commission_per_contract: '2.50' }),
    );
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    expect(h.item(a).balance, 'opening fill: 50,000 - 2.50').toBe('49997.50');
    h.trade(a, 'sell', 1, '5030.00');
    expect(h.item(a), '49,997.50 + 1,500 - 2.50 = 51,495; trigger 49,495').toMatchObject({
      balance: '51495.00',
      highest_realized_balance: '51495.00',
      max_loss_limit_trigger: '49495.00',
      realized_day_pnl: '1495.00',
    });
  });
});

describe('docs/risk-rules.md#drawdown-modes realtime_equity: the peak follows equity on marks, unrealized included', () => {
  it('a print at 5020 raises the peak to 51,000 (trigger 49,000); a lower print does not lower it', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'realtime_equity', max_drawdown_value: '2000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    h.tick('5020.00');
    expect(h.item(a), 'equity 50,000 + 20 x 50 = 51,000, all unrealized').toMatchObject({
      balance: '50000.00',
      equity: '51000.00',
      highest_realized_balance: '51000.00',
      max_loss_limit_trigger: '49000.00',
    });
    h.tick('5010.00');
    expect(h.item(a), 'equity 50,500: peak and trigger stay').toMatchObject({
      equity: '50500.00',
      highest_realized_balance: '51000.00',
      max_loss_limit_trigger: '49000.00',
    });
    h.tick('4980.25');
    expect(h.item(a), 'equity 50,000 - 19.75 x 50 = 49,012.50 > 49,000').toMatchObject({
      equity: '49012.50',
      account_status: 'active',
    });
    h.tick('4980.00');
    expect(h.item(a), 'equity 49,000 = the trailing trigger: breach on touch').toMatchObject({
      equity: '49000.00',
      account_status: 'failed',
      lockout_reason: 'max_loss_breach',
    });
  });
});

describe('docs/risk-rules.md#drawdown-modes eod_balance: the peak is the end-of-session equity taken at the 17:00 CT roll', () => {
  it('intraday highs do not count; equity 51,500 at the roll gives trigger 49,500', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'eod_balance', max_drawdown_value: '2000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    h.tick('5060.00');
    expect(h.item(a), 'equity 53,000 intraday: the trigger stays 48,000').toMatchObject({
      equity: '53000.00',
      highest_realized_balance: '50000.00',
      max_loss_limit_trigger: '48000.00',
    });
    h.kernel.dispatch({ type: 'advance', to_ms: ms('2026-03-10T20:59:00Z') });
    h.tick('5030.00');
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE - 1 });
    expect(h.item(a).max_loss_limit_trigger, '16:59:59.999 CDT: no roll yet').toBe('48000.00');
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE });
    expect(
      h.item(a),
      'roll: equity at the close 50,000 + 30 x 50 = 51,500, still open; trigger 51,500 - 2,000',
    ).toMatchObject({
      balance: '50000.00',
      equity: '51500.00',
      highest_realized_balance: '51500.00',
      max_loss_limit_trigger: '49500.00',
    });
  });

  it('a lower close does not lower the EOD peak', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'eod_balance', max_drawdown_value: '2000' }));
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5020.00');
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE });
    expect(h.item(a), 'Tue close: balance 51,000 is the EOD equity').toMatchObject({
      highest_realized_balance: '51000.00',
      max_loss_limit_trigger: '49000.00',
    });
    h.fill(a, 'buy', 1, '5020.00');
    h.fill(a, 'sell', 1, '5010.00');
    h.kernel.dispatch({ type: 'advance', to_ms: ROLL_TUE + 24 * 3600_000 });
    expect(h.item(a), 'Wed close 50,500 < 51,000: unchanged').toMatchObject({
      balance: '50500.00',
      highest_realized_balance: '51000.00',
      max_loss_limit_trigger: '49000.00',
    });
  });
});

describe('docs/risk-rules.md#the-ceiling caps: trigger = min(peak - value, ceiling), ceiling = starting_balance + max_drawdown_limit', () => {
  it('max_drawdown_limit "0" on realtime_balance: after +3,000 the trigger is min(51,000, 50,000) = 50,000', () => {
    const h = riskHarness();
    const a = h.open(
      plan({ max_drawdown_mode: 'realtime_balance', max_drawdown_value: '2000', max_drawdown_limit: '0' }),
    );
    expect(h.item(a), 'the cap fields are present when a trailing mode is capped').toMatchObject({
      max_drawdown_limit: '0.00',
      max_drawdown_lock_ceiling: '50000.00',
      max_loss_limit_trigger: '48000.00',
    });
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5060.00');
    expect(h.item(a), '60 x 50 = 3,000: peak 53,000; trigger frozen at the ceiling').toMatchObject({
      balance: '53000.00',
      highest_realized_balance: '53000.00',
      max_loss_limit_trigger: '50000.00',
    });
  });

  it('max_drawdown_limit "100" on realtime_equity: the trigger trails to 50,100 and freezes there', () => {
    const h = riskHarness();
    const a = h.open(
      plan({ max_drawdown_mode: 'realtime_equity', max_drawdown_value: '2000', max_drawdown_limit: '100' }),
    );
    expect(h.item(a)).toMatchObject({ max_drawdown_limit: '100.00', max_drawdown_lock_ceiling: '50100.00' });
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    h.tick('5020.00');
    expect(h.item(a).max_loss_limit_trigger, 'min(51,000 - 2,000, 50,100)').toBe('49000.00');
    h.tick('5050.00');
    expect(h.item(a).max_loss_limit_trigger, 'min(52,500 - 2,000, 50,100): the ceiling').toBe('50100.00');
    h.tick('5070.00');
    expect(h.item(a), 'equity 53,500: the trigger stays at the ceiling').toMatchObject({
      equity: '53500.00',
      max_loss_limit_trigger: '50100.00',
    });
    h.tick('5002.25');
    expect(h.item(a), 'equity 50,112.50 > 50,100').toMatchObject({ equity: '50112.50', account_status: 'active' });
    h.tick('5002.00');
    expect(h.item(a), 'equity 50,000 + 2 x 50 = 50,100 = the ceiling: breach').toMatchObject({
      equity: '50100.00',
      account_status: 'failed',
      lockout_reason: 'max_loss_breach',
    });
  });

  // The peak is the highest equity on any mark (docs/risk-rules.md#drawdown-modes), also after the capped trigger
  // has stopped moving: prints above the recorded peak still raise it.
  it('realtime_equity capped at 50,100: highest_realized_balance keeps following equity highs after the trigger freezes', () => {
    const h = riskHarness();
    const a = h.open(
      plan({ max_drawdown_mode: 'realtime_equity', max_drawdown_value: '2000', max_drawdown_limit: '100' }),
    );
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    h.tick('5050.00');
    h.tick('5070.00');
    expect(h.item(a), 'equity 50,000 + 70 x 50 = 53,500 is the new peak').toMatchObject({
      equity: '53500.00',
      highest_realized_balance: '53500.00',
      max_loss_limit_trigger: '50100.00',
    });
  });

  it('removing the cap recomputes the trigger from the true peak: 54,000 - 2,000 = 52,000, not from current equity (51,000)', () => {
    const h = riskHarness();
    const a = h.open(
      plan({ max_drawdown_mode: 'realtime_equity', max_drawdown_value: '2000', max_drawdown_limit: '100' }),
    );
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    h.tick('5050.00'); // peak 52,500: trigger min(50,500, 50,100) = 50,100
    h.tick('5080.00'); // equity 54,000: the peak should be 54,000
    h.tick('5060.00'); // equity 53,000
    h.ok('set_max_loss_limit', a, { max_drawdown_limit: null });
    expect(h.item(a).max_loss_limit_trigger, 'uncapped: peak 54,000 - 2,000').toBe('52000.00');
  });

  it('an uncapped trailing mode shows neither max_drawdown_limit nor max_drawdown_lock_ceiling', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'eod_balance', max_drawdown_value: '2000' }));
    expect(h.item(a).max_drawdown_limit).toBeUndefined();
    expect(h.item(a).max_drawdown_lock_ceiling).toBeUndefined();
  });
});
