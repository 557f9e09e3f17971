// The scaling plan (docs/risk-rules.md#scaling-plan): risk_profile.scaling's tier of the trading profit at the last
// session roll (balance − starting balance − cash adjustments, taken at the roll) caps the contracts the account may
// hold, working orders included; intraday profit waits for the next roll; below the first tier, the first holds;
// beside max_contracts the smaller binds. Plan: 50,000 static $2,000, target $3,000 (never reached here); ES = $50 a
// point. T0 = Tue 2026-03-10 09:00 CDT; the rolls are 17:00 CDT = 22:00Z.
import { describe, expect, it } from 'vitest';
import { ms, plan, riskHarness } from './risk-harness.js';

const STATIC = { max_drawdown_mode: 'static', max_drawdown_value: '2000' };
const TIERS = [
  { from_profit: '0', max_contracts: 3 },
  { from_profit: '1500', max_contracts: 5 },
];
const rollOf = (date: string) => ms(`${date}T22:00:00Z`);
const scalingPlan = (extra: Record<string, unknown> = {}, tiers: unknown[] = TIERS) =>
  plan({ ...STATIC, scaling: tiers }, extra);

function setUp(extra: Record<string, unknown> = {}, tiers?: unknown[]) {
  const h = riskHarness();
  const a = h.open(scalingPlan(extra, tiers));
  h.tick('5000.00');
  const buy = (quantity: number) => h.order(h.place(a, { side: 'buy', quantity }));
  const roll = (date: string) => h.kernel.dispatch({ type: 'advance', to_ms: rollOf(date) });
  return { h, a, buy, roll };
}

describe('docs/risk-rules.md#scaling-plan: the tier of the profit at the last roll caps the contracts', () => {
  it('a new account stands in the tier from 0: 3 contracts; a 4th is REJECTED scaling_limit_exceeded', () => {
    const { h, a, buy } = setUp();
    expect(h.item(a), 'profit 0.00 at opening: the tier from 0 allows 3').toMatchObject({
      max_contracts_now: 3,
      scaling_profit: '0.00',
    });
    h.fill(a, 'buy', 3, '5000.00');
    const refused = buy(1);
    expect(refused, '|3 + 0 + 1| = 4 > 3').toMatchObject({
      status: 'REJECTED',
      error: { code: 'scaling_limit_exceeded' },
    });
    expect((refused.error as { message: string }).message).toBe(
      "4 contracts (net 3, same-side working 0, this order 1) would exceed the scaling plan's 3 at $0.00 profit (tier from $0.00)",
    );
  });

  it('working orders count as for max_contracts: a resting buy 2 leaves room for 1', () => {
    const { h, a, buy } = setUp();
    const resting = h.place(a, { side: 'buy', type: 'limit', quantity: 2, limit_price: '4990.00' });
    expect(h.order(resting).status, '|0 + 0 + 2| = 2 ≤ 3').toBe('SUBMITTED');
    expect(buy(2), '|0 + 2 working + 2| = 4 > 3').toMatchObject({ status: 'REJECTED' });
    expect(buy(1).status, '|0 + 2 + 1| = 3 ≤ 3: taken and filled at 5000.00').toBe('SUBMITTED');
  });

  it('intraday profit does not count: +1,500 realized by noon still allows 3 until the roll, then 5', () => {
    const { h, a, buy, roll } = setUp();
    h.fill(a, 'buy', 3, '5000.00');
    h.fill(a, 'sell', 3, '5010.00'); // +10 × 3 × $50 = +$1,500: balance 51,500
    expect(h.item(a), 'the tier still follows the profit at the last roll (none yet: 0)').toMatchObject({
      balance: '51500.00',
      max_contracts_now: 3,
      scaling_profit: '0.00',
    });
    expect(buy(4), '|0 + 4| = 4 > 3, though the profit is 1,500 now').toMatchObject({
      status: 'REJECTED',
      error: { code: 'scaling_limit_exceeded' },
    });
    roll('2026-03-10');
    expect(h.item(a), 'Tue 17:00: profit 51,500 − 50,000 = 1,500 ≥ 1,500: the tier from 1,500 allows 5').toMatchObject({
      max_contracts_now: 5,
      scaling_profit: '1500.00',
    });
    h.tick('5010.00', { afterMs: 60_000 });
    expect(buy(5).status, '|0 + 5| = 5 ≤ 5').toBe('SUBMITTED');
    h.tick('5010.00');
    const refused = buy(1);
    expect((refused.error as { message: string }).message, '|5 + 1| = 6 > 5').toBe(
      "6 contracts (net 5, same-side working 0, this order 1) would exceed the scaling plan's 5 at $1,500.00 profit (tier from $1,500.00)",
    );
  });

  it('a loss takes the tier down at the next roll, and a profit below the first tier keeps the first', () => {
    const { h, a, roll } = setUp();
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5030.00'); // +30 × $50 = +1,500: 51,500
    roll('2026-03-10');
    expect(h.item(a).max_contracts_now, 'profit 1,500: 5').toBe(5);
    h.fill(a, 'buy', 1, '5030.00');
    h.fill(a, 'sell', 1, '5010.00'); // −20 × $50 = −1,000: 50,500
    roll('2026-03-11');
    expect(h.item(a), 'Wed 17:00: profit 500 < 1,500: back to 3').toMatchObject({
      max_contracts_now: 3,
      scaling_profit: '500.00',
    });
    h.fill(a, 'buy', 1, '5010.00');
    h.fill(a, 'sell', 1, '4990.00'); // −20 × $50 = −1,000: 49,500
    roll('2026-03-12');
    expect(h.item(a), 'Thu 17:00: profit −500, below the tier from 0: the first tier holds').toMatchObject({
      max_contracts_now: 3,
      scaling_profit: '-500.00',
    });
    h.tick('4990.00', { afterMs: 60_000 });
    h.fill(a, 'buy', 3, '4990.00');
    const refused = h.order(h.place(a, { side: 'buy', quantity: 1 }));
    expect((refused.error as { message: string }).message).toBe(
      "4 contracts (net 3, same-side working 0, this order 1) would exceed the scaling plan's 3 at -$500.00 profit (below the first tier, from $0.00, which holds there)",
    );
  });

  it('a deposit does not count: trading profit excludes cash adjustments, as passing does', () => {
    const { h, a, roll } = setUp();
    h.ok('adjust_balance', a, { amount: '2000.00', reason_code: 'deposit' });
    roll('2026-03-10');
    expect(h.item(a), 'balance 52,000 but trading profit 52,000 − 50,000 − 2,000 = 0: tier from 0').toMatchObject({
      balance: '52000.00',
      max_contracts_now: 3,
      scaling_profit: '0.00',
    });
  });

  it('a tier below zero: from −1,000 one contract, from 0 three; a −1,200 day at the roll allows 1', () => {
    const { h, a, roll } = setUp({}, [
      { from_profit: '-1000', max_contracts: 1 },
      { from_profit: '0', max_contracts: 3 },
    ]);
    expect(h.item(a).max_contracts_now, 'profit 0 ≥ 0: 3').toBe(3);
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '4976.00'); // −24 × $50 = −1,200
    roll('2026-03-10');
    expect(h.item(a), '−1,200 is below the tier from −1,000: the first tier, 1').toMatchObject({
      max_contracts_now: 1,
      scaling_profit: '-1200.00',
    });
  });
});

describe('docs/risk-rules.md#scaling-plan: beside max_contracts the smaller binds', () => {
  it('max_contracts 4 with tiers 3 / 5: 3 by the tier at 0 (scaling_limit_exceeded), 4 by max_contracts at 1,500', () => {
    const { h, a, buy, roll } = setUp({ position_limits: { max_contracts: 4 } });
    expect(h.item(a).max_contracts_now, 'min(4, 3) = 3').toBe(3);
    expect(buy(4).error, '4 > 3, the tier binds').toMatchObject({ code: 'scaling_limit_exceeded' });
    h.fill(a, 'buy', 1, '5000.00');
    h.fill(a, 'sell', 1, '5030.00'); // +1,500
    roll('2026-03-10');
    expect(h.item(a).max_contracts_now, 'min(4, 5) = 4').toBe(4);
    h.tick('5030.00', { afterMs: 60_000 });
    const refused = buy(5);
    expect(refused.error, '5 > 4, max_contracts binds').toEqual({
      code: 'position_limit_exceeded',
      message: "5 contracts (net 0, same-side working 0, this order 5) would exceed the account's limit of 4",
    });
  });

  it('a modify that raises the quantity past the tier is rejected at the venue; the order keeps its size', () => {
    const { h, a } = setUp();
    const id = h.place(a, { side: 'buy', type: 'limit', quantity: 2, limit_price: '4990.00', time_in_force: 'gtc' });
    h.kernel.dispatch({ type: 'modify_order', order_id: id, body: { quantity: 4 } });
    const states = h.kernel.read.orderStates({}, id);
    expect(states.ok && states.body.items.at(-1), '|0 + 4| = 4 > 3').toMatchObject({
      status: 'SUBMITTED',
      reason:
        "modify rejected: 4 contracts (net 0, same-side working 0, this order 4) would exceed the scaling plan's 3 at $0.00 profit (tier from $0.00)",
    });
    expect(h.order(id).quantity).toBe(2);
  });

  it('without scaling or max_contracts the risk state has neither max_contracts_now nor scaling_profit', () => {
    const h = riskHarness();
    const a = h.open(plan(STATIC));
    expect(h.item(a)).not.toHaveProperty('max_contracts_now');
    expect(h.item(a)).not.toHaveProperty('scaling_profit');
    const b = h.open(plan(STATIC, { position_limits: { max_contracts: 5 } }));
    expect(h.item(b), 'max_contracts alone: the limit now, no scaling profit').toMatchObject({ max_contracts_now: 5 });
    expect(h.item(b)).not.toHaveProperty('scaling_profit');
  });
});
