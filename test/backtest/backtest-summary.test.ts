// What `propsim backtest` prints when done (docs/backtesting.md#outputs), for runs built by hand: 40 traders a cell,
// each trader's net for the firm given directly, everyone still active (nobody passes or fails).
import { describe, expect, it } from 'vitest';
import { backtestSummaryLines } from '../../src/reports/backtest-summary.js';
import { activeTrader, handMadeCell, handMadeRun } from './hand-made-cell.js';

/** A cell whose 40 traders each net the firm `netCents`. */
const cell = (index: number, netCents: number) =>
  handMadeCell(
    index,
    Array.from({ length: 40 }, (_, i) => activeTrader(i, netCents)),
  );

describe('the summary lines', () => {
  it('a metric on which every compared cell differs has no "no evidence" clause (and does not throw)', () => {
    // #1 nets $100.00 more than #0 from every trader: sign-flip p = 1 / 2,001, 3 comparisons: differs. Nobody passes or
    // fails anywhere: no discordant trader, p = 1; a rate's detectable is then k/N, k = 7 (2/2⁷ < 0.05/3): 17.5 points.
    const lines = backtestSummaryLines(handMadeRun([cell(0, 0), cell(1, 10_000)]), 'out', 2, 1);
    expect(lines.slice(3, 6)).toEqual([
      'pass rate against cell #0: 0 of 1 cells differ; all: no evidence (this run would detect about 17.5 points)',
      'failure rate against cell #0: 0 of 1 cells differ; all: no evidence (this run would detect about 17.5 points)',
      'net per trader against cell #0: 1 of 1 cells differ (#1)',
    ]);
  });
});
