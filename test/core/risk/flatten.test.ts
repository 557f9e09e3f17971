// Flatten and cancel-all through the kernel (docs/risk-rules.md#flatten): working orders cancelled and counted,
// offsetting market orders per position, a second flatten not doubled, and flatten orders refused in the daily halt.
// ES = $50 a point, NQ = $20 a point. T0 = Tue 2026-03-10 09:00 CDT; the halt is 16:00-17:00 CDT.
import { describe, expect, it } from 'vitest';
import { plan, riskHarness } from './risk-harness.js';

describe('docs/risk-rules.md#flatten: cancels working orders, then sends offsetting market orders; answers the counts', () => {
  /** Long 1 ES bought at 5000.00 and short 2 NQ sold at the 18000.00 print; no working orders. */
  function longEsShortNq() {
    const h = riskHarness();
    const a = h.open();
    h.tick('5000.00');
    h.tick('18000.00', { symbol: 'NQM6' });
    h.trade(a, 'buy', 1, '5000.00');
    h.place(a, { side: 'sell', quantity: 2, instrument_id: 'NQM6' });
    h.tick('18000.00', { symbol: 'NQM6' });
    return { h, a };
  }

  it('long 1 ES and short 2 NQ: 2 closing orders; flat after the next prints', () => {
    const { h, a } = longEsShortNq();
    expect(h.net(a, 'NQM6')).toBe(-2);
    expect(h.ok('flatten', a), 'no working orders; one order per position').toEqual({
      account_id: a,
      cancelled_orders: 0,
      closed_positions: 2,
    });
    expect(
      h.ordersOf(a, 'risk').map((o) => [o.symbol, o.side, o.quantity]),
      'sell 1 ES, buy 2 NQ',
    ).toEqual([
      ['ESM6', 'sell', 1],
      ['NQM6', 'buy', 2],
    ]);
  });

  // When the ES flatten order fills, the NQ buy 2 is still working and is counted: nothing more is sent for NQ, so
  // the NQ print leaves the account flat rather than long 2.
  it('long 1 ES and short 2 NQ are flat after one print of each', () => {
    const { h, a } = longEsShortNq();
    h.ok('flatten', a);
    h.tick('5002.00');
    h.tick('17990.00', { symbol: 'NQM6' });
    expect([h.net(a), h.net(a, 'NQM6')]).toEqual([0, 0]);
    expect(h.item(a), 'ES +2 x 50 = 100; NQ +10 x 2 x 20 = 400: 50,500').toMatchObject({ balance: '50500.00' });
  });

  it('flatten on a flat account without orders answers 0 and 0', () => {
    const h = riskHarness();
    const a = h.open();
    expect(h.ok('flatten', a)).toEqual({ account_id: a, cancelled_orders: 0, closed_positions: 0 });
  });

  it('flatten cancels a working client order and counts it', () => {
    const h = riskHarness();
    const a = h.open();
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    const working = h.place(a, { side: 'sell', quantity: 1, type: 'limit', limit_price: '5010.00' });
    expect(h.ok('flatten', a)).toEqual({ account_id: a, cancelled_orders: 1, closed_positions: 1 });
    expect(h.order(working).status).toBe('CANCELLED');
  });

  it('cancelAll cancels the working client orders and counts them', () => {
    const h = riskHarness();
    const a = h.open();
    h.tick('5000.00');
    const o1 = h.place(a, { side: 'buy', quantity: 1, type: 'limit', limit_price: '4990.00' });
    const o2 = h.place(a, { side: 'sell', quantity: 1, type: 'limit', limit_price: '5010.00' });
    expect(h.ok('cancel_all_orders', a)).toEqual({ account_id: a, cancelled_orders: 2 });
    expect([h.order(o1).status, h.order(o2).status]).toEqual(['CANCELLED', 'CANCELLED']);
  });

  // A second flatten before the first fills counts the offsetting order already working: long 2 -> flat, never
  // short 2.
  it('a second flatten while the first offsetting order still works does not double it', () => {
    const h = riskHarness();
    const a = h.open();
    h.tick('5000.00');
    h.trade(a, 'buy', 2, '5000.00');
    h.ok('flatten', a);
    h.ok('flatten', a);
    h.tick('5001.00');
    expect(h.net(a), 'flat, not short 2').toBe(0);
  });
});

describe('docs/risk-rules.md#what-a-breach-does: a flatten refused in the daily halt is sent again when the market reopens', () => {
  // A breach (here by a cash adjustment) or a firm flatten in the 16:00-17:00 CT halt cannot reach the venue: the
  // flatten is sent again when the market reopens, so a failed account holds nothing once the market trades.
  it('an account failed in the halt is flattened when the market reopens', () => {
    const h = riskHarness();
    const a = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    h.kernel.dispatch({ type: 'advance', to_ms: Date.parse('2026-03-10T21:30:00Z') }); // 16:30 CDT, halt
    h.ok('adjust_balance', a, { amount: '-2000.00', shift_floors: false }); // balance 48,000 = trigger: failed
    expect(h.item(a).account_status).toBe('failed');
    h.kernel.dispatch({ type: 'advance', to_ms: Date.parse('2026-03-10T22:00:00Z') }); // 17:00 CDT, open
    h.tick('5000.00', { afterMs: 1000 });
    h.tick('5000.00', { afterMs: 1000 });
    expect(h.net(a), 'a failed account holds nothing once the market trades again').toBe(0);
  });
});
