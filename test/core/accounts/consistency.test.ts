// The consistency rule (docs/risk-rules.md#passing), once for passing and for funded payouts: best × 100 ≤ pct ×
// profit, exactly, with a profit above zero.
import { describe, expect, it } from 'vitest';
import { isConsistent } from '../../../src/core/accounts/consistency.js';

describe('consistency: the best day within pct % of the profit', () => {
  it('is inclusive: a best day of $1,200 is 60 % of $2,000', () => {
    expect(isConsistent('60', 120_000, 200_000)).toBe(true);
    expect(isConsistent('60', 120_001, 200_000)).toBe(false);
  });

  it('is exact with a fractional percentage: 33.3333 % of $3,000.00 is $999.999, so $999.99 holds and $1,000 does not', () => {
    expect(isConsistent('33.3333', 99_999, 300_000)).toBe(true);
    expect(isConsistent('33.3333', 100_000, 300_000)).toBe(false);
  });

  it('needs a profit: no profit, or a loss, never holds, whatever the best day', () => {
    expect(isConsistent('100', 0, 0)).toBe(false);
    expect(isConsistent('100', -5_000, -10_000)).toBe(false);
  });
});
