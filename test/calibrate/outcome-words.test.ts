// The outcome comparison in words (src/calibrate/outcome-words.ts), on hand-made counts: the table, the verdict
// either way, and the power sentence (docs/backtesting.md#outcomes-under-a-plan).
import { describe, expect, it } from 'vitest';
import { incidenceDays, outcomeTable, outcomeVerdict, powerWords } from '../../src/calibrate/outcome-words.js';
import type { GroupOutcomes, PlanOutcomes } from '../../src/calibrate/plan-outcomes.js';

const plan = { name: 'eval-50k-eod', path: 'eval-50k-eod.yaml', fields: {} };

/** A group of `traders` that failed on the days listed (one trader a day listed) and passed `passed`. */
function group(traders: number, passed: number, failedOn: number[], days: number): GroupOutcomes {
  const failedByDay = Array.from({ length: days }, (_, d) => failedOn.filter((day) => day <= d + 1).length / traders);
  return { traders, passed, failed: failedOn.length, open: traders - passed - failedOn.length, failedByDay };
}

/**
 * Held-out: 20 traders, 1 passed, 3 failed (days 2, 7, 12), 16 open. Kinds: 80, 4 passed, 22 failed (11 on day 3,
 * 11 on day 11), 54 open; p as each test sets it.
 */
const HAND: PlanOutcomes = {
  plan,
  days: 12,
  heldOut: group(20, 1, [2, 7, 12], 12),
  kinds: group(80, 4, [...Array<number>(11).fill(3), ...Array<number>(11).fill(11)], 12),
  idle: 0,
  p: 0.5,
};

describe('the outcome comparison in words', () => {
  it('days 5, 10 and the last, those in the period', () => {
    expect(incidenceDays(21)).toEqual([5, 10, 21]);
    expect(incidenceDays(10)).toEqual([5, 10]);
    expect(incidenceDays(3)).toEqual([3]);
  });

  it('a table of counts and shares, then the share failed by day 5, 10 and the last', () => {
    const lines = outcomeTable(HAND).trimEnd().split('\n');
    expect(lines.map((l) => l.split(/\s{2,}/))).toEqual([
      ['first evaluation', 'held-out traders', 'synthetic kinds'],
      ['passed', '1 (5.0 %)', '4 (5.0 %)'],
      ['failed', '3 (15.0 %)', '22 (27.5 %)'],
      ['open at the end', '16 (80.0 %)', '54 (67.5 %)'],
      // By day 5: 1 of 20 = 5 %, 11 of 80 = 13.75 % (13.8); day 10: 2/20 and 11/80; day 12: 3/20 and 22/80.
      ['failed by day 5', '5.0 %', '13.8 %'],
      ['failed by day 10', '10.0 %', '13.8 %'],
      ['failed by day 12 (the last)', '15.0 %', '27.5 %'],
    ]);
  });

  it('the verdict: the kinds first, then the held-out traders; "do not" under 0.05', () => {
    const o = { ...HAND, p: 0.0031 };
    expect(outcomeVerdict(o)).toBe(
      "the kinds do not reproduce the held-out traders' outcomes: passed 5.0 % against 5.0 %, failed 27.5 % against 15.0 %, open 67.5 % against 80.0 % (p = 0.0031)",
    );
    expect(outcomeVerdict({ ...o, p: 0.81 })).toBe(
      "the kinds reproduce the held-out traders' outcomes: passed 5.0 % against 5.0 %, failed 27.5 % against 15.0 %, open 67.5 % against 80.0 % (p = 0.8100, no evidence of a difference)",
    );
    expect(outcomeVerdict({ ...o, p: 0.00001 })).toContain('(p < 0.0001)');
  });

  it('the power sentence: what this run tells, and the held-out traders 10 points need', () => {
    // 20 held-out and 80 synthetic, 3 + 22 = 25 failed of 100: p = 0.25, V = 7.848880 × (1/20 + 1/80) = 0.490555,
    // (1 + V/4) δ² − V (0.5)/2 δ − V × 0.1875 = 0: 1.122639 δ² − 0.122639 δ − 0.091979 = 0,
    // δ = (0.122639 + √(0.015040 + 0.413038)) / 2.245278 = (0.122639 + 0.654277) / 2.245278 = 0.346 → 35 points.
    // 10 points: m = 0.30, 7.848880 × 0.21 × 1.25 / 0.01 = 206.03 → 207.
    expect(powerWords(HAND)).toBe(
      'with 20 held-out traders and 80 synthetic this cannot tell differences in the failure share under about 35 points (80 % power at 0.05); about 207 held-out traders, with 4 synthetic to each, would tell 10',
    );
    // 600 held-out and 2,400 synthetic, 25 % failed: V = 7.848880 × (1/600 + 1/2400) = 0.016352, δ = 0.0573 → 6
    // points, under 10: nothing more to ask.
    const many: PlanOutcomes = {
      ...HAND,
      heldOut: { ...HAND.heldOut, traders: 600, failed: 150 },
      kinds: { ...HAND.kinds, traders: 2400, failed: 600 },
    };
    expect(powerWords(many)).toBe(
      'with 600 held-out traders and 2400 synthetic this tells differences in the failure share of about 6 points (80 % power at 0.05)',
    );
  });
});
