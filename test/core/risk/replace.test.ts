// Replace through the kernel (docs/risk-rules.md#replace): the original flattened, closed and its orders cancelled; a
// fresh account minted from the template and overlays, linked both ways to the original.
// ES = $50 a point. Plans start at 50,000.
import { describe, expect, it } from 'vitest';
import { plan, riskHarness, testPlan } from './risk-harness.js';

describe('docs/risk-rules.md#replace: the original is flattened and closed; a fresh account from the same template', () => {
  it('original closed (account_replaced) and flat at the next print; the new account starts fresh', () => {
    const h = riskHarness();
    const a = h.open(
      plan({ max_drawdown_mode: 'realtime_balance', max_drawdown_value: '2000', daily_loss_value: '1000' }),
      'zed',
    );
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5020.00');
    h.fill(a, 'buy', 1, '5020.00'); // realized +1,000, still long 1
    const outcome = h.kernel.dispatch({ type: 'replace_account', account_id: a });
    expect(outcome.status).toBe(201);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.body));
    const body = outcome.body;
    expect(body.original_account_id).toBe(a);
    expect(body.account_id, 'a new account id').not.toBe(a);
    expect(h.item(a), 'closed, locked account_replaced').toMatchObject({
      account_status: 'closed',
      is_locked: true,
      lockout_reason: 'account_replaced',
    });
    h.tick('5010.00');
    expect(h.net(a), 'the original is flat after the next print').toBe(0);
    expect(h.item(a).balance, '51,000 - 10 x 50 = 50,500').toBe('50500.00');
    expect(h.item(body.account_id), 'fresh: the template’s numbers').toMatchObject({
      account_status: 'active',
      is_locked: false,
      balance: '50000.00',
      highest_realized_balance: '50000.00',
      max_loss_limit_trigger: '48000.00',
      daily_loss_limit_trigger: '49000.00',
      realized_day_pnl: '0.00',
      realized_week_pnl: '0.00',
      max_drawdown_mode: 'realtime_balance',
    });
    expect(h.kernel.read.riskState({}, body.account_id).status, 'the new account loads like a created one').toBe(503);
    expect(
      h.kernel.dispatch({ type: 'replace_account', account_id: a }).status,
      'replacing a closed account: 409',
    ).toBe(409);
  });

  it('the replacement is minted from the template and overlays, not from the original’s later max-loss change', () => {
    const h = riskHarness();
    const firm = h.kernel.dispatch({
      type: 'register_firm',
      slug: 'acme',
      plans: {
        'eval-50k': testPlan({ risk_profile: { max_drawdown_mode: 'eod_balance', max_drawdown_value: '2000' } }),
      },
    });
    const firmId = firm.ok ? firm.body.firm_id : '';
    const created = h.kernel.dispatch({
      type: 'provision_accounts',
      firm_id: firmId,
      body: {
        plan_reference: 'eval-50k',
        user: { email: 'z@example.com' },
        risk_profile: { max_drawdown_value: '2500' },
        price_paid: '99.00',
      },
    });
    const a = created.ok ? (created.body.account_ids as string[])[0]! : '';
    h.ok('set_max_loss_limit', a, { max_drawdown_limit: '0' });
    const outcome = h.kernel.dispatch({ type: 'replace_account', account_id: a });
    const id = outcome.ok ? (outcome.body.account_id as string) : '';
    expect(h.item(id), 'overlay kept: 50,000 - 2,500; no cap').toMatchObject({
      max_drawdown_value: '2500.00',
      max_loss_limit_trigger: '47500.00',
    });
    expect(h.item(id).max_drawdown_limit).toBeUndefined();
    const listed = h.kernel.read.accounts({ firmId }, {}, {});
    const records: Array<Record<string, unknown>> = listed.ok ? listed.body.items : [];
    expect(
      records.map((r) => [r.account_id, r.price_paid, r.replaced_by_account_id ?? null, r.replaces_account_id ?? null]),
      'linked both ways; the replacement paid 0',
    ).toEqual([
      [a, '99.00', id, null],
      [id, '0.00', null, a],
    ]);
  });

  it('replace cancels the original’s working orders', () => {
    const h = riskHarness();
    const a = h.open();
    h.tick('5000.00');
    const working = h.place(a, {
      side: 'buy',
      quantity: 1,
      type: 'limit',
      limit_price: '4990.00',
      time_in_force: 'gtc',
    });
    h.kernel.dispatch({ type: 'replace_account', account_id: a });
    expect(h.order(working).status).toBe('CANCELLED');
  });
});
