// The funnel in a cell run (docs/backtesting.md#the-funnel), worked by hand: four historical traders
// (fixtures/funnel/fills.csv) over seven ES trade dates of fixtures/funnel/ticks.csv, no commission.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestConfig, type BacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { runBacktest, type BacktestRun } from '../../../src/backtest/run-backtest.js';
import { ResetDraws } from '../../../src/backtest/funnel/trader-funnel.js';
import { summaryDocument, tradersCsv } from '../../../src/reports/backtest-outputs.js';

const CONFIG = fileURLToPath(new URL('../fixtures/funnel/funnel.yaml', import.meta.url));

/*
 * Evaluation eval-mini: $50,000, static $500 (floor $49,500), target $500 in 1 trading day; fee $100 monthly;
 * reset $50 at rate 1, max 1. Funded funded-mini: $50,000, eod_balance $1,000 capped at the start ($49,000 until
 * the peak passes $50,000); activation $80. Payout: 2 days, 2 winning days of $100+, buffer $200, half the profit,
 * cap $1,000, largest winning day <= 60 % of the profit since the last payout, split 1.0 up to $300 then 0.8.
 * Trade dates: 04-07 Tue, 04-08 Wed, 04-09 Thu, 04-10 Fri, 04-13 Mon, 04-14 Tue, 04-15 Wed (7 sessions).
 *
 * ann  04-07  long 1 @ 5000; print 4989: 50,000 − 11 × 50 = 49,450 <= 49,500: failed (flattened @ 4990)
 *      04-08  open: reset (draw < 1), $50, a fresh evaluation; +12 × 50 = +600 -> 50,600: passed at the roll
 *      04-09  open: activation $80, funded account 50,000. +6 × 50 = +300 -> 50,300
 *      04-10  open: 1 day < 2, no payout.  +4 × 50 = +200 -> 50,500
 *      04-13  open: 2 days, 2 winning (300, 200), 300 × 100 <= 60 × 500. Amount min(1,000, 0.5 × 500 = 250,
 *             500 − 200 = 300) = 250, all in the first tier: the trader gets 250. Balance 50,250; counters restart.
 *             +8 × 50 = +400 -> 50,650
 *      04-14  open: 1 day since the payout < 2 (without the restart it would be 3 and pay). +150 -> 50,800
 *      04-15  open: 2 days, 2 winning (400, 150) but 400 × 100 = 40,000 > 60 × 550 = 33,000: no payout.
 *             +250 -> 51,050
 *      final roll: 3 days (400, 150, 250), 40,000 <= 60 × 800 = 48,000. Amount min(1,000, 0.5 × 1,050 = 525,
 *             1,050 − 200 = 850) = 525: 50 in the first tier (withdrawn 250 of 300) at 1.0, 475 at 0.8 = 380:
 *             the trader gets 430. Payouts 250 + 430 = 680; fees 100 + 50 + 80 = 230; net 230 − 680 = −450.
 *             Funded days: 04-09 to 04-15 = 5.
 * dee  04-07  long 1 @ 5000: failed like ann.  04-08 open: reset $50.  04-08 long 1 @ 5000, print 4979:
 *             48,950 <= 49,500: failed (flattened @ 4980: 49,000); max 1 reached: out. Fees 150, net 150.
 * bob  04-07  +1 × 50 = +50: active, short of the target. One bill (the period is shorter than 30 days): net 100.
 * cy   04-07  +12 × 50 = +600: passed at the 04-07 roll. 04-08 open: activation $80, funded account; its 04-08
 *             long 1 @ 5000 goes there: print 4979 = 48,950 <= 49,000: funded failed on 04-08, 1 funded day.
 *             Fees 180, net 180.
 * Cell: evaluation fees 4 × 100 = 400, resets 2 × 50 = 100, activations 2 × 80 = 160, payouts 680;
 * net 400 + 100 + 160 − 680 = −20.
 */
// first_outcome is the first evaluation's: ann and dee failed theirs on day 1 before their resets; cy passed on day 1.
// open_liability: ann's funded account ends at 50,525.00 after 775.00 withdrawn. Were her day conditions met, she could
// withdraw min(1,000.00 cap, 0.5 × 525.00 = 262.50, 525.00 − 200.00 buffer = 325.00) = 262.50, all past the 300.00
// tier: 0.8 × 262.50 = 210.00 to her. Cy's funded account failed: nothing is owed.
// Last, fills off the market (none) and with no market to compare: the ticks are hours apart, so each fill at hh:01 or
// hh:31 without a print within 5 minutes (every one not at 08:31, nor cy's and dee's 04-08 10:31 beside 10:30) has none:
// ann 6 (her exits 04-08 to 04-15), bob 2, cy 2 (04-07), dee 0.
const TRADERS_CSV = `cell,trader,strategy,outcome,cause,days,trading_days,daily_lock_days,final_balance,net,evaluations_bought,resets,pass_date,funded_days,payouts,payouts_amount,funded_outcome,fees_paid,fills_dropped_locked,fills_dropped_failed,fills_dropped_passed,positions_never_had,first_outcome,first_outcome_day,open_liability,fills_off_market,fills_no_market
0,ann,fills,passed,passed,2,2,0,50600.00,-450.00,1,1,2026-04-08,5,2,680.00,active,230.00,0,0,0,0,failed,1,210.00,0,6
0,dee,fills,failed,max_loss_breach,2,2,0,49000.00,150.00,1,1,,0,0,0.00,none,150.00,0,0,0,0,failed,1,0.00,0,0
0,bob,fills,active,profit_target_not_reached,7,1,0,50050.00,100.00,1,0,,0,0,0.00,none,100.00,0,0,0,0,open,,0.00,0,2
0,cy,fills,passed,passed,1,1,0,50600.00,180.00,1,0,2026-04-07,1,0,0.00,failed,180.00,0,0,0,0,passed,1,0.00,0,2
`;

async function run(change: (config: BacktestConfig) => void = () => undefined): Promise<BacktestRun> {
  const config = loadBacktestConfig(CONFIG);
  change(config);
  return runBacktest(config, { workers: 1 });
}

function pathOf(result: BacktestRun, trader: string) {
  return result.cells[0]!.traders.find((t) => t.trader === trader)!;
}

describe('the funnel in a cell (docs/backtesting.md#the-funnel)', () => {
  let result: BacktestRun;
  beforeAll(async () => {
    result = await run();
  });

  it("traders.csv gains each trader's path: evaluations bought, resets, pass date, funded days, payouts, fees", () => {
    expect(tradersCsv(result)).toBe(TRADERS_CSV);
  });

  it('net per cell = evaluation fees + reset fees + activation fees − payouts', () => {
    const cell = (summaryDocument(result).cells as Array<Record<string, unknown>>)[0]!;
    expect(cell.economics).toEqual({
      evaluation_fees: '400.00',
      reset_fees: '100.00',
      activation_fees: '160.00',
      payouts: '680.00',
      net: '-20.00',
      // Ann's funded account is the one still open; she is owed 210.00 (TRADERS_CSV): −20.00 − 210.00.
      open_funded: 1,
      open_liability: '210.00',
      net_after_liability: '-230.00',
    });
    // revenue and payouts keep their meaning: every fee, and the traders' shares.
    expect([cell.revenue, cell.payouts, cell.net]).toEqual(['660.00', '680.00', '-20.00']);
  });

  it("netCents: each trader's fees paid − payouts to them, summing to the cell's net", () => {
    const nets = result.cells[0]!.traders.map((t) => t.netCents);
    expect(nets).toEqual([-45_000, 15_000, 10_000, 18_000]);
    expect(nets.reduce((a, b) => a + b, 0)).toBe(result.cells[0]!.summary.netCents);
  });

  it('reset: after a max-loss failure, with probability rate, at most max times, a fresh evaluation next session', async () => {
    // max 2: dee's third evaluation opens 04-09 and stays active (no trades): fees 100 + 2 × 50 = 200.
    const twice = await run((c) => (c.economics.funnel!.evaluation.reset!.max = 2));
    expect(pathOf(twice, 'dee')).toMatchObject({ outcome: 'active', feesCents: 20_000, funnel: { resets: 2 } });
    // rate 0: nobody resets; ann's 04-08 fills go to her failed account (dropped): failed, one fee of 100.
    const never = await run((c) => (c.economics.funnel!.evaluation.reset!.rate = '0'));
    expect(pathOf(never, 'ann')).toMatchObject({ outcome: 'failed', days: 1, netCents: 10_000, funnel: { resets: 0 } });
    // Her 12 fills of 04-08 to 04-15 are all dropped by the failed account.
    expect(pathOf(never, 'ann').droppedFills).toEqual({ locked: 0, failed: 12, passed: 0 });
  });

  it('one reset draw per failure: a trader who draws no reset is out and never draws again', async () => {
    // rate 0.5, max 3, and the period to 05-07 (22 more session opens at which a second draw could happen).
    // ann (roster place 0) fails once; dee (place 1) fails again if its first draw resets it.
    const half = await run((c) => {
      c.economics.funnel!.evaluation.reset = { feeCents: 5_000, rate: '0.5', max: 3 };
      c.period.to = '2026-05-07';
    });
    const annDraws = new ResetDraws(1 * 1_000_003 + 0);
    expect(pathOf(half, 'ann').funnel!.resets).toBe(annDraws.resets('0.5') ? 1 : 0);
    const deeDraws = new ResetDraws(1 * 1_000_003 + 1);
    const deeResets = deeDraws.resets('0.5') ? (deeDraws.resets('0.5') ? 2 : 1) : 0;
    expect(pathOf(half, 'dee').funnel!.resets).toBe(deeResets);
  });

  it('activation fee at the pass; the funded account opens at the next session and takes the trades', () => {
    // cy passes at the 04-07 roll: the 04-08 trade lands in the funded account and fails it the same day.
    expect(pathOf(result, 'cy').funnel).toMatchObject({
      passDate: '2026-04-07',
      activationFeesCents: 8_000,
      fundedDays: 1,
      fundedOutcome: 'failed',
    });
  });

  it('monthly billing: the evaluation fee again every 30 calendar days while in evaluation', async () => {
    // 04-07 + 30 days = 05-07: bob (still in evaluation) is billed at the 05-07 session's open, not on 05-06;
    // ann, funded since 04-09, is not billed again.
    const toMay6 = await run((c) => (c.period.to = '2026-05-06'));
    expect(pathOf(toMay6, 'bob').funnel!.evaluationsBought).toBe(1);
    const toMay7 = await run((c) => (c.period.to = '2026-05-07'));
    expect(pathOf(toMay7, 'bob').funnel).toMatchObject({ evaluationsBought: 2, evaluationFeesCents: 20_000 });
    expect(pathOf(toMay7, 'ann').funnel!.evaluationsBought).toBe(1);
    // dee failed on 04-08 with no reset left: out, not billed again.
    expect(pathOf(toMay7, 'dee').funnel!.evaluationsBought).toBe(1);
    const oneTime = await run((c) => {
      c.period.to = '2026-05-07';
      c.economics.funnel!.evaluation.billing = 'one_time';
    });
    expect(pathOf(oneTime, 'bob').funnel!.evaluationsBought).toBe(1);
  });

  it('a grid axis written funded.<field> varies the funded plan, not the evaluation', async () => {
    // Cy's funded account with a $2,000 allowance: 4979.00 is 48,950 > 48,000, so it survives 04-08 and stays active.
    const grid = await run(
      (c) => (c.grid = [{ key: 'funded.risk_profile.max_drawdown_value', values: ['1000', '2000'] }]),
    );
    expect(grid.cells.map((cell) => cell.traders.find((t) => t.trader === 'cy')!.funnel!.fundedOutcome)).toEqual([
      'failed',
      'active',
    ]);
    // The evaluations are the same in both cells.
    expect(grid.cells[1]!.traders.map((t) => t.outcome)).toEqual(grid.cells[0]!.traders.map((t) => t.outcome));
  });

  it('the same on 1 and 2 workers, byte for byte (reset draws are per trader, not per thread or cell order)', async () => {
    const config = loadBacktestConfig(CONFIG);
    config.grid = [{ key: 'risk_profile.max_drawdown_value', values: ['500', '700'] }];
    config.economics.funnel!.evaluation.reset = { feeCents: 5_000, rate: '0.5', max: 3 };
    const one = await runBacktest(config, { workers: 1 });
    const two = await runBacktest(config, { workers: 2 });
    expect(tradersCsv(two)).toBe(tradersCsv(one));
    expect(JSON.stringify(summaryDocument(two))).toBe(JSON.stringify(summaryDocument(one)));
  });

  it('counters restart after a payout, and a payout waits for consistency', () => {
    // ann: paid at the 04-13 open and at the final roll only (see the worked example above).
    expect(pathOf(result, 'ann').funnel).toMatchObject({ payouts: 2, payoutsCents: 68_000, fundedOutcome: 'active' });
  });
});
