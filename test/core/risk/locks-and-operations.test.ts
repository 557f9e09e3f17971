// Firm lockout and unlock through the kernel (docs/risk-rules.md#lockout-and-unlock): the lock and its precedence
// under other locks, the risk engine's reload window after an unlock, and the risk engine's orders, which a client
// cannot cancel, modify or link. Flatten, cash adjust, max-loss-limit changes and replace have files of their own.
// ES = $50 a point. T0 = Tue 2026-03-10 09:00 CDT.
import { describe, expect, it } from 'vitest';
import { plan, riskHarness } from './risk-harness.js';

const STATIC_DAILY = { max_drawdown_mode: 'static', max_drawdown_value: '2000', daily_loss_value: '1000' };

describe('docs/risk-rules.md#lockout-and-unlock lockout: POST adds firm_lockout; again answers 200 unchanged', () => {
  it('locks order entry; a second POST changes nothing', () => {
    const h = riskHarness();
    const a = h.open();
    const locked = h.events('accounts.locked');
    const first = h.control('lockout', a, { reason_code: 'review' });
    expect(first.status).toBe(200);
    expect(first.body, 'the risk-state item').toMatchObject({
      account_id: a,
      is_locked: true,
      lockout_reason: 'firm_lockout',
      account_status: 'active',
    });
    expect(locked, 'the lock was added: one event').toHaveLength(1);
    const again = h.control('lockout', a, { reason_code: 'review' });
    expect(again.status, 'again: 200, same lock').toBe(200);
    expect(again.body).toEqual(first.body);
    expect(locked, 'nothing changed: no second lock event').toHaveLength(1);
    expect(h.kernel.internals().accounts.get(a).locks).toEqual(['firm_lockout']);
    h.tick('5000.00');
    const id = h.place(a, { side: 'buy', quantity: 1 });
    expect(h.order(id)).toMatchObject({ status: 'REJECTED', error: { code: 'account_locked' } });
  });

  it('lockout with flatten: true cancels and closes, answering the counts; the account ends flat', () => {
    const h = riskHarness();
    const a = h.open();
    h.tick('5000.00');
    h.trade(a, 'buy', 2, '5000.00');
    const body = h.ok('lockout', a, { reason_code: 'review', flatten: true });
    expect(body).toMatchObject({ is_locked: true, lockout_reason: 'firm_lockout' });
    expect(h.ordersOf(a, 'risk'), 'one position closed by one market order').toHaveLength(1);
    h.tick('5001.00');
    expect(h.net(a)).toBe(0);
    expect(h.item(a), '+1 x 2 x 50 = +100').toMatchObject({ balance: '50100.00' });
  });
});

describe('risk orders are not the client’s: DELETE, PATCH and OCO link answer 409 risk_order; flattening ends flat', () => {
  const riskOrderOf = (h: ReturnType<typeof riskHarness>, a: string) =>
    h.kernel
      .internals()
      .desk.workingOrdersOf(a)
      .find((o) => o.origin === 'risk')!;

  it('after lockout with flatten, a client cancel, modify or link of the closing order changes nothing', () => {
    const h = riskHarness({ fillModel: { latencyMs: 50, cancelLatencyMs: 50 } });
    const a = h.open();
    h.tick('5000.00');
    h.place(a, { side: 'buy', quantity: 1 });
    h.tick('5000.00', { afterMs: 50 });
    const other = h.place(a, { side: 'buy', type: 'limit', quantity: 1, limit_price: '4900.00', time_in_force: 'gtc' });
    h.ok('lockout', a, { reason_code: 'review', flatten: true });
    const closing = riskOrderOf(h, a);
    expect(h.order(closing.id), 'the closing order is listed as the risk engine’s').toMatchObject({
      origin: 'risk',
      side: 'sell',
      quantity: 1,
    });
    const cancel = h.kernel.dispatch({ type: 'cancel_order', order_id: closing.id });
    expect([cancel.status, !cancel.ok && cancel.body.code], 'DELETE').toEqual([409, 'risk_order']);
    const modify = h.kernel.dispatch({ type: 'modify_order', order_id: closing.id, body: { quantity: 2 } });
    expect([modify.status, !modify.ok && modify.body.code], 'PATCH').toEqual([409, 'risk_order']);
    const link = h.kernel.dispatch({ type: 'link_oco', body: { order_ids: [closing.id, other] } });
    expect([link.status, !link.ok && link.body.code], 'a risk order joins no OCO group').toEqual([409, 'risk_order']);
    h.tick('4990.00', { afterMs: 50 });
    expect(h.net(a), 'long 1 closed at 4990.00 by the untouched closing order').toBe(0);
    expect(h.order(closing.id).status).toBe('FILLED');
    expect(h.item(a), '-10 points x $50 = -500').toMatchObject({ balance: '49500.00', is_locked: true });
  });

  it('after a max-loss breach the client cannot cancel the flatten order; the account ends flat', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '500' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    h.tick('4990.00');
    expect(h.item(a), '-10 x $50 = -500 touches the 49,500 floor').toMatchObject({
      account_status: 'failed',
      lockout_reason: 'max_loss_breach',
    });
    const closing = riskOrderOf(h, a);
    expect(
      h.kernel.dispatch({ type: 'cancel_order', order_id: closing.id }).status,
      'DELETE on the flatten order',
    ).toBe(409);
    h.tick('4989.00');
    expect(h.net(a), 'flat at the next print').toBe(0);
    expect(h.kernel.internals().desk.workingOrdersOf(a), 'no closing order left working').toEqual([]);
  });
});

describe('docs/risk-rules.md#lockout-and-unlock unlock: DELETE removes only firm_lockout (409 when none); other locks stay', () => {
  it('daily_loss_breach outranks firm_lockout; unlock leaves the daily lock; a second unlock answers 409', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC_DAILY));
    h.ok('lockout', a, {});
    h.ok('set_daily_loss_trigger', a, { reason_code: 'ops', daily_loss_limit_trigger: '50000' });
    expect(h.item(a).lockout_reason, 'max_loss > daily_loss > firm_lockout').toBe('daily_loss_breach');
    const unlock = h.control('unlock', a);
    expect(unlock.status).toBe(200);
    expect(unlock.body).toMatchObject({
      account_id: a,
      is_locked: true,
      lockout_reason: 'daily_loss_breach',
      account_status: 'active',
    });
    expect(h.kernel.internals().accounts.get(a).locks).toEqual(['daily_loss_breach']);
    const again = h.control('unlock', a);
    expect([again.status, !again.ok && again.body.code]).toEqual([409, 'not_firm_locked']);
  });

  it('409 on an account that was never locked', () => {
    const h = riskHarness();
    const a = h.open();
    expect(h.control('unlock', a).status).toBe(409);
  });

  it('a failed account stays failed and max-loss locked after its firm lock is removed', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '4960.00'); // -2,000: failed
    h.ok('lockout', a, {});
    expect(h.ok('unlock', a)).toMatchObject({
      account_id: a,
      is_locked: true,
      lockout_reason: 'max_loss_breach',
      account_status: 'failed',
    });
  });

  it('after an unlock the risk-state read answers 503 for 250 ms, then 200', () => {
    const h = riskHarness();
    const a = h.open();
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 250 });
    expect(h.kernel.read.riskState({}, a).status, 'loaded after create').toBe(200);
    h.ok('lockout', a, {});
    expect(h.kernel.read.riskState({}, a).status, 'a lockout does not reload').toBe(200);
    h.ok('unlock', a);
    expect(h.kernel.read.riskState({}, a).status, 'reloading').toBe(503);
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 249 });
    expect(h.kernel.read.riskState({}, a).status).toBe(503);
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 1 });
    expect(h.kernel.read.riskState({}, a).status).toBe(200);
  });

  it('an unlock during the create window restarts it: 503 until unlock + 250 ms', () => {
    const h = riskHarness();
    const a = h.open();
    h.ok('lockout', a, {});
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 100 });
    h.ok('unlock', a);
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 150 });
    expect(h.kernel.read.riskState({}, a).status, 'create + 250 ms, but unlock + 150 ms').toBe(503);
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 100 });
    expect(h.kernel.read.riskState({}, a).status, 'unlock + 250 ms').toBe(200);
  });
});
