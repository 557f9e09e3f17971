// How a stage judges its candidates (docs/optimizing.md#the-search), with hand-made intervals.
import { describe, expect, it } from 'vitest';
import {
  judgeStage,
  objectiveBound,
  rankEvaluations,
  type Evaluation,
} from '../../../src/backtest/optimize/candidate-ranking.js';
import { firstStageTraders, stagesToOne } from '../../../src/backtest/optimize/run-optimize.js';
import type { Constraint, OptimizeConfig } from '../../../src/backtest/optimize/optimize-config.js';

/** A candidate with a pass rate, a failure rate and a net per trader (cents), each with its interval. */
function evaluation(candidate: number, pass: [number, number, number], net: [number, number, number]): Evaluation {
  const estimate = ([value, low, high]: [number, number, number]) => ({ value, low, high });
  return {
    candidate,
    metrics: { pass_rate: estimate(pass), fail_rate: estimate([0.5, 0.4, 0.6]), net_per_trader: estimate(net) },
  };
}

const maximizeNet = { direction: 'maximize', metric: 'net_per_trader' } as const;

describe('ranking candidates', () => {
  it('ranks by the lower bound when maximizing, not the value: a lucky estimate on few traders does not win', () => {
    const lucky = evaluation(0, [0.1, 0, 0.3], [9000, -2000, 20000]); // $90.00 a trader, but as low as −$20.00
    const steady = evaluation(1, [0.1, 0, 0.3], [5000, 3000, 7000]); // $50.00, at least $30.00
    expect(rankEvaluations([lucky, steady], maximizeNet).map((e) => e.candidate)).toEqual([1, 0]);
    expect(objectiveBound(steady.metrics, maximizeNet)).toBe(3000);
  });

  it('ranks by the upper bound when minimizing, then by value, then by the lower index', () => {
    const minimizePass = { direction: 'minimize', metric: 'pass_rate' } as const;
    const a = evaluation(0, [0.05, 0.01, 0.2], [0, 0, 0]);
    const b = evaluation(1, [0.04, 0.01, 0.2], [0, 0, 0]); // same upper bound 0.2, lower value: first
    const c = evaluation(2, [0.1, 0.05, 0.15], [0, 0, 0]); // upper bound 0.15: best
    const d = evaluation(3, [0.05, 0.01, 0.2], [0, 0, 0]); // ties a entirely: after it by index
    expect(rankEvaluations([a, b, c, d], minimizePass).map((e) => e.candidate)).toEqual([2, 1, 0, 3]);
  });

  it('keeps the best third, rounded up, of 7 candidates: 3', () => {
    const seven = [0, 1, 2, 3, 4, 5, 6].map((i) => evaluation(i, [0.1, 0, 0.2], [i * 100, i * 100 - 50, i * 100 + 50]));
    // Lower bounds 6×100−50 = 550, 450, 350 are the best three; ⌈7 / 3⌉ = 3.
    expect(judgeStage(seven, maximizeNet, []).kept).toEqual([6, 5, 4]);
  });

  it('drops a candidate whose interval lies entirely outside a bound, and keeps one that straddles it', () => {
    const passMin: Constraint[] = [{ metric: 'pass_rate', min: 0.06, text: { min: '0.06' } }];
    const outside = evaluation(0, [0.02, 0.01, 0.05], [9000, 8000, 10000]); // high 0.05 < 0.06: dropped
    const straddles = evaluation(1, [0.05, 0.02, 0.09], [100, 0, 200]); // 0.02 to 0.09 holds 0.06: kept
    const inside = evaluation(2, [0.08, 0.07, 0.1], [50, -10, 100]);
    const verdict = judgeStage([outside, straddles, inside], maximizeNet, passMin);
    expect(verdict.dropped).toEqual([0]);
    // ⌈3 / 3⌉ = 1 kept: the best lower bound of the two left (0 against −10).
    expect(verdict.kept).toEqual([1]);
    expect(verdict.ranked).toEqual([1, 2]);
  });

  it('when every candidate is outside the constraints, the search goes on with the best third of all', () => {
    const failMax: Constraint[] = [{ metric: 'fail_rate', max: 0.3, text: { max: '0.3' } }]; // every low is 0.4
    const all = [0, 1, 2].map((i) => evaluation(i, [0.1, 0, 0.2], [i, i, i]));
    const verdict = judgeStage(all, maximizeNet, failMax);
    expect(verdict.dropped).toEqual([0, 1, 2]);
    expect(verdict.kept).toEqual([2]);
  });
});

describe('the stages', () => {
  it('200 candidates take 5 stages to one (200 → 67 → 23 → 8 → 3 → 1); 1 candidate takes none', () => {
    expect(stagesToOne(200)).toBe(5);
    expect(stagesToOne(6)).toBe(2); // 6 → 2 → 1
    expect(stagesToOne(1)).toBe(0);
  });

  it("the first stage runs the config's traders halved once per later stage, at least one per block", () => {
    const config = (synthetic: number[], startTraders?: number) =>
      ({
        backtest: { synthetic: synthetic.map((count) => ({ count, strategy: 'random_bracket', params: {} })) },
        ...(startTraders === undefined ? {} : { startTraders }),
      }) as unknown as OptimizeConfig;
    // 240 traders, 5 stages: 240 / 2⁴ = 15, doubling to 30, 60, 120, 240.
    expect(firstStageTraders(config([80, 80, 80]), 5)).toBe(15);
    // 10 traders over 3 blocks, 5 stages: ⌈10 / 16⌉ = 1, raised to 3 (one per block).
    expect(firstStageTraders(config([4, 3, 3]), 5)).toBe(3);
    expect(firstStageTraders(config([80, 80, 80], 40), 5)).toBe(40);
  });
});
