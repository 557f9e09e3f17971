// The decisions of a back-test (docs/backtesting.md#signal-or-noise): each cell against the reference on pass rate,
// failure rate and net per trader, Holm-adjusted over all of them, `differs` only under 0.05, each with its test's
// interval at the level Holm holds it to. The cells below are built by hand: 40 traders paying $165.00, a passer's
// payout half its profit of $1,000.00.
import { describe, expect, it } from 'vitest';
import type { CellResult } from '../../../src/backtest/cells/cell-runner.js';
import { detectableNetDifference, noiseGuidance, runStatistics } from '../../../src/backtest/stats/decisions.js';
import { zForComparisons } from '../../../src/backtest/stats/detectable-difference.js';
import type { Outcome, TraderOutcome } from '../../../src/backtest/cells/outcomes.js';
import { handMadeCell } from '../hand-made-cell.js';
import { noDroppedFills } from '../../../src/backtest/fills/dropped-fills.js';

const PRICE = 16_500;
const PROFIT = 100_000;

function trader(i: number, outcome: Outcome): TraderOutcome {
  const profit = outcome === 'passed' ? PROFIT : outcome === 'failed' ? -200_000 : 0;
  return {
    trader: `t${i}`,
    strategy: 'fills',
    outcome,
    cause: outcome === 'passed' ? 'passed' : outcome === 'failed' ? 'max_loss_breach' : 'profit_target_not_reached',
    days: 5,
    tradingDays: 5,
    dailyLockDays: 0,
    finalBalanceCents: 5_000_000 + profit,
    startingBalanceCents: 5_000_000,
    // A passer: 165.00 − 0.5 × 1,000.00 = −335.00; anyone else: 165.00.
    feesCents: PRICE,
    payoutsCents: outcome === 'passed' ? PROFIT / 2 : 0,
    netCents: outcome === 'passed' ? PRICE - PROFIT / 2 : PRICE,
    droppedFills: noDroppedFills(),
    positionsNeverHad: 0,
    firstOutcome: outcome === 'active' ? 'open' : outcome,
    firstOutcomeDay: outcome === 'active' ? null : 5,
  };
}

function cell(index: number, outcomes: Outcome[]): CellResult {
  return handMadeCell(
    index,
    outcomes.map((o, i) => trader(i, o)),
  );
}

/** 40 outcomes: traders 0 to passers − 1 pass, failedFrom to 39 fail, the others are active. */
const outcomes = (passers: number, failedFrom: number): Outcome[] =>
  Array.from({ length: 40 }, (_, i) => (i < passers ? 'passed' : i >= failedFrom ? 'failed' : 'active'));

describe('each cell against the reference, Holm-adjusted', () => {
  // #0: traders 0-1 pass, 30-39 fail. #1: the same plus 2-19 pass, the same 10 fail. #2: as #0.
  const cells = [cell(0, outcomes(2, 30)), cell(1, outcomes(20, 30)), cell(2, outcomes(2, 30))];
  const stats = runStatistics(cells, 0);

  it('reports every cell with its three metrics and intervals', () => {
    expect(stats.cells.map((c) => c.cell)).toEqual([0, 1, 2]);
    const first = stats.cells[0]!.metrics;
    expect(first.pass_rate.value).toBe(2 / 40);
    expect(first.fail_rate.value).toBe(10 / 40);
    // Net per trader: (40 · 165.00 − 2 · 500.00) / 40 = 5,600.00 / 40 = 140.00.
    expect(first.net_per_trader.value).toBe(14_000);
    expect(first.net_per_trader.low).toBeLessThanOrEqual(14_000);
    expect(first.net_per_trader.high).toBeGreaterThanOrEqual(14_000);
    // The per-trader nets add up to the cell's net.
    expect(cells[0]!.traders.reduce((s, t) => s + t.netCents, 0)).toBe(cells[0]!.summary.netCents);
  });

  it('18 traders passing only in #1: p = 2 / 2^18, × 5 comparisons = 0.0000381, differs', () => {
    const d = stats.decisions.find((x) => x.cell === 1 && x.metric === 'pass_rate')!;
    expect(d.difference).toBe(18 / 40);
    expect(d.p).toBeCloseTo(2 / 2 ** 18, 12);
    // The second smallest of 6 p-values (the net's, below, is smaller): × 5.
    expect(d.pAdjusted).toBeCloseTo((5 * 2) / 2 ** 18, 12);
    expect(d.verdict).toBe('differs');
    // Its interval inverts the same exact test at Holm's level for it, 0.05 / 5: all 18 discordant traders favour
    // #1, so Clopper–Pearson's θ runs from (0.05/10)^(1/18) = 0.745015 to 1, and the difference (b + c)(2θ − 1)/N
    // from 18 · 0.490030 / 40 = 0.220513 (0.2206, rounded away from 0) to 0.45.
    expect(d.level).toBeCloseTo(0.05 / 5, 12);
    expect([d.low, d.high]).toEqual([0.2206, 0.45]);
  });

  it('the net of those 18 falls by 500.00 each: −9,000.00 / 40 = −225.00 a trader, differs', () => {
    const d = stats.decisions.find((x) => x.cell === 1 && x.metric === 'net_per_trader')!;
    expect(d.difference).toBe(-22_500);
    expect(d.high).toBeLessThan(0);
    // Every moved trader moved the same way, 18 of them: (Σe²)²/Σe⁴ = 38.4 traders carry it, so the likelihood test
    // alone decides, and its p is far under any level Holm sets.
    expect(d.p).toBeLessThan(1e-5);
    expect(d.restsOn).toBeUndefined();
    expect(d.verdict).toBe('differs');
    // Detectable: (2.638257 + 0.841621) · √(18 · 50,000²) / 40 = 18,454.84 cents (z = Φ⁻¹(1 − 0.05/12)).
    expect(d.detectable).toBe(18_455);
  });

  it('a net difference carried by too few traders is not detectable below what the fewest movers give', () => {
    // One trader of 40 moves by 10.00: the power formula says 3.479879 · 1,000 / 40 = 86.99 cents, but a sign-flip
    // p needs 8 movers all one way at 0.05/6; 8 movers of the typical 1,000 are 8 · 1,000 / 40 = 200 cents.
    const one = Array.from({ length: 40 }, (_, i) => (i === 0 ? 1_000 : 0));
    expect(detectableNetDifference(one, zForComparisons(6), 6)).toBe(200);
    // Nobody moved: nothing to detect, and the outputs say so rather than "$0.00".
    expect(detectableNetDifference(new Array(40).fill(0), zForComparisons(6), 6)).toBeNull();
  });

  it('a cell like the reference: p = 1 and no_evidence, with the difference it could have detected', () => {
    const same = stats.decisions.filter((x) => x.cell === 2);
    expect(same.map((x) => [x.metric, x.p, x.verdict])).toEqual([
      ['pass_rate', 1, 'no_evidence'],
      ['fail_rate', 1, 'no_evidence'],
      ['net_per_trader', 1, 'no_evidence'],
    ]);
    // No discordant trader: an exact test over 6 comparisons needs 8 all one way (2 / 2^8 = 0.0078 < 0.05 / 6 =
    // 0.0083 ≤ 2 / 2^7), so 8 / 40 = 0.2 is the smallest difference it could have seen.
    expect(same[0]!.detectable).toBeCloseTo(8 / 40, 12);
  });

  it('the same failures in #1: no evidence on the failure rate, even beside a pass rate that differs', () => {
    const d = stats.decisions.find((x) => x.cell === 1 && x.metric === 'fail_rate')!;
    expect([d.difference, d.p, d.verdict, d.moved]).toEqual([0, 1, 'no_evidence', 0]);
    // No discordant trader: the exact interval is the difference itself.
    expect([d.low, d.high]).toEqual([0, 0]);
  });

  it('Holm over all six: a p of 0.031 alone would pass, not after the adjustment', () => {
    // #1 also fails traders 24-29, active in #0: 6 discordant, all one way, p = 2 / 2^6 = 0.03125 < 0.05 alone;
    // the adjusted p is at least 0.03125 × 2 (it ranks at best second of six, behind the pass rate's tiny p).
    const more = runStatistics([cells[0]!, cell(1, outcomes(20, 24)), cells[2]!], 0);
    const d = more.decisions.find((x) => x.cell === 1 && x.metric === 'fail_rate')!;
    expect(d.p).toBeCloseTo(0.03125, 12);
    expect(d.pAdjusted).toBeGreaterThanOrEqual(0.0625);
    expect(d.verdict).toBe('no_evidence');
  });

  it('compares with the reference the config names (compare_to), which a subset keeps by its grid index', () => {
    const subset = runStatistics([cells[1]!, cell(5, outcomes(2, 30))], 5);
    expect(subset.decisions.map((d) => [d.cell, d.reference])).toEqual([
      [1, 5],
      [1, 5],
      [1, 5],
    ]);
    expect(() => runStatistics(cells, 7)).toThrow(/reference cell #7 is not among the cells run/);
  });

  it("draws nothing: the same cells give the same decisions, and a comparison's p is the same in a subset", () => {
    expect(runStatistics(cells, 0)).toEqual(stats);
    const pair = runStatistics([cells[0]!, cells[1]!], 0);
    const net = (s: typeof stats) => s.decisions.find((d) => d.cell === 1 && d.metric === 'net_per_trader')!;
    expect(net(pair).p).toBe(net(stats).p);
    // Its interval is at the level Holm gives it among that run's comparisons: 3 here, 6 in the whole grid.
    expect(net(pair).level).toBeGreaterThanOrEqual(net(stats).level);
  });

  it('every comparison differs exactly when its interval excludes 0', () => {
    const runs = [stats, runStatistics([cells[0]!, cell(1, outcomes(20, 24)), cells[2]!], 0)];
    for (const d of runs.flatMap((r) => r.decisions))
      expect(d.low <= 0 && 0 <= d.high, `#${d.cell} ${d.metric}`).toBe(d.verdict === 'no_evidence');
  });

  it('guidance uses the paired discordance: 18 of 40 and 0 of 40 pass differently, ψ = 18 / 80', () => {
    const g = noiseGuidance(cells, stats);
    expect(g.discordance).toBeCloseTo(18 / 80, 12);
    expect(g.traders).toBe(40);
  });
});
