// Per-root limits and micros (docs/risk-rules.md#per-root-limits, docs/risk-rules.md#micros):
// position_limits.max_contracts_per_root bounds each root's own projection (|net + same-side working + this order| in
// the order's contract, plus |net| of the root's other contract months); micro_ratio r counts a micro as 1/r of a
// mini toward max_contracts, the scaling plan and its mini's per-root limit, exactly: r × minis + micros against
// r × the limit. Plan: 50,000 static $2,000, every family. T0 = Tue 2026-03-10 09:00 CDT.
import { describe, expect, it } from 'vitest';
import { plan, riskHarness } from './risk-harness.js';
import { inMinis } from '../../../src/core/kernel/risk/contract-limits.js';

const STATIC = { max_drawdown_mode: 'static', max_drawdown_value: '2000' };

function setUp(positionLimits: Record<string, unknown>, scaling?: unknown[]) {
  const h = riskHarness();
  const a = h.open(plan({ ...STATIC, ...(scaling ? { scaling } : {}) }, { position_limits: positionLimits }));
  /** A market buy or sell of `symbol`, as the venue answers it (REJECTED at once, or SUBMITTED for the next print). */
  const order = (symbol: string, side: 'buy' | 'sell', quantity: number) =>
    h.order(h.place(a, { instrument_id: symbol, side, quantity }));
  const messageOf = (o: Record<string, unknown>) => (o.error as { message: string } | undefined)?.message;
  return { h, a, order, messageOf };
}

describe('docs/risk-rules.md#per-root-limits: max_contracts_per_root bounds each root', () => {
  it('ES 2: long 2 ES + buy 1 ES = 3 > 2 → REJECTED root_limit_exceeded; NQ and MES are other roots', () => {
    const { h, a, order, messageOf } = setUp({ max_contracts_per_root: { ES: 2, NQ: 1 } });
    h.fill(a, 'buy', 2, '5000.00');
    const refused = order('ESM6', 'buy', 1);
    expect(refused.error, '|2 + 0 + 1| = 3 > 2').toMatchObject({ code: 'root_limit_exceeded' });
    expect(messageOf(refused)).toBe(
      "3 ES contracts (net 2, same-side working 0, this order 1) would exceed the account's limit of 2 for ES",
    );
    expect(order('NQM6', 'buy', 1).status, 'NQ: |0 + 1| = 1 ≤ 1; the ES held is another root').toBe('SUBMITTED');
    expect(order('MESM6', 'buy', 7).status, 'MES is a root of its own without micro_ratio: no limit').toBe('SUBMITTED');
    expect(order('GCM6', 'buy', 9).status, 'a root the mapping leaves out has no limit of its own').toBe('SUBMITTED');
  });

  it('all contract months of a root together: long 1 NQU6 + buy 1 NQM6 = 2 > 1; a sell (a spread) counts 2 too', () => {
    const { h, a, order, messageOf } = setUp({ max_contracts_per_root: { NQ: 1 } });
    h.fill(a, 'buy', 1, '18000.00', 'NQU6');
    expect(messageOf(order('NQM6', 'buy', 1)), '|0 + 1| + |1| = 2 > 1').toBe(
      "2 NQ contracts (net 0, same-side working 0, this order 1, other NQ contracts 1) would exceed the account's limit of 1 for NQ",
    );
    expect(order('NQM6', 'sell', 1).error, '|0 − 1| + |1| = 2 > 1: each month counts its own |net|').toMatchObject({
      code: 'root_limit_exceeded',
    });
    expect(order('NQU6', 'sell', 1).status, 'closing: |1 − 1| = 0 ≤ 1').toBe('SUBMITTED');
  });

  it('working orders of the same side count: a resting buy 1 ES leaves no room under ES 1', () => {
    const { h, a, order } = setUp({ max_contracts_per_root: { ES: 1 } });
    h.tick('5000.00');
    const resting = h.place(a, { side: 'buy', type: 'limit', quantity: 1, limit_price: '4990.00' });
    expect(h.order(resting).status).toBe('SUBMITTED');
    expect(order('ESM6', 'buy', 1).error, '|0 + 1 working + 1| = 2 > 1').toMatchObject({ code: 'root_limit_exceeded' });
  });

  it('max_contracts is checked first: both broken, the answer is position_limit_exceeded', () => {
    const { h, a, order } = setUp({ max_contracts: 2, max_contracts_per_root: { ES: 2 } });
    h.fill(a, 'buy', 2, '5000.00');
    expect(order('ESM6', 'buy', 1).error, '3 > 2 and 3 > 2 for ES').toMatchObject({ code: 'position_limit_exceeded' });
  });
});

describe('docs/risk-rules.md#micros: micro_ratio counts micros in minis, exactly', () => {
  it('ratio 10, max 5: long 4 ES + 10 MES = 50 ≤ 50 micros; one more MES is 51 > 50, "5.1 contracts"', () => {
    const { h, a, order, messageOf } = setUp({ max_contracts: 5, micro_ratio: 10 });
    h.fill(a, 'buy', 4, '5000.00');
    h.fill(a, 'buy', 10, '5000.00', 'MESM6');
    expect(h.item(a).max_contracts_now, 'in minis').toBe(5);
    const micro = order('MESM6', 'buy', 1);
    expect(micro.error, '10 × 4 + |10 + 1| = 51 > 10 × 5 = 50').toMatchObject({ code: 'position_limit_exceeded' });
    expect(messageOf(micro)).toBe(
      "5.1 contracts in minis, 10 micros counting as 1 (MESM6 micros: net 10, same-side working 0, this order 1, other instruments 4) would exceed the account's limit of 5",
    );
    expect(messageOf(order('ESM6', 'buy', 1)), '10 × |4 + 1| + 10 = 60 > 50').toBe(
      "6 contracts in minis, 10 micros counting as 1 (ESM6: net 4, same-side working 0, this order 1, other instruments 1) would exceed the account's limit of 5",
    );
    expect(order('MESM6', 'sell', 10).status, 'closing the micros: 40 + |10 − 10| = 40 ≤ 50').toBe('SUBMITTED');
  });

  it('without micro_ratio a micro is a whole contract: long 4 ES + buy 2 MES = 6 > 5', () => {
    const { h, a, order, messageOf } = setUp({ max_contracts: 5 });
    h.fill(a, 'buy', 4, '5000.00');
    expect(messageOf(order('MESM6', 'buy', 2))).toBe(
      "6 contracts (net 0, same-side working 0, this order 2, other instruments 4) would exceed the account's limit of 5",
    );
  });

  it('the scaling plan counts in minis too: tier 2 takes 20 MES, not 21', () => {
    const { order, messageOf } = setUp({ micro_ratio: 10 }, [{ from_profit: '0', max_contracts: 2 }]);
    expect(order('MESM6', 'buy', 20).status, '20 ≤ 10 × 2').toBe('SUBMITTED');
    expect(messageOf(order('MESM6', 'buy', 21)), '|0 + 20 working + 21| = 41 > 20').toBe(
      "4.1 contracts in minis, 10 micros counting as 1 (MESM6 micros: net 0, same-side working 20, this order 21) would exceed the scaling plan's 2 at $0.00 profit (tier from $0.00)",
    );
  });

  it("a mini's per-root limit counts its micros at 1/ratio: ES 2 with long 2 ES refuses 1 MES (21 > 20)", () => {
    const { h, a, order, messageOf } = setUp({ micro_ratio: 10, max_contracts_per_root: { ES: 2, MES: 15 } });
    expect(order('MESM6', 'buy', 16).error, "MES's own limit, whole micros: 16 > 15").toMatchObject({
      code: 'root_limit_exceeded',
      message:
        "16 MES contracts (net 0, same-side working 0, this order 16) would exceed the account's limit of 15 for MES",
    });
    h.fill(a, 'buy', 2, '5000.00');
    expect(messageOf(order('MESM6', 'buy', 1)), 'ES: 10 × 2 + 1 = 21 > 20').toBe(
      "2.1 ES contracts in minis, 10 micros counting as 1 (MESM6 micros: net 0, same-side working 0, this order 1, other ES contracts 2) would exceed the account's limit of 2 for ES",
    );
  });

  it('M6E counts toward 6E: 6E 1, ratio 10, long 1 6E refuses 1 M6E (11 > 10), takes it once flat', () => {
    const { h, a, order } = setUp({ micro_ratio: 10, max_contracts_per_root: { '6E': 1 } });
    h.fill(a, 'buy', 1, '1.08500', '6EM6');
    expect(order('M6EM6', 'buy', 1).error, '10 × 1 + 1 = 11 > 10').toMatchObject({ code: 'root_limit_exceeded' });
    h.fill(a, 'sell', 1, '1.08500', '6EM6');
    expect(order('M6EM6', 'buy', 10).status, '10 ≤ 10').toBe('SUBMITTED');
  });

  it('a ratio that leaves a repeating fraction is written as one: ratio 3, long 1 ES + 1 MES = 4/3 > 1', () => {
    const { h, a, order, messageOf } = setUp({ max_contracts: 1, micro_ratio: 3 });
    h.fill(a, 'buy', 1, '5000.00');
    expect(messageOf(order('MESM6', 'buy', 1)), '3 × 1 + 1 = 4 > 3').toBe(
      "4/3 contracts in minis, 3 micros counting as 1 (MESM6 micros: net 0, same-side working 0, this order 1, other instruments 1) would exceed the account's limit of 1",
    );
    expect([inMinis(51, 10), inMinis(50, 10), inMinis(3, 4), inMinis(4, 3)]).toEqual(['5.1', '5', '0.75', '4/3']);
  });
});
