// Payout cadence in the funded stage (docs/backtesting.md#payout-cadence): min_amount, every_days, request and
// max_count, each on the funnel worked by hand (fixtures/funnel/funnel.yaml, test/backtest/funnel/funnel-run.test.ts), with
// every changed number worked out here. Without them, every output is the worked funnel's.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import type { PayoutRules } from '../../../src/backtest/config/funnel-config.js';
import { payoutDue } from '../../../src/backtest/funnel/funnel-payout.js';
import { asksAt, spacedEnough } from '../../../src/backtest/funnel/payout-cadence.js';
import { runBacktest, type BacktestRun } from '../../../src/backtest/run-backtest.js';
import { summaryDocument, tradersCsv } from '../../../src/reports/backtest-outputs.js';

const CONFIG = fileURLToPath(new URL('../fixtures/funnel/funnel.yaml', import.meta.url));

/*
 * Ann's funded account (funnel-run.test.ts): opened at the 04-09 open, session index 2 of the period's 7 (04-07 Tue 0,
 * 04-08 1, 04-09 Thu 2, 04-10 Fri 3, 04-13 Mon 4, 04-14 Tue 5, 04-15 Wed 6; the roll after the last opens 04-16 Thu,
 * index 7). Her days: 04-09 +300, 04-10 +200, 04-13 +400, 04-14 +150, 04-15 +250. Payout rules: 2 days, 2 winning
 * days of $100+, buffer $200, half the profit, cap $1,000, best day ≤ 60 %, split 1.0 to $300 withdrawn, then 0.8.
 * Without cadence: 250 at the 04-13 open (she gets 250), nothing at 04-15 (400 × 100 > 60 × 550), 525 at the final
 * roll (she gets 50 + 0.8 × 475 = 430): 680, and she is owed 210.00 at the end.
 */

async function run(change: (payout: PayoutRules) => void): Promise<BacktestRun> {
  const config = loadBacktestConfig(CONFIG);
  change(config.economics.funnel!.funded!.payout);
  return runBacktest(config, { workers: 1 });
}

const ann = (result: BacktestRun) => result.cells[0]!.traders.find((t) => t.trader === 'ann')!;

/** Ann's payouts, what she was paid, what she is owed at the end, her funded days and outcome, the firm's net from her. */
function annFunded(result: BacktestRun) {
  const t = ann(result);
  const f = t.funnel!;
  return {
    payouts: f.payouts,
    paidCents: f.payoutsCents,
    owedCents: f.openLiabilityCents,
    fundedDays: f.fundedDays,
    outcome: f.fundedOutcome,
    netCents: t.netCents,
  };
}

describe('payout cadence (docs/backtesting.md#payout-cadence)', () => {
  it('min_amount: a payout smaller than it is not taken; the trader waits and the counters run on', async () => {
    // 04-13 open: the amount is 250 < 300: none, and the counters do not restart. 04-14 open (index 5): 3 days since
    // the funded start (300, 200, 400), all winning, 400 × 100 = 40,000 ≤ 60 × 900 = 54,000; balance 50,900: amount
    // min(1,000, 0.5 × 900 = 450, 900 − 200 = 700) = 450 ≥ 300: taken. Her share: 300 at 1.0 + 150 at 0.8 = 420.
    // Then 04-14 +150 → 50,600; 04-15 open: 1 day < 2; +250 → 50,850. Final roll: 2 days (150, 250), but
    // 250 × 100 = 25,000 > 60 × 400 = 24,000: none. Owed: min(1,000, 0.5 × 850 = 425, 650) = 425, all past the
    // $300 tier: 0.8 × 425 = 340. Net from her: fees 230 − 420 = −190.
    const result = await run((payout) => (payout.minAmountCents = 30_000));
    expect(annFunded(result)).toEqual({
      payouts: 1,
      paidCents: 42_000,
      owedCents: 34_000,
      fundedDays: 5,
      outcome: 'active',
      netCents: -19_000,
    });
  });

  it('min_amount: exactly the amount is taken (at least, not above)', async () => {
    // 250 at the 04-13 open is ≥ 250: the worked funnel's payouts, unchanged.
    const result = await run((payout) => (payout.minAmountCents = 25_000));
    expect(annFunded(result)).toMatchObject({ payouts: 2, paidCents: 68_000, owedCents: 21_000 });
  });

  it('every_days: at most one payout per so many trade dates, counted from the funded start or the last payout', async () => {
    // every_days 4 from index 2: the 04-13 (4 − 2 = 2) and 04-14 (3) opens are too soon; the 04-15 open (index 6,
    // 4 trade dates) asks: 4 days since the funded start (300, 200, 400, 150), all winning, 40,000 ≤ 60 × 1,050 =
    // 63,000; balance 51,050: min(1,000, 525, 850) = 525. Her share 300 + 0.8 × 225 = 480. The final roll (index 7) is
    // 1 trade date after it: none. She ends at 51,050 − 525 + 250 = 50,775, owed min(1,000, 387.50, 575) = 387.50 at
    // 0.8 = 310.00. Net 230 − 480 = −250.
    const result = await run((payout) => (payout.everyDays = 4));
    expect(annFunded(result)).toEqual({
      payouts: 1,
      paidCents: 48_000,
      owedCents: 31_000,
      fundedDays: 5,
      outcome: 'active',
      netCents: -25_000,
    });
  });

  it('every_days 1 is any session open after the funded start: the worked funnel as it is', async () => {
    const result = await run((payout) => (payout.everyDays = 1));
    expect(annFunded(result)).toMatchObject({ payouts: 2, paidCents: 68_000, owedCents: 21_000 });
  });

  it('request weekly: the trader asks at the first trade date of each week only', async () => {
    // 04-13 (Mon, the first trade date of its week after 04-10 Fri) asks: 250 as in the worked funnel. 04-14, 04-15
    // and the final roll's 04-16 are not the first of their week: no more. She ends at 50,250 + 400 + 150 + 250 =
    // 51,050, owed min(1,000, 525, 850) = 525: 50 at 1.0 (to $300 withdrawn) + 475 at 0.8 = 430. Net 230 − 250 = −20.
    const result = await run((payout) => (payout.request = 'weekly'));
    expect(annFunded(result)).toEqual({
      payouts: 1,
      paidCents: 25_000,
      owedCents: 43_000,
      fundedDays: 5,
      outcome: 'active',
      netCents: -2_000,
    });
  });

  it('request monthly: the first trade date of each month only, and April 1st is before the period', async () => {
    // No open from 04-08 to the 04-16 of the final roll is a month's first trade date: no payout. She ends at 51,300,
    // owed min(1,000, 650, 1,100) = 650: 300 at 1.0 + 350 at 0.8 = 580. Net 230.
    const result = await run((payout) => (payout.request = 'monthly'));
    expect(annFunded(result)).toEqual({
      payouts: 0,
      paidCents: 0,
      owedCents: 58_000,
      fundedDays: 5,
      outcome: 'active',
      netCents: 23_000,
    });
  });

  it('max_count: after so many payouts the trader moves to a live account and the firm owes it nothing here', async () => {
    // max_count 1: the 250 at the 04-13 open is the last payout the back-test follows; she moves live there. Funded
    // days: 04-09 and 04-10 (index 4 − 2 = 2). Nothing is owed, no later payout; her later fills are the live
    // account's, not booked and not counted as dropped. Net 230 − 250 = −20; the cell's 660 − 250 = 410.
    const result = await run((payout) => (payout.maxCount = 1));
    expect(annFunded(result)).toEqual({
      payouts: 1,
      paidCents: 25_000,
      owedCents: 0,
      fundedDays: 2,
      outcome: 'live',
      netCents: -2_000,
    });
    expect(ann(result).droppedFills, 'fills after the move are neither booked nor dropped').toEqual({
      locked: 0,
      failed: 0,
      passed: 0,
    });
    const cell = (summaryDocument(result).cells as Array<{ economics: Record<string, unknown> }>)[0]!;
    expect(cell.economics).toMatchObject({ payouts: '250.00', net: '410.00', open_funded: 0, moved_live: 1 });
    expect(tradersCsv(result).split('\n')[1], 'funded_outcome live in traders.csv').toContain(',2,1,250.00,live,');
    // max_count 2: the final roll's 525 is the second; she moves live at the end: 680 paid, nothing owed.
    const two = await run((payout) => (payout.maxCount = 2));
    expect(annFunded(two)).toMatchObject({
      payouts: 2,
      paidCents: 68_000,
      owedCents: 0,
      fundedDays: 5,
      outcome: 'live',
    });
  });

  it('without any of them every output is the worked funnel, and summary.json has no moved_live', async () => {
    const result = await run(() => undefined);
    expect(annFunded(result)).toEqual({
      payouts: 2,
      paidCents: 68_000,
      owedCents: 21_000,
      fundedDays: 5,
      outcome: 'active',
      netCents: -45_000,
    });
    const cell = (summaryDocument(result).cells as Array<{ economics: Record<string, unknown> }>)[0]!;
    expect(cell.economics).not.toHaveProperty('moved_live');
  });
});

describe('the cadence rules, one by one', () => {
  const moment = (tradeDate: string, previousTradeDate: string, index = 0) => ({ tradeDate, previousTradeDate, index });

  it('request: auto asks at every open, weekly at a week’s first trade date, monthly at a month’s', () => {
    expect(asksAt('auto', moment('2026-04-14', '2026-04-13'))).toBe(true);
    expect(asksAt('weekly', moment('2026-04-13', '2026-04-10')), 'Monday after Friday').toBe(true);
    expect(asksAt('weekly', moment('2026-04-14', '2026-04-13')), 'Tuesday after Monday').toBe(false);
    // Memorial Day 2026 is Monday 05-25: Tuesday 05-26 is that week's first trade date.
    expect(asksAt('weekly', moment('2026-05-26', '2026-05-22')), 'Tuesday after a Monday holiday').toBe(true);
    expect(asksAt('monthly', moment('2026-05-01', '2026-04-30'))).toBe(true);
    expect(asksAt('monthly', moment('2026-05-04', '2026-05-01'))).toBe(false);
    // 2026-08-01 is a Saturday: Monday 08-03 is August's first trade date.
    expect(asksAt('monthly', moment('2026-08-03', '2026-07-31'))).toBe(true);
  });

  it('every_days: index − the cycle start ≥ every_days; none set, any open', () => {
    expect(spacedEnough(3, moment('', '', 5), 2)).toBe(true);
    expect(spacedEnough(3, moment('', '', 4), 2)).toBe(false);
    expect(spacedEnough(undefined, moment('', '', 2), 2)).toBe(true);
  });

  it('min_amount in payoutDue: 999.99 of a 1,000.00 minimum is not taken, 1,000.00 is', () => {
    const rules: PayoutRules = {
      minDays: 0,
      winningDayCents: 1,
      minWinningDays: 0,
      bufferCents: 0,
      maxFraction: '1',
      split: [{ trader: '1' }],
      request: 'auto',
      minAmountCents: 100_000,
    };
    const view = (profitCents: number) => ({
      balanceCents: 5_000_000 + profitCents,
      startingBalanceCents: 5_000_000,
      dayPnlCents: [profitCents],
    });
    expect(payoutDue(rules, view(99_999))).toBe(0);
    expect(payoutDue(rules, view(100_000))).toBe(100_000);
  });
});
