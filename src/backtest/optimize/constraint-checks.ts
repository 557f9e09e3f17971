// Whether the chosen plan meets each constraint with 95 % confidence on the confirmation (docs/optimizing.md#confirmation).
// The confirmation checks every bound of the one plan the search chose, m checks in all; Bonferroni's correction keeps
// the chance that any "holds" is wrong under 5 %: each check reads an interval at level 1 − 0.05 / m (two-sided), and
// a bound holds only when that interval lies entirely on its right side, fails when entirely on the wrong side, and
// otherwise the data cannot decide: "no evidence either way". The checks report; they choose nothing.
import type { CellResult } from '../cells/cell-runner.js';
import type { Metric } from '../stats/decisions.js';
import { zForComparisons } from '../stats/detectable-difference.js';
import { meanInterval } from '../stats/mean-test.js';
import { SIGNIFICANCE, wilsonInterval, type Interval } from '../stats/statistics.js';
import type { Constraint } from './optimize-config.js';

export type BoundVerdict = 'holds' | 'fails' | 'no_evidence';

export interface BoundCheck {
  metric: Metric;
  bound: 'min' | 'max';
  /** The bound as written in the config. */
  text: string;
  /** The Bonferroni-corrected interval (rates as fractions, net per trader in cents). */
  interval: Interval;
  verdict: BoundVerdict;
}

/** The bounds the constraints set, one check each. */
export function boundsOf(constraints: readonly Constraint[]): number {
  return constraints.reduce((n, c) => n + (c.min === undefined ? 0 : 1) + (c.max === undefined ? 0 : 1), 0);
}

/** A bound against an interval: holds when the interval lies on its side, fails when wholly on the other. */
export function boundVerdict(interval: Interval, bound: 'min' | 'max', value: number): BoundVerdict {
  if (bound === 'min') return interval.low >= value ? 'holds' : interval.high < value ? 'fails' : 'no_evidence';
  return interval.high <= value ? 'holds' : interval.low > value ? 'fails' : 'no_evidence';
}

/**
 * The checks of each cell of a confirmation run (in its cell order), at level 1 − 0.05 / comparisons: Wilson's interval
 * for the rates, and for the net per trader the interval of the mean test the decisions use (mean-test.ts), in whole
 * cents rounded outward.
 */
export function constraintChecks(
  cells: readonly CellResult[],
  constraints: readonly Constraint[],
  comparisons: number,
): BoundCheck[][] {
  const traders = cells[0]?.traders.length ?? 0;
  const z = zForComparisons(comparisons);
  const level = SIGNIFICANCE / Math.max(1, comparisons);
  return cells.map((cell) => {
    const net = meanInterval(
      cell.traders.map((t) => t.netCents),
      level,
    );
    const intervals: Record<Metric, Interval> = {
      pass_rate: wilsonInterval(cell.summary.passed, traders, z),
      fail_rate: wilsonInterval(cell.summary.failed, traders, z),
      net_per_trader: { low: Math.floor(net.low), high: Math.ceil(net.high) },
    };
    return constraints.flatMap((c) =>
      (['min', 'max'] as const).flatMap((bound) => {
        const value = c[bound];
        if (value === undefined) return [];
        const interval = intervals[c.metric];
        return [
          { metric: c.metric, bound, text: c.text[bound]!, interval, verdict: boundVerdict(interval, bound, value) },
        ];
      }),
    );
  });
}
