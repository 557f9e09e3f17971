// A search axis written as a range is expanded exactly (docs/optimizing.md#the-config): decimal.js, not floats.
import { describe, expect, it } from 'vitest';
import { expandRange, MAX_RANGE_VALUES } from '../../../src/backtest/optimize/search-range.js';

describe('search ranges', () => {
  it('from "1500" to "3500" step "250" is the 9 values 1500, 1750, …, 3500', () => {
    // (3500 − 1500) / 250 = 8 steps, so 9 values.
    expect(expandRange({ from: '1500', to: '3500', step: '250' }, 'search.x')).toEqual([
      '1500',
      '1750',
      '2000',
      '2250',
      '2500',
      '2750',
      '3000',
      '3250',
      '3500',
    ]);
  });

  it('tenths stay exact where floats drift: 0.1 + 0.2 is "0.3", not 0.30000000000000004', () => {
    expect(expandRange({ from: '0.1', to: '0.5', step: '0.1' }, 'search.x')).toEqual([
      '0.1',
      '0.2',
      '0.3',
      '0.4',
      '0.5',
    ]);
  });

  it('keeps the places as written ("1500.00" gives "1750.00") and stops short of a "to" off the steps', () => {
    // 1500 + 2 × 250 = 2000 ≤ 2100 < 2250: three values.
    expect(expandRange({ from: '1500.00', to: '2100', step: '250' }, 'search.x')).toEqual([
      '1500.00',
      '1750.00',
      '2000.00',
    ]);
  });

  it('integers give integers (for integer plan fields such as min_trading_days)', () => {
    expect(expandRange({ from: 3, to: 7, step: 2 }, 'search.x')).toEqual([3, 5, 7]);
  });

  it('refuses a step of 0, a "to" below "from", mixed kinds and too many values, naming the field', () => {
    expect(() => expandRange({ from: '1', to: '2', step: '0' }, 'search.x')).toThrow(
      'search.x.step: expected a step greater than 0, got "0"',
    );
    expect(() => expandRange({ from: '2', to: '1', step: '1' }, 'search.x')).toThrow(
      'search.x.to: expected a value no less than from (2), got "1"',
    );
    expect(() => expandRange({ from: '1', to: 2, step: '1' }, 'search.x')).toThrow(
      /search\.x: .*all decimal strings or all integers/,
    );
    expect(() => expandRange({ from: '0', to: String(MAX_RANGE_VALUES), step: '1' }, 'search.x')).toThrow(
      /at most 1000 values.*1001 values/,
    );
  });
});
