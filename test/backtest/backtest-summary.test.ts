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

/** The lines after the warnings (every trader here is still active at the end: a short horizon). */
const afterWarnings = (lines: string[]) => lines.filter((line) => !line.startsWith('warning'));

describe('the summary lines', () => {
  it('a metric on which every compared cell differs has no "no evidence" clause (and does not throw)', () => {
    // #1 nets $100.00 more than #0 from every trader: sign-flip p = 1 / 2,001, 3 comparisons: differs. Nobody passes or
    // fails anywhere: no discordant trader, p = 1; a rate's detectable is then k/N, k = 7 (2/2⁷ < 0.05/3): 17.5 points.
    const lines = afterWarnings(backtestSummaryLines(handMadeRun([cell(0, 0), cell(1, 10_000)]), 'out', 2, 1));
    expect(lines.slice(3, 6)).toEqual([
      'pass rate against cell #0: 0 of 1 cells differ; #1: no trader passed in one cell and not the other',
      'failure rate against cell #0: 0 of 1 cells differ; #1: no trader failed in one cell and not the other',
      'net per trader against cell #0: 1 of 1 cells differ (better for the firm: #1 (+$100.00))',
    ]);
  });

  it('says how to reach the traders 2 points of pass rate need: --traders only where there are synthetic traders', () => {
    // #1 nets the same as #0: no trader moves, and nobody passes or fails; the guidance counts one discordant trader of
    // 40 (ψ = 1/40): ⌈(z₃ + 0.841621)² · ψ / 0.02²⌉ = ⌈10.469114 · 0.025 / 0.0004⌉ = 655 traders a cell (over k/d = 350).
    const cells = [cell(0, 0), cell(1, 0)];
    const tail =
      'paired by trader, p Holm-adjusted over 3 comparisons, "differs" when under 0.05; 2 points of pass rate need about 655 (655 to 3,372) traders a cell';
    const fillsOnly = afterWarnings(backtestSummaryLines(handMadeRun(cells), 'out', 2, 1));
    expect(fillsOnly[6]).toBe(
      `${tail} (add traders to the fills file, or traders.synthetic blocks to the config; --traders sets only synthetic traders, and this config has none); see report.html "Signal or noise"`,
    );
    const synthetic = handMadeRun(cells, { synthetic: [{ count: 40, strategy: 'random_bracket', params: {} }] });
    expect(afterWarnings(backtestSummaryLines(synthetic, 'out', 2, 1))[6]).toBe(
      `${tail}; see report.html "Signal or noise"`,
    );
  });

  it('a run of one cell compares nothing: its pass rate, its net with no ranking, and no verdict lines', () => {
    const lines = afterWarnings(backtestSummaryLines(handMadeRun([cell(0, 16_500)]), 'out', 2, 1));
    expect(lines[1]).toBe('pass rate 0.0%');
    expect(lines[2]).toBe('net: $165.00 a trader (95% interval $165.00 to $165.00); one cell, so no comparison');
    expect(lines.some((line) => /against cell|differ|every other cell/.test(line))).toBe(false);
  });
});
