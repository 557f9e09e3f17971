// A print as a user writes it (scenario ticks, the sandbox's market prints): docs/money-and-instruments.md. Each
// refusal names the field and what was expected.
import { describe, expect, it } from 'vitest';
import { parsePrint } from '../../../src/core/kernel/write/print-input.js';
import { CommandRefusal } from '../../../src/core/outcome.js';

function refusal(price: string): string {
  try {
    parsePrint('ESM6', price);
  } catch (error) {
    if (error instanceof CommandRefusal) return error.message;
    throw error;
  }
  throw new Error(`${price} was accepted`);
}

describe('parsePrint', () => {
  it('reads the canonical symbol and integer ticks (ES: 0.25 a tick)', () => {
    expect(parsePrint('ESM26', '5000.25', 3)).toEqual({ symbol: 'ESM6', priceTicks: 20001, size: 3 });
    expect(parsePrint('ESM6', '5000.00').size).toBe(Infinity);
  });

  it('refuses a price that is not a decimal string, off the tick grid, or too many ticks to be exact', () => {
    expect(refusal('5e3')).toBe('price: expected a decimal string such as "5000.25", got "5e3"');
    expect(refusal('5000.10')).toBe('price: expected a price on the ES tick grid (tick 0.25), got "5000.10"');
    // 10^23 / 0.25 ticks: far past 2^53, where integer ticks stop being exact.
    expect(refusal('99999999999999999999999.25')).toBe(
      'price: expected a price below 2^53 ticks, got "99999999999999999999999.25"',
    );
  });
});
