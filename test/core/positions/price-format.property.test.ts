// Prices are written from integers (formatFixed), decimal.js only past 2^53: for every contract of the catalog, the
// integer path writes what decimal.js writes (docs/money-and-instruments.md#the-one-rounding-rule for averages).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allInstruments } from '../../../src/core/instruments.js';
import { Dec, formatFixed } from '../../../src/core/money.js';
import {
  AVERAGE_PRICE_EXTRA_PLACES,
  formatAveragePrice,
  formatTicks,
  pricingOf,
} from '../../../src/core/positions/index.js';

const ROOTS = allInstruments().map((spec) => spec.root);

/** Tick counts of every size: everyday prices, and products near and past 2^53 (the decimal.js path). */
const ticks = fc.oneof(
  fc.integer({ min: -10_000_000, max: 10_000_000 }),
  fc.integer({ min: -(2 ** 50), max: 2 ** 50 }),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
);

/** decimal.js's answer, trailing zeros trimmed down to `minPlaces` as an average price is written. */
function trimmed(text: string, minPlaces: number): string {
  const [whole, fraction = ''] = text.split('.');
  const kept = fraction.replace(/0+$/, '').padEnd(minPlaces, '0');
  return kept === '' ? whole! : `${whole}.${kept}`;
}

describe('prices written from integers, as decimal.js writes them', () => {
  it('formatFixed: whole units of 10^-places, a minus on a negative zero when asked', () => {
    expect(formatFixed(500_025, 2)).toBe('5000.25');
    expect(formatFixed(-5, 3)).toBe('-0.005');
    expect(formatFixed(40_000, 0)).toBe('40000');
    expect(formatFixed(110_015_625, 6)).toBe('110.015625');
    expect(formatFixed(0, 4, true)).toBe('-0.0000');
    // At the top of the safe integers.
    expect(formatFixed(Number.MAX_SAFE_INTEGER, 9)).toBe('9007199.254740991');
    expect(formatFixed(8_999_999_999_999_999 - 1, 9)).toBe('8999999.999999998');
    expect(() => formatFixed(0.5, 2)).toThrow(/safe integer/);
  });

  it('formatTicks: every contract, every tick count', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ROOTS), ticks, (root, n) => {
        const pricing = pricingOf(root);
        expect(formatTicks(pricing, n)).toBe(pricing.tickSize.times(n).toFixed(pricing.priceDecimals));
      }),
      { numRuns: 2_000 },
    );
  });

  it('formatAveragePrice: every contract, any total and quantity, rounded half to even', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ROOTS),
        ticks,
        fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 100_000_000 })),
        (root, ticksTimesQuantity, quantity) => {
          const pricing = pricingOf(root);
          const places = pricing.priceDecimals + AVERAGE_PRICE_EXTRA_PLACES;
          const reference = new Dec(ticksTimesQuantity)
            .times(pricing.tickSize)
            .dividedBy(quantity)
            .toFixed(places, Dec.ROUND_HALF_EVEN);
          expect(formatAveragePrice(pricing, ticksTimesQuantity, quantity)).toBe(
            trimmed(reference, pricing.priceDecimals),
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('a tick count that is not whole is refused, even where its product with the tick is (0.04 ticks of ES)', () => {
    expect(() => formatTicks(pricingOf('ES'), 0.04)).toThrow(/ticks must be a safe integer/);
  });

  it('an average that rounds to zero from below keeps its minus, as before (−1 tick of ES over 10,000,000)', () => {
    expect(formatAveragePrice(pricingOf('ES'), -1, 10_000_000)).toBe('-0.00');
  });
});
