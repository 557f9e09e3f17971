// What a back-test's figures leave out, said before the figures (docs/backtesting.md#what-the-firm-still-owes):
// `no_payouts` when a funded stage is configured and no cell paid anything (the net is fee income only), and
// `short_horizon` when a cell ended with over a quarter of its first evaluations still open. In summary.json
// (`warnings`), on the CLI and at the top of report.html.
import type { BacktestRun } from '../backtest/run-backtest.js';
import { feesOnly } from '../backtest/stats/cell-ranking.js';
import { openAtEnd } from '../backtest/stats/first-outcomes.js';
import { formatUsd } from './usd.js';

export type WarningCode = 'no_payouts' | 'short_horizon';

export interface RunWarning {
  code: WarningCode;
  message: string;
}

/** Above this share of first evaluations open at the end, a cell's rates are read before most outcomes are known. */
export const SHORT_HORIZON_OPEN_SHARE = 0.25;

export function runWarnings(run: BacktestRun): RunWarning[] {
  return [noPayouts(run), shortHorizon(run)].filter((w): w is RunWarning => w !== undefined);
}

function noPayouts(run: BacktestRun): RunWarning | undefined {
  const funded = run.config.economics.funnel?.funded;
  if (!funded || !feesOnly(run.config, run.cells)) return undefined;
  const days = run.cells[0]?.periodDays ?? 0;
  const rules = funded.payout;
  const stretch = Math.max(0, ...run.cells.flatMap((c) => c.traders.map((t) => t.funnel?.fundedDays ?? 0)));
  const needs = [
    rules.minDays > 0 ? `${rules.minDays} trade dates` : '',
    rules.minWinningDays > 0 ? `${rules.minWinningDays} winning days of ${formatUsd(rules.winningDayCents)}` : '',
    rules.bufferCents > 0 ? `a balance above the ${formatUsd(rules.bufferCents)} buffer` : '',
  ].filter(Boolean);
  return {
    code: 'no_payouts',
    message:
      `no cell paid a payout: a funded account needs ${needs.length > 0 ? needs.join(', ') : 'a profit'} to be paid, and in ${days} trade date${days === 1 ? '' : 's'} the longest funded stretch was ${stretch}. ` +
      'So net per trader is fee income only, and it rises as more traders fail: no cell is called better for the firm on it. ' +
      "Run a longer period (market.resample: { block_sessions: 5 } fills one from these market files) before reading net as the firm's money.",
  };
}

function shortHorizon(run: BacktestRun): RunWarning | undefined {
  const shares = run.cells.map((c) => ({
    cell: c.cell.index,
    share: c.summary.accounts === 0 ? 0 : openAtEnd(c) / c.summary.accounts,
  }));
  const most = shares.reduce((a, b) => (b.share > a.share ? b : a), shares[0] ?? { cell: 0, share: 0 });
  if (most.share <= SHORT_HORIZON_OPEN_SHARE) return undefined;
  const over = shares.filter((s) => s.share > SHORT_HORIZON_OPEN_SHARE).length;
  const least = Math.min(...shares.map((s) => s.share));
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const days = run.cells[0]!.periodDays;
  return {
    code: 'short_horizon',
    message:
      `${pct(most.share)} of first evaluations were still open at the end of the period in cell #${most.cell} ` +
      `(${pct(least)} to ${pct(most.share)} across the cells; over ${pct(SHORT_HORIZON_OPEN_SHARE)} in ${over} of ${shares.length}): ` +
      `pass and fail rates are by day ${days}, not final, and a plan that fails traders slowly looks safer than one that fails them fast. ` +
      'Read the incidence by day in report.html, or run a longer period (market.resample).',
  };
}
