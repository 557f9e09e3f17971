// front.csv (docs/optimizing.md#outputs): the candidates no other beats on both pass rate and net per trader.
import { describe, expect, it } from 'vitest';
import { paretoFront } from '../../../src/backtest/optimize/pareto-front.js';
import { metricText } from '../../../src/reports/optimize-words.js';
import type { Evaluation } from '../../../src/backtest/optimize/candidate-ranking.js';

function at(candidate: number, pass: number, netCents: number): Evaluation {
  const point = (value: number) => ({ value, low: value, high: value });
  return { candidate, metrics: { pass_rate: point(pass), fail_rate: point(0.5), net_per_trader: point(netCents) } };
}

describe('the Pareto front of pass rate against net per trader', () => {
  it('keeps the candidates nothing beats on both, by pass rate', () => {
    const points = [
      at(0, 0.02, 10_000), // the highest net: on the front
      at(1, 0.05, 4_000), // on the front: only #2 passes more, and it nets less
      at(2, 0.08, -1_000), // the highest pass rate: on the front
      at(3, 0.04, 3_000), // #1 has more of both: off
      at(4, 0.05, 4_000), // ties #1 on both: neither beats the other, both on
      at(5, 0.02, 9_000), // #0 has the same pass rate and more net: off
    ];
    expect(paretoFront(points).map((e) => e.candidate)).toEqual([0, 1, 4, 2]);
  });

  it('writes rates with four places and the net per trader in dollars', () => {
    expect(metricText('pass_rate', 1 / 30)).toBe('0.0333');
    expect(metricText('net_per_trader', -2899)).toBe('-28.99');
  });
});
