// Which differences between a back-test's cells are signal and which are noise (docs/backtesting.md#signal-or-noise):
// every pair of cells compared by the exact McNemar test on the same traders' pass/fail, the plain sentence the
// report and the CLI print, and how many traders a question needs.
import type { CellResult } from './cell-runner.js';
import {
  detectableDifference,
  mcnemarExactP,
  pairedCounts,
  SIGNIFICANCE,
  tradersForDifference,
  type PairedCounts,
} from './statistics.js';

export interface CellComparison extends PairedCounts {
  first: number;
  second: number;
  passedFirst: number;
  passedSecond: number;
  traders: number;
  pValue: number;
  withinNoise: boolean;
}

/** Every pair of cells (first < second), in index order. */
export function compareAllCells(cells: readonly CellResult[]): CellComparison[] {
  const passes = cells.map((c) => c.traders.map((t) => t.outcome === 'passed'));
  const comparisons: CellComparison[] = [];
  for (let a = 0; a < cells.length; a++)
    for (let b = a + 1; b < cells.length; b++)
      comparisons.push(compareCells(cells[a]!, cells[b]!, passes[a]!, passes[b]!));
  return comparisons;
}

function compareCells(a: CellResult, b: CellResult, passA: boolean[], passB: boolean[]): CellComparison {
  const counts = pairedCounts(passA, passB);
  const pValue = mcnemarExactP(counts);
  return {
    first: a.cell.index,
    second: b.cell.index,
    passedFirst: a.summary.passed,
    passedSecond: b.summary.passed,
    traders: passA.length,
    ...counts,
    pValue,
    withinNoise: pValue >= SIGNIFICANCE,
  };
}

/**
 * "#3 against #0: 10 against 7 passers of 240; 3 traders passed only in #3, none only in #0 (McNemar exact
 * p = 0.250): within noise."
 */
export function comparisonSentence(c: CellComparison): string {
  const only = (n: number) => (n === 0 ? 'none' : n === 1 ? '1 trader' : `${n.toLocaleString('en-US')} traders`);
  const verdict = c.withinNoise ? 'within noise' : 'a real difference';
  return (
    `#${c.second} against #${c.first}: ${c.passedSecond.toLocaleString('en-US')} against ${c.passedFirst.toLocaleString('en-US')} passers of ${c.traders.toLocaleString('en-US')}; ` +
    `${only(c.onlySecond)} passed only in #${c.second}, ${only(c.onlyFirst)} only in #${c.first} ` +
    `(McNemar exact p = ${c.pValue.toFixed(3)}): ${verdict}.`
  );
}

/** The comparisons a reader looks at first: each cell against cell #0 (the first value of every grid field). */
export function againstFirstCell(comparisons: readonly CellComparison[]): CellComparison[] {
  return comparisons.filter((c) => c.first === 0);
}

export interface NoiseGuidance {
  traders: number;
  /** The mean pass rate over the cells, the rate the approximation is taken near. */
  meanPassRate: number;
  /** The smallest difference in pass rate this many traders resolve. */
  detectableDifference: number;
  /** Traders per cell needed for a difference of 1, 2 and 5 points. */
  tradersFor: Array<{ difference: number; traders: number }>;
}

export function noiseGuidance(cells: readonly CellResult[]): NoiseGuidance {
  const traders = cells[0]?.summary.accounts ?? 0;
  const passed = cells.reduce((n, c) => n + c.summary.passed, 0);
  const accounts = cells.reduce((n, c) => n + c.summary.accounts, 0);
  const meanPassRate = accounts === 0 ? 0 : passed / accounts;
  return {
    traders,
    meanPassRate,
    detectableDifference: detectableDifference(traders, meanPassRate),
    tradersFor: [0.01, 0.02, 0.05].map((difference) => ({
      difference,
      traders: tradersForDifference(difference, meanPassRate),
    })),
  };
}

/** "With 240 traders a cell and pass rates near 4.0 %, differences under about 5.0 points are noise; …" */
export function guidanceSentence(g: NoiseGuidance): string {
  const points = (x: number) => `${(x * 100).toFixed(1)} points`;
  const needs = g.tradersFor.map((t) => `${t.traders.toLocaleString('en-US')} for ${points(t.difference)}`).join(', ');
  return (
    `With ${g.traders.toLocaleString('en-US')} traders a cell and pass rates near ${(g.meanPassRate * 100).toFixed(1)}%, ` +
    `differences under about ${points(g.detectableDifference)} cannot be told from noise (95% confidence, 80% power; ` +
    `paired cells resolve somewhat less). Traders a cell needed: ${needs} (run with --traders N, or set the config's traders.synthetic counts).`
  );
}
