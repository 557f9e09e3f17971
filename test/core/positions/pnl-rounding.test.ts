import { describe, expect, it } from 'vitest';
import { formatAveragePrice, pricingOf } from '../../../src/core/positions/index.js';
import { ACCOUNT, fill, newBook, ticksOf } from './executions.js';

describe('positions: lot P&L in mills, rounded half-even to cents (docs/money-and-instruments.md#the-one-rounding-rule)', () => {
  // ZN: tick 0.015625 = $15.625 = 15625 mills. 110.000000 = 7040 ticks.
  it('a ZN lot of 1 tick gains 1562.5 cents, rounded half-even to 1562', () => {
    const book = newBook();
    book.applyFill(fill({ id: 'z1', side: 'buy', quantity: 1, price: '110.000000', symbol: 'ZNM6' }));
    const r = book.applyFill(fill({ id: 'z2', side: 'sell', quantity: 1, price: '110.015625', symbol: 'ZNM6' }));
    expect(r.realizedCents, '15625 mills = 1562.5 cents, tie to even 1562 ($15.62)').toBe(1562);
  });

  it('a ZN lot of 3 ticks gains 4687.5 cents, rounded half-even to 4688', () => {
    const book = newBook();
    book.applyFill(fill({ id: 'z1', side: 'buy', quantity: 1, price: '110.000000', symbol: 'ZNM6' }));
    const r = book.applyFill(fill({ id: 'z2', side: 'sell', quantity: 1, price: '110.046875', symbol: 'ZNM6' }));
    expect(r.realizedCents, '3 × 15625 = 46875 mills = 4687.5 cents, tie to even 4688 ($46.88)').toBe(4688);
  });

  it('rounding rule: a ZN loss of 1 tick rounds the same way in magnitude (−1562.5 -> −1562)', () => {
    const book = newBook();
    book.applyFill(fill({ id: 'z1', side: 'buy', quantity: 1, price: '110.015625', symbol: 'ZNM6' }));
    const r = book.applyFill(fill({ id: 'z2', side: 'sell', quantity: 1, price: '110.000000', symbol: 'ZNM6' }));
    expect(r.realizedCents, '−1562.5 cents: the even neighbour is −1562').toBe(-1562);
  });

  it('each lot is rounded on its own; unrealized is rounded once per position', () => {
    const book = newBook();
    book.applyFill(fill({ id: 'z1', side: 'buy', quantity: 1, price: '110.000000', symbol: 'ZNM6' }));
    book.applyFill(fill({ id: 'z2', side: 'buy', quantity: 1, price: '110.000000', symbol: 'ZNM6' }));
    book.markPrice('ZNM6', ticksOf('ZNM6', '110.015625'));
    expect(book.unrealizedCents(ACCOUNT), 'two lots × 1 tick = 31250 mills, rounded once: 3125').toBe(3125);
    const r = book.applyFill(fill({ id: 'z3', side: 'sell', quantity: 2, price: '110.015625', symbol: 'ZNM6' }));
    expect(
      r.closedLots.map((l) => l.realizedCents),
      'two lots (z1, z2), each 1562.5 -> 1562',
    ).toEqual([1562, 1562]);
    expect(r.realizedCents, 'fill realized = Σ rounded lots = 3124, not 3125').toBe(3124);
  });

  it('6E buy 1.09435, sell 1.09445 = 2 ticks × $6.25 = $12.50', () => {
    const book = newBook();
    book.applyFill(fill({ id: 'f1', side: 'buy', quantity: 1, price: '1.09435', symbol: '6EH4' }));
    const r = book.applyFill(fill({ id: 'f2', side: 'sell', quantity: 1, price: '1.09445', symbol: '6EH4' }));
    expect(r.realizedCents, '2 × 6250 mills = 12500 mills = 1250 cents').toBe(1250);
    expect(r.closedLots[0]?.openPriceTicks, '1.09435 / 0.00005').toBe(21_887);
  });
});

describe('positions: average price as an exact decimal string (docs/order-lifecycle.md#positions-trades-and-lots)', () => {
  const es = pricingOf('ESM6');
  it.each([
    ['one ES lot at 5000.00 keeps the contract’s 2 places', 20_000, 1, '5000.00'],
    ['ES 5000.25 and 5000.50: 5000.375', 20_001 + 20_002, 2, '5000.375'],
    ['ES 2 × 5000.00 and 1 × 5001.00: 5000.3333… to 2 + 4 places', 40_000 + 20_004, 3, '5000.333333'],
    ['ES 31 × 5000.00 and 1 × 5000.25: 5000.0078125, tie to even at 6 places', 31 * 20_000 + 20_001, 32, '5000.007812'],
    [
      'ES 29 × 5000.00 and 3 × 5000.25: 5000.0234375, tie to even at 6 places',
      29 * 20_000 + 3 * 20_001,
      32,
      '5000.023438',
    ],
  ])('%s', (_label, ticksTimesQuantity, quantity, expected) => {
    expect(formatAveragePrice(es, ticksTimesQuantity, quantity)).toBe(expected);
  });

  it('YM (no decimals): 40000 -> "40000", 40000 and 40001 -> "40000.5"', () => {
    const ym = pricingOf('YMM6');
    expect(formatAveragePrice(ym, 40_000, 1)).toBe('40000');
    expect(formatAveragePrice(ym, 80_001, 2)).toBe('40000.5');
  });

  it('6E (5 decimals): 1.09435 and 1.09440 -> "1.094375"', () => {
    expect(formatAveragePrice(pricingOf('6EH4'), 21_887 + 21_888, 2)).toBe('1.094375');
  });

  it('negative prices average exactly too (CL −37.63 and −37.62 -> "-37.625")', () => {
    expect(formatAveragePrice(pricingOf('CLK0'), -3763 - 3762, 2)).toBe('-37.625');
  });
});
