// The funnel's part of the back-test outputs (docs/backtesting.md#the-funnel): each trader's path in traders.csv and
// each cell's fees and payouts in summary.json (the path only when the config has a funnel).
import { formatCents } from '../core/money.js';
import type { CellSummary, TraderOutcome } from '../backtest/cells/outcomes.js';

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

/**
 * summary.json `cells[i].economics`, as decimal strings. With a funded stage, also the funded accounts still open at
 * the end, what the firm owes them, and the net after it (docs/backtesting.md#what-the-firm-still-owes); with
 * payout.max_count, the traders moved to a live account (docs/backtesting.md#payout-cadence).
 */
export function funnelEconomicsDocument(
  s: CellSummary,
  funded: boolean,
  maxCount = false,
): { economics: Record<string, string | number> } {
  const e = s.economics;
  return {
    economics: {
      evaluation_fees: formatCents(e.evaluationFeesCents),
      reset_fees: formatCents(e.resetFeesCents),
      activation_fees: formatCents(e.activationFeesCents),
      payouts: formatCents(e.payoutsCents),
      net: formatCents(e.netCents),
      ...(funded
        ? {
            open_funded: e.openFunded,
            open_liability: formatCents(e.openLiabilityCents),
            net_after_liability: formatCents(e.netCents - e.openLiabilityCents),
          }
        : {}),
      ...(maxCount ? { moved_live: e.movedLive } : {}),
    },
  };
}

/** A cell's traders at each step of the funnel (docs/backtesting.md#the-funnel): without it, no one is funded. */
export interface FunnelCounts {
  evaluations: number;
  passes: number;
  funded: number;
  paid: number;
}

/** Traders who started an evaluation, passed one, had a funded account open, and were paid at least once. */
export function funnelCounts(traders: readonly TraderOutcome[]): FunnelCounts {
  const count = (test: (t: TraderOutcome) => boolean) => traders.filter(test).length;
  return {
    evaluations: traders.length,
    passes: count((t) => (t.funnel ? t.funnel.passDate !== null : t.outcome === 'passed')),
    funded: count((t) => t.funnel !== undefined && t.funnel.fundedOutcome !== 'none'),
    paid: count((t) => t.funnel !== undefined && t.funnel.payouts > 0),
  };
}
