// The Fisher–Freeman–Halton exact test of a 2 × 3 table (src/calibrate/freeman-halton.ts): under fixed margins a
// table has the multivariate hypergeometric probability r₁! r₂! c₁! c₂! c₃! / (N! Π xᵢⱼ!), and p sums the probabilities
// of every table no more probable than the one observed. The tables below are enumerated by hand.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { freemanHaltonP } from '../../src/calibrate/freeman-halton.js';

describe('Fisher–Freeman–Halton exact test of a 2 × 3 table', () => {
  it('rows 3 and 3, columns 3, 2, 1: six tables, p = 1/10 for the most extreme', () => {
    // N = 6; r₁! r₂! c₁! c₂! c₃! / N! = 6·6·6·2·1 / 720 = 0.6. The first row (a, b, c) fixes the table:
    //   (3,0,0) over (0,2,1): 0.6 / (3!·2!)     = 0.05      (2,1,0) over (1,1,1): 0.6 / 2!          = 0.30
    //   (2,0,1) over (1,2,0): 0.6 / (2!·2!)     = 0.15      (1,2,0) over (2,0,1): 0.6 / (2!·2!)     = 0.15
    //   (1,1,1) over (2,1,0): 0.6 / 2!          = 0.30      (0,2,1) over (3,0,0): 0.6 / (2!·3!)     = 0.05
    // They sum to 1. (3,0,0) is as probable as (0,2,1) and no other is as improbable: p = 0.05 + 0.05 = 0.1.
    expect(freemanHaltonP([3, 0, 0], [0, 2, 1])).toBeCloseTo(0.1, 12);
    // (2,0,1) ties (1,2,0) at 0.15 (floating point must not break the tie), and the two 0.05s are below:
    // p = 0.15 + 0.15 + 0.05 + 0.05 = 0.4.
    expect(freemanHaltonP([2, 0, 1], [1, 2, 0])).toBeCloseTo(0.4, 12);
    // The most probable tables (0.30) leave nothing out: p = 1.
    expect(freemanHaltonP([2, 1, 0], [1, 1, 1])).toBeCloseTo(1, 12);
  });

  it('an empty column is Fisher’s exact test of the 2 × 2 left: the lady tasting tea, p = 34/70', () => {
    // Rows 4 and 4, columns 4 and 4: the first cell k = 0..4 has probability C(4,k)·C(4,4−k)/C(8,4) =
    // 1, 16, 36, 16, 1 over 70. Observed k = 3 (16/70): p = (1 + 16 + 16 + 1)/70 = 34/70 = 0.485714.
    expect(freemanHaltonP([3, 1, 0], [1, 3, 0])).toBeCloseTo(34 / 70, 12);
    expect(freemanHaltonP([0, 3, 1], [0, 1, 3])).toBeCloseTo(34 / 70, 12);
  });

  it('the same p whichever row or column comes first', () => {
    const p = freemanHaltonP([3, 0, 0], [0, 2, 1]);
    expect(freemanHaltonP([0, 2, 1], [3, 0, 0])).toBeCloseTo(p, 12);
    expect(freemanHaltonP([0, 0, 3], [1, 2, 0])).toBeCloseTo(p, 12);
  });

  it('hundreds of traders: no overflow (171! is past a double), p in (0, 1], a tiny p for a large difference', () => {
    // 400 held-out and 1,600 synthetic traders with the same shares: every count in proportion, p = 1
    // (no table is more probable than the one at the margins' proportions, to within the tie tolerance).
    expect(freemanHaltonP([20, 60, 320], [80, 240, 1280])).toBeCloseTo(1, 6);
    // Failed 15 % of 400 against 27.5 % of 1,600 (60 against 440): far past chance.
    const p = freemanHaltonP([20, 60, 320], [80, 440, 1080]);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-6);
  });

  it('agrees with whole-number arithmetic on every small table (ties decided exactly)', () => {
    // Every table of given margins shares r₁! r₂! c₁! c₂! c₃! / N!, so one is no more probable than the observed
    // exactly when its Π xᵢⱼ! is at least the observed one's, compared as BigInts; p = Σ over those of K / Π xᵢⱼ!.
    const factorial = (n: number): bigint => (n <= 1 ? 1n : BigInt(n) * factorial(n - 1));
    const cells = fc.integer({ min: 0, max: 6 });
    fc.assert(
      fc.property(fc.tuple(cells, cells, cells), fc.tuple(cells, cells, cells), (first, second) => {
        const columns = first.map((x, j) => x + second[j]!);
        const rows = [first, second].map((r) => r.reduce((a, b) => a + b, 0));
        const total = rows[0]! + rows[1]!;
        const k = [...rows, ...columns].reduce((s, n) => s * factorial(n), 1n);
        const denominator = (row: readonly number[]) =>
          row.reduce((s, x, j) => s * factorial(x) * factorial(columns[j]! - x), 1n) * factorial(total);
        const observed = denominator(first);
        let p = 0;
        for (let a = 0; a <= columns[0]!; a++)
          for (let b = 0; b <= columns[1]!; b++) {
            const c = rows[0]! - a - b;
            if (c < 0 || c > columns[2]!) continue;
            const d = denominator([a, b, c]);
            if (d >= observed) p += Number((k * 10n ** 15n) / d) / 1e15;
          }
        expect(freemanHaltonP(first, second)).toBeCloseTo(Math.min(1, p), 9);
      }),
    );
  });

  it('refuses counts that are not whole numbers ≥ 0', () => {
    expect(() => freemanHaltonP([1, -1, 0], [0, 0, 1])).toThrow(/whole numbers ≥ 0/);
    expect(() => freemanHaltonP([1, 0.5, 0], [0, 0, 1])).toThrow(/whole numbers ≥ 0/);
  });
});
