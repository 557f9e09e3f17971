// docs/risk-rules.md#breach-on-touch through the kernel: touching the max-loss floor breaches it, max-loss precedence,
// and what a breach does (docs/risk-rules.md#what-a-breach-does: cancel, flatten through the venue, REJECT new orders).
// ES = $50 a point. Every plan starts at 50,000 with a $2,000 allowance unless said otherwise.
import { describe, expect, it } from 'vitest';
import { plan, riskHarness } from './risk-harness.js';

describe('docs/risk-rules.md#breach-on-touch: touching the floor breaches it ("≤")', () => {
  it('static: equity 48,025 stays active; equity exactly 48,000 fails the account', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 2, '5000.00');
    h.tick('4980.25');
    expect(h.item(a), '50,000 - 19.75 x 2 x 50 = 48,025').toMatchObject({
      equity: '48025.00',
      account_status: 'active',
      is_locked: false,
    });
    h.tick('4980.00');
    expect(h.item(a), '50,000 - 20 x 2 x 50 = 48,000 = trigger').toMatchObject({
      equity: '48000.00',
      account_status: 'failed',
      is_locked: true,
      lockout_reason: 'max_loss_breach',
    });
  });

  it('docs/risk-rules.md#max-loss-wins: when one mark crosses both floors the max-loss breach wins', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000', daily_loss_value: '1000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 2, '5000.00');
    h.tick('4979.00');
    expect(h.item(a), 'equity 47,900: below the daily 49,000 and the max-loss 48,000').toMatchObject({
      equity: '47900.00',
      account_status: 'failed',
      lockout_reason: 'max_loss_breach',
    });
    expect(h.kernel.internals().accounts.get(a).locks, 'one breach, the max-loss one').toEqual(['max_loss_breach']);
  });

  it('a commission that takes balance to the trigger on a closing fill breaches (the flat account is checked too)', () => {
    const h = riskHarness();
    const a = h.open(
      plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }, { commission_per_contract: '25.00' }),
    );
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '4961.00');
    expect(h.item(a), '50,000 - 25 - 39 x 50 (1,950) - 25 = 48,000: flat, touching the trigger').toMatchObject({
      balance: '48000.00',
      account_status: 'failed',
    });
  });
});

describe('docs/risk-rules.md#what-a-breach-does: positions flattened by market orders through the venue', () => {
  it('the flatten order is sent at the breaching mark and fills at the next print; the account ends flat', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 2, '5000.00');
    h.tick('4980.00');
    const flatten = h.ordersOf(a, 'risk');
    expect(
      flatten.map((o) => [o.side, o.type, o.quantity, o.status]),
      'one offsetting market order, working',
    ).toEqual([['sell', 'market', 2, 'SUBMITTED']]);
    expect(h.net(a), 'orders sent because of a mark meet the next print at the earliest').toBe(2);
    h.tick('4979.00');
    expect(h.net(a), 'flat after the next print').toBe(0);
    expect(flatten[0]!.status).toBe('FILLED');
    expect(h.item(a), 'realized -21 x 2 x 50 = -2,100: balance 47,900 = equity').toMatchObject({
      balance: '47900.00',
      equity: '47900.00',
      account_status: 'failed',
    });
  });

  it('a failed account’s new orders end REJECTED (account_failed)', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 2, '5000.00');
    h.tick('4980.00');
    h.tick('4980.00');
    const id = h.place(a, { side: 'buy', quantity: 1 });
    expect(h.order(id), 'accepted with 202, refused at the venue').toMatchObject({
      status: 'REJECTED',
      error: { code: 'account_failed' },
    });
    h.tick('4990.00');
    expect(h.net(a)).toBe(0);
  });

  // A flatten order partly filled is still working: the risk engine sends nothing more for the remainder, so the
  // account never goes short on the way to flat.
  it('a partly filled flatten order is not doubled: the account is flat without going short', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 3, '5000.00');
    h.tick('4986.50');
    expect(h.item(a).account_status, '50,000 - 13.5 x 3 x 50 = 47,975 ≤ 48,000').toBe('failed');
    h.tick('4986.00', { size: 1 });
    expect(h.net(a), 'one of three sold').toBe(2);
    h.tick('4986.00');
    expect(h.net(a), 'the rest sold at the next print: flat').toBe(0);
    expect(
      h.ordersOf(a, 'risk').map((o) => o.quantity),
      'one flatten order of 3',
    ).toEqual([3]);
  });
});

describe('docs/risk-rules.md#what-a-breach-does: every working order is CANCELLED', () => {
  it('working client orders are CANCELLED by a max-loss breach', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 2, '5000.00');
    const stopLoss = h.place(a, {
      side: 'sell',
      quantity: 2,
      type: 'stop',
      stop_price: '4950.00',
      time_in_force: 'gtc',
    });
    const addOn = h.place(a, { side: 'buy', quantity: 1, type: 'limit', limit_price: '4970.00', time_in_force: 'gtc' });
    h.tick('4980.00');
    expect(h.item(a).account_status).toBe('failed');
    expect([h.order(stopLoss).status, h.order(addOn).status], 'both cancelled at the breach').toEqual([
      'CANCELLED',
      'CANCELLED',
    ]);
  });

  it('a client order left working on a failed account fills later and re-opens a position that is never flattened', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 2, '5000.00');
    h.place(a, { side: 'buy', quantity: 1, type: 'limit', limit_price: '4970.00', time_in_force: 'gtc' });
    h.tick('4980.00'); // breach: failed, flatten sell 2 sent
    h.tick('4979.00'); // flatten fills: flat
    h.tick('4970.00'); // the left-over buy limit fills
    expect(h.net(a), 'a failed account holds nothing').toBe(0);
  });
});

describe('docs/risk-rules.md#what-a-breach-does: a max-loss breach while the daily-loss flatten is still travelling', () => {
  // A flatten counts the risk orders already working. With latency 100 ms, a daily-loss breach sends sell 2; a print
  // 10 ms later (before it reaches the venue) crosses the max-loss floor: the sell 2 on its way already closes the
  // position, so no second one is sent.
  it('the account is flattened once (sell 2 in all), never short', () => {
    const h = riskHarness({ fillModel: { latencyMs: 100 } });
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000', daily_loss_value: '1000' }));
    h.tick('5000.00');
    const entry = h.place(a, { side: 'buy', quantity: 2 });
    h.tick('5000.00', { afterMs: 100 });
    expect(h.order(entry).status).toBe('FILLED');
    h.tick('4990.00', { afterMs: 10 }); // equity 49,000 = daily trigger: daily_loss_breach, sell 2 in flight
    h.tick('4980.00', { afterMs: 10 }); // equity 48,000 = max-loss trigger: failed
    expect(h.item(a).account_status).toBe('failed');
    h.tick('4979.00', { afterMs: 200 });
    expect(h.net(a), 'flat after the first print the flatten meets').toBe(0);
    expect(
      h.ordersOf(a, 'risk').reduce((n, o) => n + o.quantity, 0),
      'sell 2, once',
    ).toBe(2);
  });
});
