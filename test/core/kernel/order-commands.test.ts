// Order commands through the kernel (docs/order-lifecycle.md#what-causes-each-event): 202 then REJECTED refusals,
// cancel/modify races with latency, DELETE outcomes, OCO, DAY expiry at 16:00 CT and GTC.
import { describe, expect, it } from 'vitest';
import { harness, T0 } from './kernel-harness.js';

describe('docs/order-lifecycle.md#placement-and-arrival: refusals after acceptance end REJECTED with {code, message}', () => {
  it.each([
    [{ instrument_id: 'XXM6', side: 'buy', type: 'market', quantity: 1 }, 'unknown_instrument'],
    [{ side: 'buy', type: 'limit', quantity: 1, limit_price: '5000.10' }, 'invalid_price'],
    [{ side: 'buy', type: 'stop', quantity: 1, stop_price: '5000.00', time_in_force: 'ioc' }, 'invalid_order'],
  ])('%j -> %s', (fields, code) => {
    const h = harness();
    const placed = h.kernel.dispatch({
      type: 'place_order',
      body: { account_id: h.accountId, instrument_id: 'ESM6', ...fields },
    });
    const body = placed.body as Record<string, unknown>;
    expect([placed.status, body.status], 'accepted first: 202 with the order SUBMITTED').toEqual([202, 'SUBMITTED']);
    const id = body.order_id as string;
    expect(h.order(id)).toMatchObject({ status: 'REJECTED', error: { code } });
    expect(h.states(id)[0]).toBe('SUBMITTED:accepted');
  });

  it('market_closed: an order reaching the venue in the 16:00-17:00 CT halt', () => {
    const h = harness();
    h.kernel.dispatch({ type: 'advance', to_ms: Date.parse('2026-03-10T21:30:00Z') }); // 16:30 CDT
    const id = h.place({ side: 'buy', type: 'market', quantity: 1 });
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs });
    expect(h.order(id)).toMatchObject({ status: 'REJECTED', error: { code: 'market_closed' } });
  });

  it('malformed input is refused up front with 400 and creates nothing', () => {
    const h = harness();
    for (const body of [
      { account_id: h.accountId, instrument_id: 'ESM6', side: 'buy', type: 'limit', quantity: 1 },
      { account_id: h.accountId, instrument_id: 'ESM6', side: 'buy', type: 'market', quantity: 0 },
      { account_id: h.accountId, instrument_id: 'ESM6', side: 'buy', type: 'limit', quantity: 1, limit_price: 5000 },
      { account_id: h.accountId, instrument_id: 'ESM6', side: 'buy', type: 'market', quantity: 1, colour: 'red' },
    ]) {
      const outcome = h.kernel.dispatch({ type: 'place_order', body: body });
      expect(outcome.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      h.kernel.dispatch({
        type: 'place_order',
        body: {
          account_id: '00000000-0000-4000-8000-000000000000',
          instrument_id: 'ESM6',
          side: 'buy',
          type: 'market',
          quantity: 1,
        },
      }).status,
    ).toBe(404);
    expect(h.kernel.internals().desk.orderList.length).toBe(0);
  });
});

describe('docs/order-lifecycle.md#cancel', () => {
  it('travels with latency; a fill that arrives first wins (FILLED)', () => {
    const h = harness({ latencyMs: 0, cancelLatencyMs: 100 });
    const id = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '5000.00' });
    h.tick('5001.00');
    expect(h.kernel.dispatch({ type: 'cancel_order', order_id: id }).status, 'cancel accepted while working').toBe(202);
    h.tick('5000.00', undefined, 50);
    expect(h.order(id).status, 'the print at +50 ms fills before the cancel lands at +100 ms').toBe('FILLED');
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 100 });
    expect(h.states(id)).toEqual(['SUBMITTED:accepted', 'FILLED:filled 1']);
  });

  it('lands when no fill comes first; DELETE again answers 200 unchanged', () => {
    const h = harness({ cancelLatencyMs: 100 });
    const id = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '4990.00' });
    h.kernel.dispatch({ type: 'cancel_order', order_id: id });
    h.tick('5000.00', undefined, 100);
    expect(h.order(id).status).toBe('CANCELLED');
    const again = h.kernel.dispatch({ type: 'cancel_order', order_id: id });
    expect([again.status, again.ok && again.body.status]).toEqual([200, 'CANCELLED']);
  });

  it('answers 409 on FILLED, REJECTED or EXPIRED and 404 on an unknown order', () => {
    const h = harness();
    const filled = h.place({ side: 'buy', type: 'market', quantity: 1 });
    const rejected = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '1.11' });
    h.tick('5000.00');
    expect(h.kernel.dispatch({ type: 'cancel_order', order_id: filled }).status).toBe(409);
    expect(h.kernel.dispatch({ type: 'cancel_order', order_id: rejected }).status).toBe(409);
    expect(h.kernel.dispatch({ type: 'modify_order', order_id: filled, body: { quantity: 2 } }).status).toBe(409);
    expect(h.kernel.dispatch({ type: 'cancel_order', order_id: '00000000-0000-4000-8000-000000000000' }).status).toBe(
      404,
    );
  });
});

describe('docs/order-lifecycle.md#modify', () => {
  it('a venue-rejected modify keeps the order parameters, with a reason', () => {
    const h = harness();
    const id = h.place({ side: 'buy', type: 'limit', quantity: 3, limit_price: '4990.00' });
    h.tick('5000.00');
    expect(
      h.kernel.dispatch({ type: 'modify_order', order_id: id, body: { limit_price: '4990.10' } }).status,
      'off-grid is the venue’s call, not a 400',
    ).toBe(202);
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs });
    expect(h.order(id)).toMatchObject({ status: 'SUBMITTED', limit_price: '4990.00' });
    expect(h.states(id).at(-1)).toBe('SUBMITTED:modify rejected: limit_price: 4990.1 is not on the tick grid of 0.25');
  });

  it('rejects a stop moved through the market and a quantity not above the filled amount', () => {
    const h = harness();
    const stop = h.place({ side: 'sell', type: 'stop', quantity: 1, stop_price: '4990.00' });
    const limit = h.place({ side: 'buy', type: 'limit', quantity: 3, limit_price: '5000.00' });
    h.tick('5000.00', 2);
    h.kernel.dispatch({ type: 'modify_order', order_id: stop, body: { stop_price: '5000.00' } });
    h.kernel.dispatch({ type: 'modify_order', order_id: limit, body: { quantity: 2 } });
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs });
    expect(h.states(stop).at(-1)).toBe(
      'SUBMITTED:modify rejected: stop_price 5000.00 is at or through the market (last print 5000.00)',
    );
    expect(h.states(limit).at(-1)).toBe(
      'PARTIALLY_FILLED:modify rejected: quantity 2 is not above the filled quantity 2',
    );
    expect(h.order(limit).quantity).toBe(3);
  });

  it('an accepted modify moves the order to its new price', () => {
    const h = harness();
    const id = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '4990.00' });
    h.tick('5000.00');
    h.kernel.dispatch({ type: 'modify_order', order_id: id, body: { limit_price: '4999.50' } });
    h.tick('4999.75');
    expect(h.order(id).status, '4999.75 is above the new limit').toBe('SUBMITTED');
    h.tick('4999.50');
    expect(h.order(id)).toMatchObject({ status: 'FILLED', average_fill_price: '4999.50', limit_price: '4999.50' });
  });

  it('a fill that beats an in-flight modify leaves the modify dropped, the order FILLED', () => {
    const h = harness({ modifyLatencyMs: 100 });
    const id = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '5000.00' });
    h.tick('5001.00');
    h.kernel.dispatch({ type: 'modify_order', order_id: id, body: { limit_price: '4995.00' } });
    h.tick('5000.00', undefined, 10);
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 100 });
    expect(h.order(id)).toMatchObject({ status: 'FILLED', limit_price: '5000.00' });
  });
});

describe('docs/order-lifecycle.md#oco', () => {
  it('a fill of one member, even partial, cancels the others (oco_sibling_filled)', () => {
    const h = harness();
    const target = h.place({ side: 'sell', type: 'limit', quantity: 2, limit_price: '5010.00', time_in_force: 'gtc' });
    const stop = h.place({ side: 'sell', type: 'stop', quantity: 2, stop_price: '4990.00', time_in_force: 'gtc' });
    const link = h.kernel.dispatch({ type: 'link_oco', body: { order_ids: [target, stop] } });
    expect(link.status).toBe(201);
    h.tick('5000.00');
    h.tick('5010.00', 1);
    expect(h.order(target)).toMatchObject({ status: 'PARTIALLY_FILLED', filled_quantity: 1 });
    expect(h.order(stop).status).toBe('CANCELLED');
    expect(h.states(stop).at(-1)).toBe('CANCELLED:oco_sibling_filled');
  });

  it('a group across instruments: the ES fill cancels the NQ member, and later NQ prints never fill it', () => {
    const h = harness();
    const es = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '5000.00', time_in_force: 'gtc' });
    const nq = h.place({
      side: 'buy',
      type: 'limit',
      quantity: 1,
      limit_price: '18000.00',
      time_in_force: 'gtc',
      instrument_id: 'NQM6',
    });
    expect(h.kernel.dispatch({ type: 'link_oco', body: { order_ids: [es, nq] } }).status).toBe(201);
    h.tick('5000.00');
    expect(h.order(es).status, 'the ES limit is touched').toBe('FILLED');
    expect(h.states(nq).at(-1), 'the NQ sibling is cancelled by the ES fill').toBe('CANCELLED:oco_sibling_filled');
    h.kernel.dispatch({ type: 'tick', instrument_id: 'NQM6', price: '17990.00' });
    expect(h.order(nq), 'a cancelled order never fills').toMatchObject({ status: 'CANCELLED', filled_quantity: 0 });
    expect(
      h.kernel.internals().positions.position(h.accountId, 'NQM6')?.netQuantity ?? 0,
      'no NQ position without an order behind it',
    ).toBe(0);
    expect(h.kernel.internals().desk.bookOf('NQM6').workingCount, 'the NQ book holds nothing').toBe(0);
  });

  it('the venue and the order machine agree: an event the lifecycle does not take fails loudly, never silently', () => {
    const h = harness();
    const id = h.place({ side: 'buy', type: 'limit', quantity: 2, limit_price: '4990.00' });
    const order = h.kernel.internals().desk.find(id)!;
    const overfill = { type: 'FILL', quantity: 3, occurredAtMs: h.kernel.nowMs } as const;
    expect(() => h.kernel.internals().desk.send(order, overfill), 'no transition fills 3 of 2').toThrow(
      /does not take FILL/,
    );
    expect(h.order(id), 'the refused event changed nothing').toMatchObject({ status: 'SUBMITTED', filled_quantity: 0 });
    expect(h.kernel.dispatch({ type: 'cancel_order', order_id: id }).status).toBe(202);
    expect(
      () => h.kernel.internals().desk.send(order, { type: 'FILL', quantity: 1, occurredAtMs: h.kernel.nowMs }),
      'a CANCELLED order takes nothing',
    ).toThrow(/is CANCELLED/);
  });

  it('companion joins a group; link refuses terminal orders (409), grouped ones (409), unknown ones (404)', () => {
    const h = harness();
    const a = h.place({ side: 'sell', type: 'limit', quantity: 1, limit_price: '5010.00' });
    const b = h.place({ side: 'sell', type: 'limit', quantity: 1, limit_price: '5020.00' });
    const c = h.place({ side: 'sell', type: 'stop', quantity: 1, stop_price: '4990.00' });
    const filled = h.place({ side: 'buy', type: 'market', quantity: 1 });
    h.tick('5000.00');
    const link = h.kernel.dispatch({ type: 'link_oco', body: { order_ids: [a, b] } });
    const groupId = link.ok ? link.body.oco_group_id : '';
    expect(h.kernel.dispatch({ type: 'add_oco_companion', body: { oco_group_id: groupId, order_id: c } }).status).toBe(
      200,
    );
    expect(h.kernel.dispatch({ type: 'link_oco', body: { order_ids: [a, c] } }).status).toBe(409);
    expect(h.kernel.dispatch({ type: 'link_oco', body: { order_ids: [filled, c] } }).status).toBe(409);
    expect(
      h.kernel.dispatch({ type: 'link_oco', body: { order_ids: [a, '00000000-0000-4000-8000-000000000000'] } }).status,
    ).toBe(404);
    expect(
      h.kernel.dispatch({
        type: 'add_oco_companion',
        body: { oco_group_id: '00000000-0000-4000-8000-000000000000', order_id: filled },
      }).status,
    ).toBe(404);
    h.tick('4989.00');
    expect([h.order(a).status, h.order(b).status, h.order(c).status]).toEqual(['CANCELLED', 'CANCELLED', 'FILLED']);
  });
});

describe('docs/order-lifecycle.md#expiry-and-gtc: time in force', () => {
  it('DAY orders EXPIRE at the close of their trade date: 16:00 CDT = 21:00Z on 2026-03-10', () => {
    const h = harness();
    const day = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '4900.00' });
    const gtc = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '4900.00', time_in_force: 'gtc' });
    h.kernel.dispatch({ type: 'advance', to_ms: Date.parse('2026-03-10T20:59:59.999Z') });
    expect(h.order(day).status, 'the last ms of the session').toBe('SUBMITTED');
    h.kernel.dispatch({ type: 'advance', to_ms: Date.parse('2026-03-10T21:00:00Z') });
    expect(h.order(day)).toMatchObject({ status: 'EXPIRED', updated_at: Date.parse('2026-03-10T21:00:00Z') });
    h.kernel.dispatch({ type: 'advance', to_ms: Date.parse('2026-03-11T15:00:00Z') });
    expect(h.order(gtc).status, 'GTC lives on across the roll').toBe('SUBMITTED');
    h.tick('4900.00');
    expect(h.order(gtc).status).toBe('FILLED');
  });

  it('a DAY order placed after the 17:00 roll belongs to the next trade date', () => {
    const h = harness();
    h.kernel.dispatch({ type: 'advance', to_ms: Date.parse('2026-03-10T22:30:00Z') }); // 17:30 CDT: trade date 2026-03-11
    const id = h.place({ side: 'buy', type: 'limit', quantity: 1, limit_price: '4900.00' });
    h.kernel.dispatch({ type: 'advance', to_ms: Date.parse('2026-03-11T20:59:59Z') });
    expect(h.order(id).status).toBe('SUBMITTED');
    h.kernel.dispatch({ type: 'advance', to_ms: Date.parse('2026-03-11T21:00:00Z') });
    expect(h.order(id).status).toBe('EXPIRED');
    expect(T0).toBeLessThan(h.kernel.nowMs);
  });
});
