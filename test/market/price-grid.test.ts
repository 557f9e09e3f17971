import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allInstruments } from '../../src/core/instruments.js';
import { Dec, priceToTicks } from '../../src/core/money.js';
import { parseScaledDecimal } from '../../src/market/byte-numbers.js';
import { PriceGrid } from '../../src/market/price-grid.js';

/** The reader's conversion: bytes -> scaled integer -> ticks, NaN when refused. */
function readerTicks(text: string, grid: PriceGrid): number {
  const bytes = Buffer.from(text);
  return grid.ticksFromScaled(parseScaledDecimal(bytes, 0, bytes.length, grid.decimals));
}

/** The reference: decimal.js, exact by construction (money.ts). */
function referenceTicks(text: string, tickSize: string): number {
  try {
    return priceToTicks(new Dec(text), new Dec(tickSize)) + 0;
  } catch {
    return NaN;
  }
}

const decimalText = fc
  .tuple(
    fc.boolean(),
    fc.integer({ min: 0, max: 99_999 }),
    fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 8 }),
  )
  .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`);

describe('prices to ticks without binary fractions', () => {
  it('agrees with decimal.js on every instrument for any plain decimal', () => {
    for (const spec of allInstruments()) {
      const grid = new PriceGrid(spec);
      fc.assert(
        fc.property(decimalText, (text) => {
          expect(readerTicks(text, grid), `${text} on the ${spec.tickSize} grid of ${spec.root}`).toBe(
            referenceTicks(text, spec.tickSize),
          );
        }),
        { numRuns: 500 },
      );
    }
  });

  it('reads back every price written on the grid', () => {
    for (const spec of allInstruments()) {
      const grid = new PriceGrid(spec);
      fc.assert(
        fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), (ticks) => {
          const text = new Dec(spec.tickSize).times(ticks).toFixed(spec.priceDecimals);
          expect(readerTicks(text, grid), `${text} is ${ticks} ticks of ${spec.tickSize}`).toBe(ticks);
        }),
        { numRuns: 300 },
      );
    }
  });

  it('refuses what is not a plain decimal', () => {
    const grid = new PriceGrid(allInstruments()[0]!);
    for (const text of ['', '-', '.5', '5.', '5,0', '1e3', '+5', ' 5', '5 ', '--5', '5.2.5', '12345678901234567']) {
      expect(readerTicks(text, grid), JSON.stringify(text)).toBeNaN();
    }
  });
});
