// The risk engine's order gate (docs/risk-rules.md#the-order-gate): refusals found at the venue end an accepted order
// REJECTED with {code, message}: product_disabled (plan enabled_families or firm offerings), position_limit_exceeded
// (position_limits.max_contracts), user_risk_halt, account_locked. T0 = Tue 2026-03-10 09:00 CDT.
import { describe, expect, it } from 'vitest';
import { riskHarness, testPlan } from './risk-harness.js';

function placed(h: ReturnType<typeof riskHarness>, a: string, fields: Record<string, unknown>) {
  const id = h.place(a, fields);
  return h.order(id);
}

describe('order gate: product family disabled → REJECTED product_disabled', () => {
  it('by the plan’s enabled_families: an equity-index-only plan refuses CL (energy), takes ES', () => {
    const h = riskHarness();
    const a = h.open(testPlan({ enabled_families: ['equity_index'] }));
    expect(placed(h, a, { instrument_id: 'CLK6', side: 'buy', quantity: 1 })).toMatchObject({
      status: 'REJECTED',
      error: { code: 'product_disabled' },
    });
    expect(placed(h, a, { side: 'buy', quantity: 1 }).status).toBe('SUBMITTED');
  });

  /** Two firms (offerings are per firm); their ids. */
  const firms = (h: ReturnType<typeof riskHarness>) =>
    ['firm-a', 'firm-b'].map((slug) => {
      const firm = h.kernel.dispatch({ type: 'register_firm', slug, plans: {} });
      if (!firm.ok) throw new Error(JSON.stringify(firm.body));
      return firm.body.firm_id;
    });

  it('a malformed offerings body answers 400', () => {
    const h = riskHarness();
    const [firmA] = firms(h);
    expect(
      h.kernel.dispatch({ type: 'set_offering', firm_id: firmA!, body: { product_family: 'crypto', enabled: false } })
        .status,
    ).toBe(400);
    expect(
      h.kernel.dispatch({
        type: 'set_offering',
        firm_id: firmA!,
        body: { product_family: 'equity_index', enabled: 'no' },
      }).status,
    ).toBe(400);
  });

  it('by the firm’s offerings: equity_index switched off refuses ES for that firm only, until switched on', () => {
    const h = riskHarness();
    const [firmA, firmB] = firms(h);
    const ours = h.kernel.dispatch({ type: 'open_account', plan: testPlan(), firm_id: firmA! });
    const theirs = h.kernel.dispatch({ type: 'open_account', plan: testPlan(), firm_id: firmB! });
    const [a, b] = [ours, theirs].map((o) => (o.ok ? (o.body.account_id as string) : ''));
    const off = h.kernel.dispatch({
      type: 'set_offering',
      firm_id: firmA!,
      body: { product_family: 'equity_index', enabled: false },
    });
    expect(off.status).toBe(200);
    expect(off.ok && off.body.offerings, "the firm's families, equity_index now off").toContainEqual({
      product_family: 'equity_index',
      enabled: false,
    });
    expect(placed(h, a!, { side: 'buy', quantity: 1 })).toMatchObject({
      status: 'REJECTED',
      error: { code: 'product_disabled' },
    });
    expect(placed(h, a!, { instrument_id: 'GCM6', side: 'buy', quantity: 1 }).status, 'metals stay on').toBe(
      'SUBMITTED',
    );
    expect(placed(h, b!, { side: 'buy', quantity: 1 }).status, 'another firm is unaffected').toBe('SUBMITTED');
    h.kernel.dispatch({
      type: 'set_offering',
      firm_id: firmA!,
      body: { product_family: 'equity_index', enabled: true },
    });
    expect(placed(h, a!, { side: 'buy', quantity: 1 }).status).toBe('SUBMITTED');
  });
});

describe('order gate: position_limits.max_contracts → REJECTED position_limit_exceeded', () => {
  it('max 3: long 2 + buy 2 = 4 refused; + buy 1 = 3 taken; a sell of 6 from long 3 (short 3) taken', () => {
    const h = riskHarness();
    const a = h.open(testPlan({ position_limits: { max_contracts: 3 } }));
    h.tick('5000.00');
    h.trade(a, 'buy', 2, '5000.00');
    expect(placed(h, a, { side: 'buy', quantity: 2 }), '|2 + 2| = 4 > 3').toMatchObject({
      status: 'REJECTED',
      error: { code: 'position_limit_exceeded' },
    });
    h.trade(a, 'buy', 1, '5000.00');
    expect(h.net(a), '|2 + 1| = 3 ≤ 3').toBe(3);
    expect(placed(h, a, { side: 'sell', quantity: 7 }), '|3 - 7| = 4 > 3').toMatchObject({
      status: 'REJECTED',
      error: { code: 'position_limit_exceeded' },
    });
    h.trade(a, 'sell', 6, '5000.00');
    expect(h.net(a), '|3 - 6| = 3 ≤ 3').toBe(-3);
  });

  it('max_contracts counts working orders that would grow the position: |net + same-side working + this order|', () => {
    const h = riskHarness();
    const a = h.open(testPlan({ position_limits: { max_contracts: 3 } }));
    h.tick('5000.00');
    h.trade(a, 'buy', 1, '5000.00');
    const resting = h.place(a, { side: 'buy', type: 'limit', quantity: 1, limit_price: '4990.00' });
    expect(h.order(resting).status, '|1 + 0 + 1| = 2 ≤ 3').toBe('SUBMITTED');
    const refused = placed(h, a, { side: 'buy', quantity: 2 });
    expect(refused, '|1 + 1 working + 2| = 4 > 3').toMatchObject({
      status: 'REJECTED',
      error: { code: 'position_limit_exceeded' },
    });
    expect((refused.error as { message: string }).message).toBe(
      "4 contracts (net 1, same-side working 1, this order 2) would exceed the account's limit of 3",
    );
    const stop = h.place(a, { side: 'sell', type: 'stop', quantity: 4, stop_price: '4980.00' });
    expect(h.order(stop).status, 'a sell is the other side: |1 − 4| = 3 ≤ 3; the working buy does not count').toBe(
      'SUBMITTED',
    );
    h.trade(a, 'buy', 1, '5000.00'); // |1 + 1 + 1| = 3 ≤ 3: taken and filled
    expect(h.net(a)).toBe(2);
    expect(placed(h, a, { side: 'sell', quantity: 2 }), 'net 2, working sells 4: |2 − (4 + 2)| = 4 > 3').toMatchObject({
      status: 'REJECTED',
      error: { code: 'position_limit_exceeded' },
    });
  });

  it('a modify that raises the quantity meets the same limit: the venue rejects it and the order keeps its size', () => {
    const h = riskHarness();
    const a = h.open(testPlan({ position_limits: { max_contracts: 2 } }));
    h.tick('5000.00');
    const id = h.place(a, { side: 'buy', type: 'limit', quantity: 1, limit_price: '4990.00', time_in_force: 'gtc' });
    expect(
      h.kernel.dispatch({ type: 'modify_order', order_id: id, body: { quantity: 5 } }).status,
      'PATCH is accepted for travel',
    ).toBe(202);
    const states = h.kernel.read.orderStates({}, id);
    const last = states.ok ? states.body.items.at(-1) : undefined;
    expect(last, '|0 + 5| = 5 > 2: the venue rejects the modify with the gate’s reason').toMatchObject({
      status: 'SUBMITTED',
      reason:
        "modify rejected: 5 contracts (net 0, same-side working 0, this order 5) would exceed the account's limit of 2",
    });
    expect(h.kernel.dispatch({ type: 'modify_order', order_id: id, body: { quantity: 2 } }).status).toBe(202);
    h.tick('4990.00');
    expect(h.net(a), 'the accepted modify to 2 fills in full: |0 + 2| = 2 ≤ 2').toBe(2);
  });

  it('the limit is the sum over instruments: long 2 ES + buy 2 NQ = 4 > 3', () => {
    const h = riskHarness();
    const a = h.open(testPlan({ position_limits: { max_contracts: 3 } }));
    h.tick('5000.00');
    h.trade(a, 'buy', 2, '5000.00');
    expect(placed(h, a, { instrument_id: 'NQM6', side: 'buy', quantity: 2 })).toMatchObject({
      status: 'REJECTED',
      error: { code: 'position_limit_exceeded' },
    });
    expect(placed(h, a, { instrument_id: 'NQM6', side: 'sell', quantity: 1 }).status, '2 + |-1| = 3').toBe('SUBMITTED');
  });
});

describe('order gate: user_risk_halt → REJECTED user_risk_halt', () => {
  it('set, the risk state shows it and orders are refused; cleared, they are taken', () => {
    const h = riskHarness();
    const a = h.open();
    expect(h.ok('set_user_risk_halt', a, { user_risk_halt: true }), 'the risk-state item').toMatchObject({
      account_id: a,
      user_risk_halt: true,
    });
    expect(h.item(a), 'a halt is not a lock').toMatchObject({ user_risk_halt: true, is_locked: false });
    expect(placed(h, a, { side: 'buy', quantity: 1 })).toMatchObject({
      status: 'REJECTED',
      error: { code: 'user_risk_halt' },
    });
    h.ok('set_user_risk_halt', a, { user_risk_halt: false });
    expect(placed(h, a, { side: 'buy', quantity: 1 }).status).toBe('SUBMITTED');
  });
});

describe('order gate: locked → REJECTED account_locked', () => {
  it('a firm lock refuses orders; it is checked before a halt or a disabled family', () => {
    const h = riskHarness();
    const a = h.open(testPlan({ enabled_families: ['metals'] }));
    h.ok('set_user_risk_halt', a, { user_risk_halt: true });
    h.ok('lockout', a, {});
    expect(placed(h, a, { side: 'buy', quantity: 1 })).toMatchObject({
      status: 'REJECTED',
      error: { code: 'account_locked' },
    });
  });

  it('an order that reaches the venue after a lock is refused even though it was accepted before (latency 100 ms)', () => {
    const h = riskHarness({ fillModel: { latencyMs: 100 } });
    const a = h.open();
    const id = h.place(a, { side: 'buy', quantity: 1 });
    h.ok('lockout', a, {});
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 100 });
    expect(h.order(id)).toMatchObject({ status: 'REJECTED', error: { code: 'account_locked' } });
  });
});
