// What a back-test's figures leave out, said first (docs/backtesting.md#what-the-firm-still-owes): no_payouts holds back
// every claim that a cell is better for the firm on net; short_horizon when over a quarter of first evaluations are
// still open at the end of some cell. Runs built by hand: 40 traders a cell, each trader's net given directly.
import { describe, expect, it } from 'vitest';
import type { TraderOutcome } from '../../../src/backtest/cells/outcomes.js';
import { summaryDocument } from '../../../src/reports/backtest-outputs.js';
import { backtestSummaryLines } from '../../../src/reports/backtest-summary.js';
import { decisionTable, netHeadline } from '../../../src/reports/decision-table.js';
import { runWarnings } from '../../../src/reports/run-warnings.js';
import { activeTrader, handMadeCell, handMadeRun } from '../hand-made-cell.js';

/** The funnel's keys the warnings read: a funded stage paying after 5 days, 5 winning days of $200, a $2,000 buffer. */
const FUNDED = {
  economics: {
    pricePaidCents: 0,
    payoutShare: '0',
    funnel: {
      evaluation: { feeCents: 16_500, billing: 'monthly' },
      funded: {
        payout: { minDays: 5, winningDayCents: 20_000, minWinningDays: 5, bufferCents: 200_000, split: [] },
      },
    },
  },
};

/** 40 traders netting the firm `netCents` each; `payoutCents` paid to the first; `open` of them still in evaluation. */
function cell(index: number, netCents: number, { payoutCents = 0, open = 40 } = {}) {
  const traders = Array.from({ length: 40 }, (_, i): TraderOutcome => {
    const trader = activeTrader(i, netCents);
    const paid = i === 0 ? payoutCents : 0;
    const decided = i >= open ? { firstOutcome: 'failed' as const, firstOutcomeDay: 3 } : {};
    return { ...trader, payoutsCents: paid, netCents: netCents - paid, ...decided };
  });
  return handMadeCell(index, traders, {}, 22);
}

describe('no_payouts: a funded stage that paid nothing anywhere', () => {
  // #1 nets $100.00 more than #0 from every trader: the net differs (sign-flip p = 1/2,001 over 3 comparisons).
  const feesOnly = handMadeRun([cell(0, 16_500, { open: 5 }), cell(1, 26_500, { open: 5 })], FUNDED);

  it('is a warning naming what a payout needs and the period', () => {
    expect(runWarnings(feesOnly)).toEqual([
      {
        code: 'no_payouts',
        message:
          "no cell paid a payout: a funded account needs 5 trade dates, 5 winning days of $200.00, a balance above the $2,000.00 buffer to be paid, and in 22 trade dates the longest funded stretch was 0. So net per trader is fee income only, and it rises as more traders fail: no cell is called better for the firm on it. Run a longer period (market.resample: { block_sessions: 5 } fills one from these market files) before reading net as the firm's money.",
      },
    ]);
  });

  it('names no best cell: best_net_cell is null, the CLI and the headline hold back, and "differs" on net is not green', () => {
    const doc = summaryDocument(feesOnly);
    expect(doc.best_net_cell).toBeNull();
    expect((doc.warnings as Array<{ code: string }>).map((w) => w.code)).toEqual(['no_payouts']);
    const lines = backtestSummaryLines(feesOnly, 'out', 2, 1);
    expect(lines[0]).toMatch(/^warning \(no_payouts\): no cell paid a payout/);
    expect(lines).toContain(
      'net per trader: fee income only, since no cell paid a payout (the warning above); the cells are not ranked on it',
    );
    expect(lines).toContain(
      'net per trader (fee income only) against cell #0: 1 of 1 cells differ (more fee income: #1 (+$100.00))',
    );
    expect(netHeadline(feesOnly)).toContain('No cell is called better for the firm on net');
    const table = decisionTable(feesOnly);
    expect(table).toContain('net per trader, fee income only (95% interval, this cell)');
    expect(table).toContain(
      '<td class="fees-only" data-sort="10000">+$100.00<br><small>+$100.00 to +$100.00</small><br><b>differs (fee income only)</b></td>',
    );
    expect(table).not.toMatch(/class="(better|worse)"/);
  });

  it('lifts once any cell paid a payout: the highest net is named again', () => {
    const paid = handMadeRun([cell(0, 16_500, { open: 5 }), cell(1, 26_500, { payoutCents: 100, open: 5 })], FUNDED);
    expect(runWarnings(paid)).toEqual([]);
    expect(summaryDocument(paid).best_net_cell).toBe(1);
    expect(decisionTable(paid)).toContain('class="better"');
  });

  it('does not apply without a funded stage: price_paid economics have no payouts to wait for', () => {
    const run = handMadeRun([cell(0, 16_500, { open: 5 }), cell(1, 26_500, { open: 5 })]);
    expect(runWarnings(run)).toEqual([]);
    expect(summaryDocument(run).best_net_cell).toBe(1);
  });
});

describe('short_horizon: over a quarter of first evaluations open at the end of some cell', () => {
  it('10 of 40 open (25.0%) is not over a quarter; 11 of 40 (27.5%) is, naming the cell and the range', () => {
    expect(runWarnings(handMadeRun([cell(0, 0, { open: 10 }), cell(1, 0, { open: 2 })]))).toEqual([]);
    expect(runWarnings(handMadeRun([cell(0, 0, { open: 10 }), cell(1, 0, { open: 11 })]))).toEqual([
      {
        code: 'short_horizon',
        message:
          '27.5% of first evaluations were still open at the end of the period in cell #1 (25.0% to 27.5% across the cells; over 25.0% in 1 of 2): pass and fail rates are by day 22, not final, and a plan that fails traders slowly looks safer than one that fails them fast. Read the incidence by day in report.html, or run a longer period (market.resample).',
      },
    ]);
  });
});
