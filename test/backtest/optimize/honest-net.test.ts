// The honest net interval of a stage (docs/optimizing.md#the-search): a candidate nobody of a small stage passed has
// a bootstrap interval of no width, which must not rank it first. Cells built by hand: 30 traders paying $150.00.
import { describe, expect, it } from 'vitest';
import { judgeStage, type Evaluation } from '../../../src/backtest/optimize/candidate-ranking.js';
import { honestNetInterval, planPasserNet, withHonestNet } from '../../../src/backtest/optimize/honest-net.js';
import type { BacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { noDroppedFills } from '../../../src/backtest/fills/dropped-fills.js';
import type { TraderOutcome } from '../../../src/backtest/cells/outcomes.js';
import { Dec } from '../../../src/core/money.js';
import { handMadeCell } from '../hand-made-cell.js';

const FEE = 15_000;

/** A trader that passes with a payout (net = $150.00 − payout), or fails keeping the firm's fee. */
function trader(i: number, payoutCents: number | undefined): TraderOutcome {
  const passed = payoutCents !== undefined;
  return {
    trader: `t${i}`,
    strategy: 'random_bracket',
    outcome: passed ? 'passed' : 'failed',
    cause: passed ? 'passed' : 'max_loss_breach',
    days: 5,
    tradingDays: 5,
    dailyLockDays: 0,
    finalBalanceCents: 5_000_000,
    startingBalanceCents: 5_000_000,
    feesCents: FEE,
    payoutsCents: payoutCents ?? 0,
    netCents: FEE - (payoutCents ?? 0),
    droppedFills: noDroppedFills(),
    positionsNeverHad: 0,
    firstOutcome: passed ? 'passed' : 'failed',
    firstOutcomeDay: 5,
  };
}

/** 30 traders, the first ones passing with these payouts. */
function cell(index: number, payouts: number[]) {
  return handMadeCell(
    index,
    Array.from({ length: 30 }, (_, i) => trader(i, payouts[i])),
  );
}

function evaluation(candidate: number, passed: number, net: [number, number, number]): Evaluation {
  const [value, low, high] = net;
  const rate = { value: passed / 30, low: 0, high: 1 };
  return { candidate, metrics: { pass_rate: rate, fail_rate: rate, net_per_trader: { value, low, high } } };
}

const maximizeNet = { direction: 'maximize', metric: 'net_per_trader' } as const;

describe('the honest net interval of a stage', () => {
  // A: nobody passes, every net $150.00: the bootstrap's interval is 15,000 to 15,000 cents.
  // B: one passer paid $200.00 (net −$50.00): (29 × 15,000 − 5,000) / 30 = 14,333; say the bootstrap gave 13,667 to
  //    15,000 (the passer drawn twice: (28 × 15,000 − 2 × 5,000) / 30 = 13,667).
  // C: three passers paid $1,500.00 (net −$1,350.00): (27 × 15,000 − 3 × 135,000) / 30 = 0.
  const cells = [cell(0, []), cell(1, [20_000]), cell(2, [150_000, 150_000, 150_000])];
  const evaluations = [
    evaluation(0, 0, [15_000, 15_000, 15_000]),
    evaluation(1, 1, [14_333, 13_667, 15_000]),
    evaluation(2, 3, [0, -9_000, 9_000]),
  ];

  it('a candidate that passes nobody does not outrank one whose honest lower bound is higher', () => {
    // On the bootstrap alone A ranks first (15,000 > 13,667 > −9,000).
    expect(judgeStage(evaluations, maximizeNet, []).ranked).toEqual([0, 1, 2]);
    const honest = withHonestNet(evaluations, cells);
    // A has no passer to price them by: the stage's, (−5,000 − 3 × 135,000) / 4 = −102,500. Wilson's 95 % upper
    // bound of 0 of 30 is (z²/30) / (1 + z²/30) = 0.1280486 / 1.1280486 = 0.1135134, so the net may be as low as
    // 15,000 + 0.1135134 × (−102,500 − 15,000) = 1,662.18 → 1,662 cents; at the lower bound 0 it is 15,000.
    expect(honest[0]!.metrics.net_per_trader).toEqual({ value: 15_000, low: 1_662, high: 15_000 });
    // B is priced by its own passer (−5,000): 1 of 30 has Wilson 0.0059086 to 0.1667039, so
    // 15,000 − 0.1667039 × 20,000 = 11,665.92 → 11,666 and 15,000 − 0.0059086 × 20,000 = 14,881.83 → 14,882,
    // within its bootstrap's 15,000 at the top.
    expect(honest[1]!.metrics.net_per_trader).toEqual({ value: 14_333, low: 11_666, high: 15_000 });
    // C: 3 of 30, Wilson 0.0345999 to 0.2562108: 15,000 − 0.2562108 × 150,000 = −23,431.62 → −23,432 and
    // 15,000 − 0.0345999 × 150,000 = 9,810.02 → 9,810: wider than the bootstrap's −9,000 to 9,000 on both sides.
    expect(honest[2]!.metrics.net_per_trader).toEqual({ value: 0, low: -23_432, high: 9_810 });
    expect(judgeStage(honest, maximizeNet, []).ranked).toEqual([1, 0, 2]);
  });

  it('a stage nobody passed prices a pass by the plan: price_paid less payout_share × its profit target', () => {
    const config = (funnel?: object) =>
      ({
        basePlan: { passing_criteria: { profit_target: '3000.00' } },
        economics: { pricePaidCents: FEE, payoutShare: '0.90', ...(funnel ? { funnel } : {}) },
      }) as unknown as BacktestConfig;
    const base = cell(0, []);
    const lowTarget = handMadeCell(1, base.traders, { 'passing_criteria.profit_target': '1000.00' });
    const zeroWidth = evaluation(0, 0, [15_000, 15_000, 15_000]);
    const both = [zeroWidth, { ...zeroWidth, candidate: 1 }];
    const honest = withHonestNet(both, [base, lowTarget], (c) => planPasserNet(config(), c));
    // The base plan's target: 15,000 − 0.90 × 300,000 = −255,000 a pass; 0 of 30 may be 0.1135134 of passes:
    // 15,000 + 0.1135134 × (−255,000 − 15,000) = −15,648.6 → −15,649.
    expect(honest[0]!.metrics.net_per_trader).toEqual({ value: 15_000, low: -15_649, high: 15_000 });
    // A candidate's own target of $1,000.00: 15,000 − 90,000 = −75,000; 15,000 − 0.1135134 × 90,000 = 4,783.8 → 4,784.
    expect(honest[1]!.metrics.net_per_trader).toEqual({ value: 15_000, low: 4_784, high: 15_000 });
    // With the funnel, the plan does not bound what a pass costs: the bootstrap's interval stays.
    expect(planPasserNet(config({ funded: {} }), base)).toBeUndefined();
    expect(withHonestNet(both, [base, lowTarget], (c) => planPasserNet(config({ funded: {} }), c))).toEqual(both);
  });

  it('keeps the bootstrap interval when nothing prices a pass', () => {
    const net = { value: 15_000, low: 15_000, high: 15_000 };
    expect(honestNetInterval(net, 0, 30, { passer: undefined, other: new Dec(FEE) })).toEqual(net);
  });
});
