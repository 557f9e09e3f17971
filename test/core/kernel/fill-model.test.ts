// The fill model (docs/order-lifecycle.md#fill-model), each case with hand-computed prices (ES: tick 0.25, $12.50).
import { describe, expect, it } from 'vitest';
import { harness } from './kernel-harness.js';

describe('docs/order-lifecycle.md#fill-model: market orders', () => {
  it('fill at the next print after arrival, moved slippage_ticks against the order', () => {
    const h = harness({ slippageTicks: 2 });
    const buy = h.place({ side: 'buy', type: 'market', quantity: 1 });
    const sell = h.place({ side: 'sell', type: 'market', quantity: 1 });
    expect(h.order(buy).status, 'POST answers with the order SUBMITTED').toBe('SUBMITTED');
    h.tick('5000.00');
    expect(h.order(buy).average_fill_price, 'buy: 5000.00 + 2 ticks = 5000.50').toBe('5000.50');
    expect(h.order(sell).average_fill_price, 'sell: 5000.00 - 2 ticks = 4999.50').toBe('4999.50');
    expect(h.order(buy).status).toBe('FILLED');
  });

  it('with latency, fill only at prints after arrival', () => {
    const h = harness({ latencyMs: 100 });
    const buy = h.place({ side: 'buy', type: 'market', quantity: 1 });
    h.tick('5000.00', undefined, 50);
    expect(h.order(buy).status, 'the print 50 ms in comes before the order arrives at 100 ms').toBe('SUBMITTED');
    h.tick('5001.00', undefined, 50);
    expect(h.order(buy).average_fill_price, 'arrived at 100 ms; the print at 100 ms comes after it').toBe('5001.00');
  });
});

describe('docs/order-lifecycle.md#fill-model: limit orders', () => {
  it('marketable against the first print after arrival: fill at the print price', () => {
    const h = harness();
    const buy = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '5001.00' });
    h.tick('5000.00');
    expect(h.order(buy).average_fill_price, 'a better price than the limit').toBe('5000.00');
  });

  it('not marketable at first: later fills at the limit price, even on a print through it', () => {
    const h = harness();
    const buy = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '4999.00' });
    h.tick('5000.00');
    expect(h.order(buy).status).toBe('SUBMITTED');
    h.tick('4998.00');
    expect(h.order(buy).average_fill_price, 'the limit, not the print').toBe('4999.00');
  });

  it('touch fills on a print at the limit; through needs a print strictly below', () => {
    const touch = harness();
    const a = touch.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '4999.00' });
    touch.tick('5000.00');
    touch.tick('4999.00');
    expect(touch.order(a).status).toBe('FILLED');

    const through = harness({ limitFill: 'through' });
    const b = through.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '4999.00' });
    through.tick('5000.00');
    through.tick('4999.00');
    expect(through.order(b).status, 'a print at the limit does not fill under through').toBe('SUBMITTED');
    through.tick('4998.75');
    expect(through.order(b).average_fill_price).toBe('4999.00');
  });

  it('sell limits mirror buys', () => {
    const h = harness();
    const first = h.place({ side: 'sell', type: 'limit', quantity: 1, limit_price: '4999.00' });
    const later = h.place({ side: 'sell', type: 'limit', quantity: 1, limit_price: '5002.00' });
    h.tick('5000.00');
    expect(h.order(first).average_fill_price, 'marketable at first print: the print price').toBe('5000.00');
    h.tick('5003.00');
    expect(h.order(later).average_fill_price, 'later print through the limit: the limit').toBe('5002.00');
  });
});

describe('docs/order-lifecycle.md#fill-model: stops', () => {
  it('a stop triggers at or through its price and fills as a market order at that print with slippage', () => {
    const h = harness({ slippageTicks: 1 });
    const stop = h.place({ side: 'sell', type: 'stop', quantity: 1, stop_price: '4990.00' });
    h.tick('4995.00');
    expect(h.order(stop).status).toBe('SUBMITTED');
    h.tick('4989.00');
    expect(h.order(stop).average_fill_price, 'triggered at 4989.00, sell slipped 1 tick: 4988.75').toBe('4988.75');
  });

  it('a stop-limit becomes a limit: fills when the limit allows, else rests', () => {
    const h = harness();
    const sl = h.place({ side: 'buy', type: 'stop_limit', quantity: 1, stop_price: '5005.00', limit_price: '5006.00' });
    h.tick('5008.00');
    expect(h.order(sl).status, 'triggered at 5008.00 but the limit 5006.00 is below the print').toBe('SUBMITTED');
    h.tick('5005.50');
    expect(h.order(sl).average_fill_price, 'the limit rested from the trigger print: later fills at the limit').toBe(
      '5006.00',
    );
  });

  it('a stop-limit triggered by a print inside its limit fills at that print', () => {
    const h = harness();
    const sl = h.place({ side: 'buy', type: 'stop_limit', quantity: 1, stop_price: '5005.00', limit_price: '5006.00' });
    h.tick('5005.25');
    expect(h.order(sl).average_fill_price).toBe('5005.25');
  });
});

describe('docs/order-lifecycle.md#fill-model: print size', () => {
  it('a sized print fills at most its size, shared by price then arrival; the rest is PARTIALLY_FILLED', () => {
    const h = harness();
    const low = h.place({ side: 'buy', type: 'limit', quantity: 3, limit_price: '5000.00' });
    const high = h.place({ side: 'buy', type: 'limit', quantity: 2, limit_price: '5001.00' });
    const market = h.place({ side: 'buy', type: 'market', quantity: 1 });
    h.tick('4999.00', 4);
    expect(h.order(market).filled_quantity, 'market orders come first').toBe(1);
    expect(h.order(high).filled_quantity, 'then the highest limit').toBe(2);
    expect(h.order(low).filled_quantity, 'one contract of the print is left').toBe(1);
    expect(h.order(low).status).toBe('PARTIALLY_FILLED');
    h.tick('4999.00', 5);
    expect(h.order(low).status).toBe('FILLED');
    expect(h.position()?.netQuantity).toBe(6);
  });

  it('equal prices share by arrival time', () => {
    const h = harness();
    const first = h.place({ side: 'buy', type: 'limit', quantity: 2, limit_price: '5000.00' });
    const second = h.place({ side: 'buy', type: 'limit', quantity: 2, limit_price: '5000.00' });
    h.tick('5001.00');
    h.tick('5000.00', 3);
    expect([h.order(first).filled_quantity, h.order(second).filled_quantity]).toEqual([2, 1]);
  });
});

describe('docs/order-lifecycle.md#fill-model: IOC and FOK', () => {
  it('IOC takes what the first print gives and cancels the rest', () => {
    const h = harness();
    const ioc = h.place({ side: 'buy', type: 'limit', quantity: 5, limit_price: '5000.00', time_in_force: 'ioc' });
    h.tick('5000.00', 3);
    expect(h.order(ioc)).toMatchObject({ status: 'CANCELLED', filled_quantity: 3 });
    expect(h.states(ioc)).toEqual([
      'SUBMITTED:accepted',
      'PARTIALLY_FILLED:filled 3',
      'CANCELLED:ioc_remainder_cancelled',
    ]);
  });

  it('IOC not marketable at its first print is cancelled unfilled', () => {
    const h = harness();
    const ioc = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '4999.00', time_in_force: 'ioc' });
    h.tick('5000.00');
    h.tick('4998.00');
    expect(h.order(ioc)).toMatchObject({ status: 'CANCELLED', filled_quantity: 0 });
  });

  it('FOK fills all or nothing', () => {
    const h = harness();
    const short = h.place({ side: 'buy', type: 'market', quantity: 5, time_in_force: 'fok' });
    h.tick('5000.00', 3);
    expect(h.order(short)).toMatchObject({ status: 'CANCELLED', filled_quantity: 0 });
    const whole = h.place({ side: 'buy', type: 'market', quantity: 3, time_in_force: 'fok' });
    h.tick('5000.00', 3);
    expect(h.order(whole)).toMatchObject({ status: 'FILLED', filled_quantity: 3 });
  });
});
