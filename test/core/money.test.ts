import { describe, expect, it } from 'vitest';
import {
  Dec,
  DecimalInputError,
  OffTickGridError,
  decimalToCents,
  divideHalfEven,
  formatCents,
  parseCents,
  parseDecimal,
  priceToTicks,
  splitCents,
  ticksToPrice,
} from '../../src/core/money.js';

describe('money: decimal strings at the boundary', () => {
  it('parses plain decimal strings exactly', () => {
    expect(parseDecimal('50000.00', 'balance').toFixed(2)).toBe('50000.00');
    expect(parseDecimal('-250.5', 'amount').toFixed()).toBe('-250.5');
    expect(parseDecimal('0.10', 'x').plus(parseDecimal('0.20', 'y')).toFixed()).toBe('0.3');
  });

  it.each([
    ['a JSON number', 50000],
    ['an exponent', '5e4'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['an empty string', ''],
    ['a padded string', ' 50000'],
    ['a trailing space', '50000 '],
    ['a leading plus', '+5'],
    ['a bare point', '.5'],
    ['a dangling point', '5.'],
    ['leading zeros', '007'],
    ['a thousands separator', '50,000'],
    ['null', null],
  ])('rejects %s, naming the field', (_label, value) => {
    expect(() => parseDecimal(value, 'risk_profile.max_drawdown_value')).toThrowError(DecimalInputError);
    expect(() => parseDecimal(value, 'risk_profile.max_drawdown_value')).toThrowError(
      /risk_profile\.max_drawdown_value: expected a decimal string/,
    );
  });

  it('rejects more places than the field allows', () => {
    expect(() => parseDecimal('1.005', 'amount')).toThrowError(/at most 2 decimal places/);
    expect(parseDecimal('1.00005', 'price', { maxPlaces: 5 }).toFixed()).toBe('1.00005');
    expect(() => parseDecimal('1.000005', 'price', { maxPlaces: 5 })).toThrowError(/price/);
  });

  it('refuses negatives where the field must be zero or more', () => {
    expect(() => parseDecimal('-1', 'price_paid', { nonNegative: true })).toThrowError(/zero or more/);
    expect(parseDecimal('0', 'price_paid', { nonNegative: true }).isZero()).toBe(true);
  });

  it('says what it received when it refuses a JSON number', () => {
    expect(() => parseDecimal(1.1, 'amount')).toThrowError(
      'amount: expected a decimal string with at most 2 decimal places, like "50000.00", got the JSON number 1.1',
    );
  });
});

describe('money: integer cents', () => {
  it('converts to and from cents exactly', () => {
    expect(parseCents('50000.00', 'balance')).toBe(5_000_000);
    expect(parseCents('-0.01', 'amount')).toBe(-1);
    expect(parseCents('0.1', 'amount')).toBe(10);
    expect(formatCents(5_000_000)).toBe('50000.00');
    expect(formatCents(-5)).toBe('-0.05');
    expect(formatCents(-105)).toBe('-1.05');
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });

  it('refuses sub-cent and unsafe amounts when converting a Decimal', () => {
    expect(() => decimalToCents(new Dec('0.001'))).toThrowError(/whole number of cents/);
    expect(() => decimalToCents(new Dec('1e20'))).toThrowError(/2\^53/);
    expect(() => formatCents(0.5)).toThrowError(RangeError);
  });

  it('rounds half to even, the one rounding rule (ZN: 1 tick = 1562.5 cents)', () => {
    expect(divideHalfEven(15625, 10), '1562.5 cents rounds to the even 1562').toBe(1562);
    expect(divideHalfEven(15635, 10), '1563.5 cents rounds to the even 1564').toBe(1564);
    expect(divideHalfEven(-15625, 10), '-1562.5 cents rounds to the even -1562').toBe(-1562);
    expect(divideHalfEven(15626, 10)).toBe(1563);
    expect(divideHalfEven(15624, 10)).toBe(1562);
    expect(divideHalfEven(46875, 10), '3 ZN ticks = 4687.5 cents -> 4688').toBe(4688);
  });

  it('splits a total across accounts, remainder cents one each to the first (docs/risk-rules.md#provisioning)', () => {
    expect(splitCents(10_000, 3), '100.00 over 3 -> 33.34, 33.33, 33.33').toEqual([3334, 3333, 3333]);
    expect(splitCents(10_001, 3)).toEqual([3334, 3334, 3333]);
    expect(splitCents(2, 3)).toEqual([1, 1, 0]);
    expect(splitCents(-10_000, 3)).toEqual([-3334, -3333, -3333]);
    expect(splitCents(15_000, 1)).toEqual([15_000]);
    expect(splitCents(10_000, 3).reduce((a, b) => a + b, 0)).toBe(10_000);
  });
});

describe('money: integer ticks', () => {
  it('converts prices to ticks exactly on each grid', () => {
    expect(priceToTicks(new Dec('5000.25'), new Dec('0.25'))).toBe(20_001);
    expect(priceToTicks(new Dec('110.015625'), new Dec('0.015625')), 'ZN 1/64 grid').toBe(7041);
    expect(priceToTicks(new Dec('1.09435'), new Dec('0.00005')), '6E').toBe(21_887);
    expect(priceToTicks(new Dec('-3.5'), new Dec('0.01')), 'negative prices exist (CL 2020)').toBe(-350);
  });

  it('refuses a price off the grid', () => {
    expect(() => priceToTicks(new Dec('5000.10'), new Dec('0.25'), 'limit_price')).toThrowError(OffTickGridError);
    expect(() => priceToTicks(new Dec('5000.10'), new Dec('0.25'), 'limit_price')).toThrowError(
      'limit_price: 5000.1 is not on the tick grid of 0.25',
    );
  });

  it('formats ticks back to prices with the instrument places', () => {
    expect(ticksToPrice(20_001, new Dec('0.25'), 2)).toBe('5000.25');
    expect(ticksToPrice(7041, new Dec('0.015625'), 6)).toBe('110.015625');
    expect(ticksToPrice(21_887, new Dec('0.00005'), 5)).toBe('1.09435');
  });
});
