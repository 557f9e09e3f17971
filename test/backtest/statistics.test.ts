// Signal or noise in a back-test (docs/backtesting.md#signal-or-noise): the numbers below are worked by hand.
import { describe, expect, it } from 'vitest';
import {
  detectableDifference,
  fourPlaces,
  mcnemarExactP,
  pairedCounts,
  tradersForDifference,
  wilsonInterval,
} from '../../src/backtest/statistics.js';
import { comparisonSentence, guidanceSentence, type CellComparison } from '../../src/backtest/signal-or-noise.js';

const interval = (passed: number, n: number) => {
  const { low, high } = wilsonInterval(passed, n);
  return [fourPlaces(low), fourPlaces(high)];
};

describe('pass rate with a 95% Wilson interval', () => {
  it('7 of 240: centre (7/240 + z²/480) / (1 + z²/240) = 0.036584, half-width 0.022386', () => {
    // z² = 3.841459: 1 + z²/240 = 1.016006; √(p(1−p)/240 + z²/230400) = √0.000134657 = 0.011604; × z / 1.016006.
    expect(interval(7, 240)).toEqual(['0.0142', '0.0590']);
  });

  it('stays inside [0, 1] at 0 and at n passers, and is [0, 0] with no accounts', () => {
    expect(interval(0, 240)[0]).toBe('0.0000');
    expect(interval(240, 240)[1]).toBe('1.0000');
    expect(interval(0, 0)).toEqual(['0.0000', '0.0000']);
  });
});

describe('paired comparison of two cells (exact McNemar)', () => {
  it('counts the traders that passed in one cell only', () => {
    expect(pairedCounts([true, true, false, false], [true, false, true, true])).toEqual({
      onlyFirst: 1,
      onlySecond: 2,
    });
    expect(() => pairedCounts([true], [true, false])).toThrow(/same traders/);
  });

  it('7 against 10 passers, 2 and 5 discordant: p = 2 · (1 + 7 + 21) / 2^7 = 0.453125, within noise', () => {
    expect(mcnemarExactP({ onlyFirst: 2, onlySecond: 5 })).toBeCloseTo(0.453125, 12);
    expect(mcnemarExactP({ onlyFirst: 5, onlySecond: 2 })).toBeCloseTo(0.453125, 12);
  });

  it('no discordant trader: p = 1; one: p = 1 (a coin cannot say anything from one toss)', () => {
    expect(mcnemarExactP({ onlyFirst: 0, onlySecond: 0 })).toBe(1);
    expect(mcnemarExactP({ onlyFirst: 0, onlySecond: 1 })).toBe(1);
  });

  it('sees a real difference that two independent intervals miss: 10 against 20 of 240, nested passers', () => {
    // Wilson: 10/240 → [0.0228, 0.0750], 20/240 → [0.0546, 0.1252]: they overlap.
    expect(interval(10, 240)).toEqual(['0.0228', '0.0750']);
    expect(interval(20, 240)).toEqual(['0.0546', '0.1252']);
    // Paired: every passer of the first cell also passes in the second, so 10 discordant, all one way:
    // p = 2 / 2^10 = 0.001953.
    const first = Array.from({ length: 240 }, (_, i) => i < 10);
    const second = Array.from({ length: 240 }, (_, i) => i < 20);
    expect(mcnemarExactP(pairedCounts(first, second))).toBeCloseTo(2 / 1024, 12);
  });

  it('does not overflow with thousands of discordant traders', () => {
    const p = mcnemarExactP({ onlyFirst: 2000, onlySecond: 2000 });
    expect(p).toBeGreaterThan(0.9);
    expect(p).toBeLessThanOrEqual(1);
    expect(mcnemarExactP({ onlyFirst: 1900, onlySecond: 2100 })).toBeLessThan(0.01);
  });

  it('says which it is in a sentence', () => {
    const comparison: CellComparison = {
      first: 0,
      second: 3,
      passedFirst: 7,
      passedSecond: 10,
      traders: 240,
      onlyFirst: 2,
      onlySecond: 5,
      pValue: 0.453125,
      withinNoise: true,
    };
    expect(comparisonSentence(comparison)).toBe(
      '#3 against #0: 10 against 7 passers of 240; 5 traders passed only in #3, 2 traders only in #0 (McNemar exact p = 0.453): within noise.',
    );
    expect(
      comparisonSentence({ ...comparison, onlyFirst: 0, onlySecond: 10, pValue: 0.00195, withinNoise: false }),
    ).toMatch(/none only in #0 \(McNemar exact p = 0\.002\): a real difference\.$/);
  });
});

describe('how many traders a question needs', () => {
  it('240 traders near 4%: 2.8016 · √(2 · 0.04 · 0.96 / 240) = 0.0501, five points', () => {
    expect(fourPlaces(detectableDifference(240, 0.04))).toBe('0.0501');
  });

  it('two points near 4%: 7.8489 · 0.0768 / 0.0004 = 1,506.98, so 1,507 traders a cell', () => {
    expect(tradersForDifference(0.02, 0.04)).toBe(1507);
  });

  it('reads as guidance', () => {
    expect(
      guidanceSentence({
        traders: 240,
        meanPassRate: 0.04,
        detectableDifference: 0.0501162,
        tradersFor: [{ difference: 0.02, traders: 1507 }],
      }),
    ).toBe(
      "With 240 traders a cell and pass rates near 4.0%, differences under about 5.0 points cannot be told from noise (95% confidence, 80% power; paired cells resolve somewhat less). Traders a cell needed: 1,507 for 2.0 points (run with --traders N, or set the config's traders.synthetic counts).",
    );
  });
});
