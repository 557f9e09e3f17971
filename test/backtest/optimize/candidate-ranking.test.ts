// How a stage judges its candidates (docs/optimizing.md#the-search), with hand-made intervals.
import { describe, expect, it } from 'vitest';
import {
  judgeStage,
  objectiveBound,
  rankEvaluations,
  withinBudget,
  type Evaluation,
} from '../../../src/backtest/optimize/candidate-ranking.js';
import { tradersToJudge } from '../../../src/backtest/optimize/judgeable-traders.js';
import { wilsonInterval } from '../../../src/backtest/stats/statistics.js';
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

  it('keeps the best third, rounded up, of 7 candidates whose intervals do not reach theirs: 3', () => {
    const seven = [0, 1, 2, 3, 4, 5, 6].map((i) => evaluation(i, [0.1, 0, 0.2], [i * 100, i * 100 - 40, i * 100 + 40]));
    // Lower bounds 6×100−40 = 560, 460, 360 are the best three; ⌈7 / 3⌉ = 3, the bar is the third's 360. The next,
    // #3, reaches only 300 + 40 = 340 < 360: clearly beaten, as are the others.
    expect(judgeStage(seven, maximizeNet, []).kept).toEqual([6, 5, 4]);
  });

  it('keeps a candidate whose interval overlaps the best third and drops one clearly beaten', () => {
    const leader = evaluation(0, [0.1, 0, 0.2], [6000, 4000, 8000]); // $40.00 to $80.00
    const overlapping = evaluation(1, [0.1, 0, 0.2], [1000, -5000, 4500]); // reaches $45.00 ≥ $40.00: kept
    const touching = evaluation(2, [0.1, 0, 0.2], [1000, -3000, 4000]); // reaches exactly $40.00: not beaten
    const beaten = evaluation(3, [0.1, 0, 0.2], [3000, 2000, 3999]); // reaches $39.99 < $40.00: beaten
    // 4 candidates: ⌈4 / 3⌉ = 2; by lower bound the best two are #0 ($40.00) and #3 ($20.00), so the bar is $20.00
    // and all four reach it. With a fifth, best on its lower bound, the bar is the leader's $40.00.
    expect(judgeStage([leader, overlapping, touching, beaten], maximizeNet, []).kept).toEqual([0, 3, 2, 1]);
    const best = evaluation(4, [0.1, 0, 0.2], [7000, 5000, 9000]);
    // 5 candidates: ⌈5 / 3⌉ = 2; the best two lower bounds are #4's $50.00 and #0's $40.00: bar $40.00.
    const verdict = judgeStage([leader, overlapping, touching, beaten, best], maximizeNet, []);
    expect(verdict.kept).toEqual([4, 0, 2, 1]);
    expect(verdict.ranked).toEqual([4, 0, 3, 2, 1]);
  });

  it('when minimizing, keeps a candidate whose lower bound is at most the k-th best upper bound', () => {
    const minimizeFail = { direction: 'minimize', metric: 'fail_rate' } as const;
    const fail = (candidate: number, low: number, high: number): Evaluation => ({
      ...evaluation(candidate, [0.1, 0, 0.2], [0, 0, 0]),
      metrics: {
        ...evaluation(candidate, [0.1, 0, 0.2], [0, 0, 0]).metrics,
        fail_rate: { value: (low + high) / 2, low, high },
      },
    });
    // 3 candidates: ⌈3 / 3⌉ = 1; the best upper bound is #0's 0.5. #1's lower 0.45 ≤ 0.5: kept; #2's 0.55: beaten.
    const verdict = judgeStage([fail(0, 0.3, 0.5), fail(1, 0.45, 0.7), fail(2, 0.55, 0.8)], minimizeFail, []);
    expect(verdict.kept).toEqual([0, 1]);
  });

  it('a candidate clearly outside a constraint neither counts for the bar nor is kept', () => {
    const passMin: Constraint[] = [{ metric: 'pass_rate', min: 0.06, text: { min: '0.06' } }];
    // #0 passes nobody of 61: Wilson's upper end 0.0592 < 0.06, dropped although its net interval is the best.
    const nobody = evaluation(0, [0, 0, 0.0592], [15000, 15000, 15000]);
    const a = evaluation(1, [0.05, 0.02, 0.1], [2000, 1000, 3000]);
    const b = evaluation(2, [0.05, 0.02, 0.1], [0, -1000, 900]); // reaches $9.00 < a's $10.00: beaten
    // 3 evaluated: ⌈3 / 3⌉ = 1; among the two inside, the bar is #1's lower bound $10.00.
    const verdict = judgeStage([nobody, a, b], maximizeNet, passMin);
    expect(verdict.dropped).toEqual([0]);
    expect(verdict.kept).toEqual([1]);
  });

  it('caps what it keeps at what the next stage can pay for, never below a third; says which it cut', () => {
    const verdict = { kept: [4, 0, 2, 1], dropped: [], ranked: [4, 0, 3, 2, 1], overBudget: [] };
    // The budget pays for 3 in the next stage, at least ⌈5 / 3⌉ = 2 are kept: the lowest ranked kept one goes.
    expect(withinBudget(verdict, 3, 2)).toEqual({ ...verdict, kept: [4, 0, 2], overBudget: [1] });
    expect(withinBudget(verdict, 4, 2)).toEqual(verdict);
    // Only 1 fits, less than a third: unchanged, and the search stops before the next stage.
    expect(withinBudget(verdict, 1, 2)).toEqual(verdict);
  });

  it('drops a candidate whose interval lies entirely outside a bound, and keeps one that straddles it', () => {
    const passMin: Constraint[] = [{ metric: 'pass_rate', min: 0.06, text: { min: '0.06' } }];
    const outside = evaluation(0, [0.02, 0.01, 0.05], [9000, 8000, 10000]); // high 0.05 < 0.06: dropped
    const straddles = evaluation(1, [0.05, 0.02, 0.09], [100, 0, 200]); // 0.02 to 0.09 holds 0.06: kept
    const inside = evaluation(2, [0.08, 0.07, 0.1], [50, -10, 100]);
    const verdict = judgeStage([outside, straddles, inside], maximizeNet, passMin);
    expect(verdict.dropped).toEqual([0]);
    // ⌈3 / 3⌉ = 1: the bar is the best lower bound of the two left, #1's 0 (against −10); #2 reaches 100 ≥ 0, so it
    // is not clearly beaten and is kept too.
    expect(verdict.kept).toEqual([1, 2]);
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
  it('stage 1 has enough traders for each rate bound to drop a candidate at its far end', () => {
    const bound = (metric: Constraint['metric'], side: 'min' | 'max', value: number): Constraint => ({
      metric,
      [side]: value,
      text: { [side]: String(value) },
    });
    // pass_rate min 0.06: n > 1.96² × 0.94 / 0.06 = 60.18, so 61; 0 passes of 61 reach 3.8415 / 64.8415 = 0.0592.
    expect(tradersToJudge([bound('pass_rate', 'min', 0.06)])).toBe(61);
    expect(wilsonInterval(0, 61).high).toBeLessThan(0.06);
    expect(wilsonInterval(0, 60).high).toBeGreaterThan(0.06);
    // fail_rate max 0.85: n > 1.96² × 0.85 / 0.15 = 21.77, so 22; 22 failures of 22 start at 22 / 25.8415 = 0.8513.
    expect(tradersToJudge([bound('fail_rate', 'max', 0.85)])).toBe(22);
    expect(wilsonInterval(22, 22).low).toBeGreaterThan(0.85);
    expect(wilsonInterval(21, 21).low).toBeLessThan(0.85);
    // The worked search's constraints: the larger, 61. A net bound sets none.
    const worked = [bound('pass_rate', 'min', 0.06), bound('pass_rate', 'max', 0.1), bound('fail_rate', 'max', 0.85)];
    expect(tradersToJudge(worked)).toBe(61);
    expect(tradersToJudge([bound('net_per_trader', 'min', 2500)])).toBe(0);
  });

  it('200 candidates take 5 stages to one (200 → 67 → 23 → 8 → 3 → 1); 1 candidate takes none', () => {
    expect(stagesToOne(200)).toBe(5);
    expect(stagesToOne(6)).toBe(2); // 6 → 2 → 1
    expect(stagesToOne(1)).toBe(0);
  });

  it("the first stage runs the config's traders halved once per later stage, at least one per block", () => {
    const config = (synthetic: number[], startTraders?: number) =>
      ({
        backtest: { synthetic: synthetic.map((count) => ({ count, strategy: 'random_bracket', params: {} })) },
        constraints: [],
        ...(startTraders === undefined ? {} : { startTraders }),
      }) as unknown as OptimizeConfig;
    // 240 traders, 5 stages: 240 / 2⁴ = 15, doubling to 30, 60, 120, 240.
    expect(firstStageTraders(config([80, 80, 80]), 5)).toBe(15);
    // With a pass-rate floor of 0.06, at least 61 (above), less the search's fills traders (10).
    const floor = { ...config([80, 80, 80]), constraints: [{ metric: 'pass_rate', min: 0.06, text: {} }] };
    expect(firstStageTraders(floor as OptimizeConfig, 5, 10)).toBe(51);
    // But never above the config's own count: 24 traders (3 blocks of 8) start at 24, not 61.
    const small = { ...config([8, 8, 8]), constraints: floor.constraints };
    expect(firstStageTraders(small as OptimizeConfig, 4)).toBe(24);
    // 10 traders over 3 blocks, 5 stages: ⌈10 / 16⌉ = 1, raised to 3 (one per block).
    expect(firstStageTraders(config([4, 3, 3]), 5)).toBe(3);
    expect(firstStageTraders(config([80, 80, 80], 40), 5)).toBe(40);
  });
});
