// Signal or noise in a back-test (docs/backtesting.md#signal-or-noise): the numbers below are worked by hand.
import { describe, expect, it } from 'vitest';
import {
  fourPlaces,
  holmAdjusted,
  mcnemarExactP,
  pairedCounts,
  pairedDifferenceInterval,
  wilsonInterval,
  Z_95,
} from '../../../src/backtest/stats/statistics.js';
import {
  detectableDifference,
  detectableRateDifference,
  fewestDiscordant,
  normalQuantile,
  tradersForDifference,
  Z_POWER_80,
  zForComparisons,
} from '../../../src/backtest/stats/detectable-difference.js';
import type { Decision } from '../../../src/backtest/stats/decisions.js';
import { decisionSentence, guidanceSentence } from '../../../src/reports/signal-or-noise.js';

const interval = (passed: number, n: number) => {
  const { low, high } = wilsonInterval(passed, n);
  return [fourPlaces(low), fourPlaces(high)];
};

describe('pass rate with a 95% Wilson interval', () => {
  it('7 of 240: centre (7/240 + z²/480) / (1 + z²/240) = 0.036584, half-width 0.022386', () => {
    // z² = 3.841459: 1 + z²/240 = 1.016006; √(p(1−p)/240 + z²/230400) = √0.000134657 = 0.011604; × z / 1.016006.
    expect(interval(7, 240)).toEqual(['0.0142', '0.0590']);
  });

  it('prints a rate as summarizeCell does, half to even on the number as written: 3/20,000 = 0.00015 is 0.0002', () => {
    expect(fourPlaces(3 / 20_000)).toBe('0.0002'); // (0.00015).toFixed(4) gives 0.0001: the double is under .00015
    expect(fourPlaces(1 / 20_000)).toBe('0.0000'); // 0.00005, half to even
    expect(fourPlaces(0.12346)).toBe('0.1235');
  });

  it('stays inside [0, 1] at 0 and at n passers, and is [0, 0] with no accounts', () => {
    expect(interval(0, 240)[0]).toBe('0.0000');
    expect(interval(240, 240)[1]).toBe('1.0000');
    expect(interval(0, 0)).toEqual(['0.0000', '0.0000']);
  });

  it('has 0 exactly as its low bound at 0 passers, and 1 as its high at n (never an ulp inside the estimate)', () => {
    // 0 of 3 gave a low bound of 5.6e-17 from the centre − half-width arithmetic: a constraint "at most 0" then
    // read the interval as lying above 0.
    for (let n = 1; n <= 2_000; n++) {
      expect(wilsonInterval(0, n).low, `0 of ${n}`).toBe(0);
      expect(wilsonInterval(n, n).high, `${n} of ${n}`).toBe(1);
    }
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

  it('keeps its two-sided exact p for a failure rate, the same test on failed / not failed', () => {
    // 12 traders fail only in the cell, 2 only in the reference: p = 2 · (1 + 14 + 91) / 2^14 = 212 / 16384.
    expect(mcnemarExactP({ onlyFirst: 2, onlySecond: 12 })).toBeCloseTo(212 / 16384, 12);
  });
});

describe('the 95% interval of a paired difference in rates (Newcombe, method 10)', () => {
  const interval = (both: number, onlyFirst: number, onlySecond: number, n: number) => {
    const { low, high } = pairedDifferenceInterval({ both, onlyFirst, onlySecond }, n);
    return [fourPlaces(low), fourPlaces(high)];
  };

  it("reproduces Newcombe's (1998) worked examples: 36/12/2/0 gives 0.0569 to 0.3404, 5/5/0/0 gives 0.1173 to 0.7634", () => {
    // (a) 36 both, 12 only in the second, 2 only in the first, none in neither: 0.2 = (12 − 2) / 50.
    // Wilson 48/50 = [0.8654, 0.9890], 38/50 = [0.6333, 0.8566]; φ = (0 − 24) / √(48 · 2 · 38 · 12) = −0.1260;
    // low = 0.2 − √(0.0946² + 2 · 0.1260 · 0.0946 · 0.0966 + 0.0966²) = 0.0569.
    expect(interval(36, 2, 12, 50)).toEqual(['0.0569', '0.3404']);
    // (b) 5 both, 5 only in the second: φ = 0 (no trader fails both), the Wilson halves join as independent.
    // Newcombe prints 0.1173, his z being 1.96; with z = 1.959964 the low end is 0.11737.
    const b = pairedDifferenceInterval({ both: 5, onlyFirst: 0, onlySecond: 5 }, 10);
    expect(b.low).toBeCloseTo(0.1173, 3);
    expect(b.high).toBeCloseTo(0.7634, 3);
  });

  it('is centred on the difference, second − first, and is [0, 0] with no traders', () => {
    const { low, high } = pairedDifferenceInterval({ both: 5, onlyFirst: 2, onlySecond: 8 }, 100);
    expect(low).toBeLessThan(0.06); // (8 − 2) / 100
    expect(high).toBeGreaterThan(0.06);
    expect(pairedDifferenceInterval({ both: 0, onlyFirst: 0, onlySecond: 0 }, 0)).toEqual({ low: 0, high: 0 });
  });
});

describe("Holm's adjustment over every comparison a run reports", () => {
  it('multiplies the i-th smallest p by m − i + 1 and keeps the order: a hand example', () => {
    // Sorted: 0.005 × 4 = 0.02; 0.01 × 3 = 0.03; 0.03 × 2 = 0.06; 0.04 × 1 = 0.04, raised to 0.06 (never below the
    // previous step). Returned in the order given.
    const adjusted = holmAdjusted([0.01, 0.04, 0.03, 0.005]);
    expect(adjusted.map((p) => p.toFixed(4))).toEqual(['0.0300', '0.0600', '0.0600', '0.0200']);
  });

  it('caps at 1 and leaves one comparison as it was', () => {
    expect(holmAdjusted([0.6, 0.7])).toEqual([1, 1]);
    expect(holmAdjusted([0.03])).toEqual([0.03]);
    expect(holmAdjusted([])).toEqual([]);
  });
});

describe('the smallest difference a paired run detects, and the traders a question needs', () => {
  it('z of the strictest Holm step: Φ⁻¹(1 − 0.05/2) = 1.959964 for one comparison, Φ⁻¹(1 − 0.05/66) = 3.171766 for 33', () => {
    expect(zForComparisons(1)).toBeCloseTo(Z_95, 8);
    expect(zForComparisons(33)).toBeCloseTo(3.1717657833516224, 8);
    expect(normalQuantile(0.8)).toBeCloseTo(Z_POWER_80, 8);
    expect(() => normalQuantile(1)).toThrow(/strictly between 0 and 1/);
  });

  it('from the observed discordance: 20 discordant of 240, 33 comparisons: (3.171766 + 0.841621) · √20 / 240 = 0.0748', () => {
    expect(fourPlaces(detectableDifference(20, 240, zForComparisons(33)))).toBe('0.0748');
    // Not the independent-groups formula: near 4 % that would be 4.0134 · √(2 · 0.04 · 0.96 / 240) = 0.0718,
    // whatever the traders did; here fewer discordant traders resolve less: 5 of 240 give 0.0374.
    expect(fourPlaces(detectableDifference(5, 240, zForComparisons(33)))).toBe('0.0374');
  });

  it('an exact test needs 11 traders all one way for 33 comparisons: 2 / 2^10 < 0.05 / 33 ≤ 2 / 2^9', () => {
    expect(fewestDiscordant(33)).toBe(11);
    expect(fewestDiscordant(1)).toBe(6); // 2 / 2^6 = 0.031 < 0.05 ≤ 2 / 2^5
  });

  it('traders needed for 2 points at 5 % discordance, one comparison: ⌈7.848880 · 0.05 / 0.0004⌉ = 982', () => {
    // (1.959964 + 0.841621)² = 7.848880; × 0.05 / 0.02² = 981.11.
    expect(tradersForDifference(0.02, 0.05, 1)).toBe(982);
  });

  it('never below what an exact test needs: 11 discordant traders for 33 comparisons', () => {
    // No discordant trader of 240: 11 / 240 = 0.0458, not 0.
    expect(fourPlaces(detectableRateDifference(0, 240, 33))).toBe('0.0458');
    // 20 discordant: the power formula's 0.0748 is above 11 / 240 and stands.
    expect(fourPlaces(detectableRateDifference(20, 240, 33))).toBe('0.0748');
    // 0.1 % discordance, 2 points: ⌈16.1073 · 0.001 / 0.0004⌉ = 41 by power, but 11 / 0.02 = 550 traders.
    expect(tradersForDifference(0.02, 0.001, 33)).toBe(550);
  });
});

describe('in sentences', () => {
  const decision: Decision = {
    cell: 3,
    reference: 0,
    metric: 'pass_rate',
    difference: 0.0125,
    low: -0.004,
    high: 0.031,
    p: 0.0703,
    pAdjusted: 1,
    verdict: 'no_evidence',
    // Holm's level for it: 0.05 · 0.0703 / 1, a 99.65 % interval.
    level: 0.003515,
    moved: 9,
    detectable: 0.0458,
  };

  it("a decision says its difference, its interval at Holm's level, p before and after Holm, and what the run could have seen", () => {
    expect(decisionSentence(decision, 33)).toBe(
      "#3 against #0, pass rate: +1.3 points (99.65% interval −0.4 points to +3.1 points, Holm's level for this comparison), p = 0.0703, 1.0000 after Holm's correction for 33 comparisons: no evidence of a difference; this run would detect about 4.6 points.",
    );
    const worse = {
      ...decision,
      metric: 'net_per_trader' as const,
      difference: -2766,
      low: -4010,
      high: -1500,
      p: 0.00002,
      pAdjusted: 0.00066,
      level: 0.05 / 33,
      verdict: 'differs' as const,
    };
    expect(decisionSentence(worse, 33)).toBe(
      "#3 against #0, net per trader: −$27.66 (99.85% interval −$40.10 to −$15.00, Holm's level for this comparison), p < 0.0001, 0.0007 after Holm's correction for 33 comparisons: differs, worse for the firm.",
    );
    expect(decisionSentence({ ...worse, restsOn: { traders: 2.4, settle: 1_000 } }, 33)).toMatch(
      /differs, worse for the firm; it rests on about 2.4 traders \(a few large nets carry it\); about 1,000 traders a cell would hold ten\.$/,
    );
    // Fee income only: more or less of it, not better or worse for the firm.
    expect(decisionSentence(worse, 33, true)).toMatch(/: differs, less fee income\.$/);
  });

  it('a rate that differs says which way the traders moved; nothing that moved is said, not a detectable 0', () => {
    expect(decisionSentence({ ...decision, verdict: 'differs', pAdjusted: 0.01, difference: -0.154 }, 33)).toMatch(
      /: differs, fewer traders pass\.$/,
    );
    const still = {
      ...decision,
      metric: 'net_per_trader' as const,
      moved: 0,
      detectable: null,
      difference: 0,
      low: 0,
      high: 0,
    };
    expect(decisionSentence(still, 33)).toMatch(
      /no evidence of a difference; no trader's net moved between the two cells\.$/,
    );
  });

  it('guidance reads from the discordance, with the same formula, gives its range and says how to run more traders', () => {
    const guidance = {
      traders: 240,
      meanPassRate: 0.04,
      discordance: 0.05,
      discordanceRange: { low: 0.0288, high: 0.0855 },
      detectableDifference: 0.0458,
      tradersFor: [{ difference: 0.02, traders: 982, low: 566, high: 1678 }],
    };
    const head =
      "With 240 traders a cell, 5.0% of them pass in one cell and not in #0 on average, so this run resolves differences in pass rate of about 4.6 points (80% power, at the level Holm's correction sets for 33 comparisons). Traders a cell needed, at the same discordance: 982 (566 to 1,678) for 2.0 points; each range is what the discordance's 95% interval (2.9% to 8.6%) gives, since another seed draws other traders";
    expect(
      guidanceSentence(guidance, 0, 33, { synthetic: [{ count: 240, strategy: 'random_bracket', params: {} }] }),
    ).toBe(`${head} (run with --traders N, or set the config's traders.synthetic counts).`);
    // --traders is refused without synthetic traders: the traders are the fills file's.
    expect(guidanceSentence(guidance, 0, 33, { synthetic: [] })).toBe(
      `${head} (add traders to the fills file, or traders.synthetic blocks to the config; --traders sets only synthetic traders, and this config has none).`,
    );
  });
});
