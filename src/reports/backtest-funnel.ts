// The funnel's part of the back-test outputs (docs/backtesting.md#the-funnel): each trader's path in traders.csv and
// each cell's fees and payouts in summary.json (the path only when the config has a funnel).
import { formatCents } from '../core/money.js';
import type { CellSummary, TraderOutcome } from '../backtest/outcomes.js';

export const FUNNEL_TRADER_COLUMNS = [
  'evaluations_bought',
  'resets',
  'pass_date',
  'funded_days',
  'payouts',
  'payouts_amount',
  'funded_outcome',
  'fees_paid',
] as const;

/** The trader's path, in the order of FUNNEL_TRADER_COLUMNS. */
export function funnelTraderCells(t: TraderOutcome): unknown[] {
  const path = t.funnel!;
  return [
    path.evaluationsBought,
    path.resets,
    path.passDate,
    path.fundedDays,
    path.payouts,
    formatCents(path.payoutsCents),
    path.fundedOutcome,
    formatCents(t.feesCents),
  ];
}

/** summary.json `cells[i].economics`, as decimal strings. */
export function funnelEconomicsDocument(s: CellSummary): { economics: Record<string, string> } {
  const e = s.economics;
  return {
    economics: {
      evaluation_fees: formatCents(e.evaluationFeesCents),
      reset_fees: formatCents(e.resetFeesCents),
      activation_fees: formatCents(e.activationFeesCents),
      payouts: formatCents(e.payoutsCents),
      net: formatCents(e.netCents),
    },
  };
}
