// How stable the search's choice is (docs/optimizing.md#how-stable-the-choice-is): bootstrap resamples of the last
// stage's traders, the same draw for every candidate, on hand-made cells whose chances can be counted.
import { describe, expect, it } from 'vitest';
import { choiceStability, STABILITY_RESAMPLES } from '../../../src/backtest/optimize/choice-stability.js';
import type { Constraint } from '../../../src/backtest/optimize/optimize-config.js';
import type { CellResult } from '../../../src/backtest/cells/cell-runner.js';

/** A candidate's cell: one trader per entry, its net in cents and its outcome. */
function cell(index: number, traders: Array<[number, 'passed' | 'failed' | 'active']>): CellResult {
  return {
    cell: { index, values: {}, label: `#${index}` },
    traders: traders.map(([netCents, outcome], i) => ({ trader: `t${i}`, netCents, outcome })),
  } as unknown as CellResult;
}

/** Candidates #0, #1, … whose traders net these cents, none passing or failing. */
const byNets = (...nets: number[][]) =>
  nets.map((n, index) =>
    cell(
      index,
      n.map((x) => [x, 'active']),
    ),
  );

const maximizeNet = { direction: 'maximize', metric: 'net_per_trader' } as const;
const many = 40_000; // sd of a share near ½: √(¼ / 40,000) = 0.0025

describe('the stability of the search’s choice', () => {
  it('two traders, A nets 100 and 0, B 0 and 50: A ranks first unless both draws are the second trader, 3/4', () => {
    // Draws (1st, 1st): A 200, B 0; (1st, 2nd) either way: A 100, B 50; (2nd, 2nd): A 0, B 100. A wins 3 of 4.
    const cells = byNets([100, 0], [0, 50]);
    expect(Math.abs(choiceStability(cells, 0, maximizeNet, [], 7, many)! - 0.75)).toBeLessThan(0.01);
    expect(Math.abs(choiceStability(cells, 1, maximizeNet, [], 7, many)! - 0.25)).toBeLessThan(0.01);
  });

  it('a first place shared by two counts a half: A 100 and 0 against B 0 and 100 holds in 1/4 + 1/2 × 1/2 = 1/2', () => {
    const cells = byNets([100, 0], [0, 100]);
    expect(Math.abs(choiceStability(cells, 0, maximizeNet, [], 7, many)! - 0.5)).toBeLessThan(0.01);
  });

  it('ranks only candidates whose values meet the constraints, all of them when none does', () => {
    // A nets more from both traders but passes nobody; B passes the first trader. With pass_rate ≥ 0.5, B is the
    // only candidate inside whenever the first trader is drawn (3 of 4), and ranks first; otherwise neither is
    // inside, both rank, and A's net wins. So B holds in 3/4, A in 1/4.
    const passFloor: Constraint[] = [{ metric: 'pass_rate', min: 0.5, text: { min: '0.5' } }];
    const cells = [
      cell(0, [
        [100, 'failed'],
        [100, 'failed'],
      ]),
      cell(1, [
        [0, 'passed'],
        [0, 'failed'],
      ]),
    ];
    expect(Math.abs(choiceStability(cells, 1, maximizeNet, passFloor, 7, many)! - 0.75)).toBeLessThan(0.01);
    expect(Math.abs(choiceStability(cells, 0, maximizeNet, passFloor, 7, many)! - 0.25)).toBeLessThan(0.01);
  });

  it('minimizing, the smallest rate ranks first', () => {
    // A fails the first trader, B the second and third: A fails fewer in a resample unless it draws the first
    // trader more often than the other two together. Of the 27 draws of three, A has fewer failures in 20 (A's count
    // k of first-trader draws against 3 − k: k = 0 in 8, k = 1 in 12) and none tie, so A holds in 20/27 = 0.7407.
    const minimizeFail = { direction: 'minimize', metric: 'fail_rate' } as const;
    const cells = [
      cell(0, [
        [0, 'failed'],
        [0, 'active'],
        [0, 'active'],
      ]),
      cell(1, [
        [0, 'active'],
        [0, 'failed'],
        [0, 'failed'],
      ]),
    ];
    expect(Math.abs(choiceStability(cells, 0, minimizeFail, [], 7, many)! - 20 / 27)).toBeLessThan(0.01);
  });

  it('draws the same resamples for a seed, other ones for another; 1,000 by default; null without traders', () => {
    const cells = byNets([100, 0, 30], [0, 50, 40]);
    const once = choiceStability(cells, 0, maximizeNet, [], 11);
    expect(choiceStability(cells, 0, maximizeNet, [], 11)).toBe(once);
    expect(choiceStability(cells, 0, maximizeNet, [], 12)).not.toBe(once);
    expect(STABILITY_RESAMPLES).toBe(1000);
    expect(choiceStability([cell(0, [])], 0, maximizeNet, [], 11)).toBeNull();
  });
});
