// The net per trader's interval a stage of the search ranks and prints (docs/optimizing.md#the-search). A trader's
// net is the fee, less the payouts when it passes, so a candidate's net per trader is (1 − p) × the mean net of its
// other traders + p × the mean net of its passing traders, at pass rate p. A back-test's interval is built from the
// outcomes the sample holds: when nobody of a small stage passes, every net is the fee and its interval has no width,
// although Wilson's interval says the pass rate may be well above 0 (0 of 30: up to 0.1135). So the interval is
// widened to cover that net at both ends of the pass rate's 95 % interval, priced by the candidate's own traders, or
// by the stage's (pooled over its candidates) for the kind it has none of, or, for a pass nobody in the stage made, by
// the plan's terms.
import { Dec } from '../../core/money.js';
import type { BacktestConfig } from '../config/backtest-config.js';
import type { CellResult } from '../cells/cell-runner.js';
import type { Estimate } from '../stats/decisions.js';
import { planForCell, splitCellValues } from '../config/grid.js';
import type { TraderOutcome } from '../cells/outcomes.js';
import { wilsonInterval } from '../stats/statistics.js';
import type { Evaluation } from './candidate-ranking.js';

/** Mean net (cents, exact) of passing traders and of the others; undefined when there are none. */
export interface Economics {
  passer: Dec | undefined;
  other: Dec | undefined;
}

export function economicsOf(traders: readonly TraderOutcome[]): Economics {
  const mean = (passed: boolean) => {
    const nets = traders.filter((t) => (t.outcome === 'passed') === passed).map((t) => t.netCents);
    return nets.length === 0 ? undefined : nets.reduce((sum, n) => sum.plus(n), new Dec(0)).div(nets.length);
  };
  return { passer: mean(true), other: mean(false) };
}

/** The net per trader (whole cents, half-even) were the pass rate `rate`. */
export function netAtPassRate(rate: number, { passer, other }: { passer: Dec; other: Dec }): number {
  return other.plus(passer.minus(other).times(rate)).toDecimalPlaces(0, Dec.ROUND_HALF_EVEN).toNumber();
}

/**
 * The back-test's interval widened to the nets at the ends of the pass rate's Wilson interval (`passed` of `traders`).
 * Without a price for passers or for the others (a stage nobody passed, or everybody), it stays the back-test's.
 */
export function honestNetInterval(net: Estimate, passed: number, traders: number, economics: Economics): Estimate {
  const { passer, other } = economics;
  if (passer === undefined || other === undefined || traders === 0) return net;
  const rates = wilsonInterval(passed, traders);
  const ends = [rates.low, rates.high].map((rate) => netAtPassRate(rate, { passer, other }));
  return { value: net.value, low: Math.min(net.low, ...ends), high: Math.max(net.high, ...ends) };
}

/**
 * The net of a pass by the plan's own terms, for a stage nobody passed: price_paid less payout_share × the candidate's
 * profit target, the least a pass can cost (its profit is at least the target). Undefined with the funnel, whose
 * payouts come from funded trading the plan does not bound.
 */
export function planPasserNet(config: BacktestConfig, cell: CellResult): Dec | undefined {
  const { pricePaidCents, payoutShare, funnel } = config.economics;
  const plan = planForCell(config.basePlan, splitCellValues(cell.cell.values).evaluation);
  const target = (plan.passing_criteria as { profit_target?: unknown } | undefined)?.profit_target;
  if (funnel || typeof target !== 'string') return undefined;
  const payout = new Dec(target).times(100).times(payoutShare).toDecimalPlaces(0, Dec.ROUND_HALF_EVEN);
  return new Dec(pricePaidCents).minus(payout);
}

/**
 * A stage's evaluations with every candidate's net interval made honest, in the order of `evaluations`. A pass is
 * priced by the candidate's passers, else the stage's, else the plan's terms (planPasserNet).
 */
export function withHonestNet(
  evaluations: readonly Evaluation[],
  cells: readonly CellResult[],
  planPasser: (cell: CellResult) => Dec | undefined = () => undefined,
): Evaluation[] {
  const stage = economicsOf(cells.flatMap((cell) => cell.traders));
  const byCandidate = new Map(cells.map((cell) => [cell.cell.index, cell]));
  return evaluations.map((e) => {
    const cell = byCandidate.get(e.candidate)!;
    const own = economicsOf(cell.traders);
    const passer = own.passer ?? stage.passer ?? planPasser(cell);
    const economics = { passer, other: own.other ?? stage.other };
    const net = honestNetInterval(e.metrics.net_per_trader, cell.summary.passed, cell.traders.length, economics);
    return { candidate: e.candidate, metrics: { ...e.metrics, net_per_trader: net } };
  });
}
