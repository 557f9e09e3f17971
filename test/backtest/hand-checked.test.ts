// A back-test small enough to check by hand: two historical traders (fixtures/trader-fills.csv) on a 1 ES
// ($50 a point, $2.50 a side) plan over three trade dates of ESM6 prints (fixtures/esm6-ticks.csv), on a 2 × 2
// grid of max_drawdown_value × daily_loss_value. Every row of cells.csv and traders.csv below is worked out
// in the comments from those files and docs/risk-rules.md, then compared byte for byte.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { backtestSummaryLines } from '../../src/reports/backtest-summary.js';
import { loadBacktestConfig } from '../../src/backtest/config/backtest-config.js';
import { cellsCsv, summaryDocument, tradersCsv } from '../../src/reports/backtest-outputs.js';
import { runStatistics } from '../../src/backtest/stats/decisions.js';
import { CAUSES } from '../../src/backtest/cells/outcomes.js';
import { runBacktest, type BacktestRun } from '../../src/backtest/run-backtest.js';
import { runCli } from '../cli/run-cli.js';

const CONFIG = fileURLToPath(new URL('./fixtures/hand-checked.yaml', import.meta.url));
const TRADER_FILLS = fileURLToPath(new URL('./fixtures/trader-fills.csv', import.meta.url));

/*
 * Plan mini-50k: $50,000, eod_balance, cap "0" (the floor never trails above $50,000), profit target $1,000 in
 * at least 2 trading days, commission $2.50 per contract per side. Trade dates 04-07, 04-08, 04-09 (2026, CT).
 *
 * ann
 *   04-07  buy 1 @ 5000.00, sell 1 @ 5014.00: +14 × 50 − 5 = +695            balance 50,695.00
 *          roll 17:00: eod peak 50,695. Max-loss trigger min(50,695 − dd, 50,000):
 *          dd 500 → 50,000;  dd 1500 → 49,195.  Daily trigger (daily 300): 50,695 − 300 = 50,395.
 *   04-08  buy 1 @ 5020.00 (−2.50)                                            balance 50,692.50
 *          09:30 print 5012.00: equity 50,692.50 − 400 = 50,292.50
 *            daily 300: ≤ 50,395 → daily_loss_breach; flattened at the 10:00 print 5008.00:
 *            −12 × 50 − 2.50 = −602.50 → balance 50,090.00; the 11:01 sell is dropped (locked).
 *          10:30 print 5005.00: equity 50,692.50 − 750 = 49,942.50
 *            dd 500, no daily: ≤ 50,000 → failed on day 2; flattened at the 11:00 print 5010.00:
 *            −10 × 50 − 2.50 → balance 50,190.00. Later fills are dropped.
 *            dd 1500, no daily: above 49,195; the 11:01 sell @ 5010.00 books −502.50 → 50,190.00.
 *   04-09  roll: daily cells start the day at 50,090 (daily trigger 49,790); the floors above stay.
 *          buy 2 @ 5030.00 (−5). 08:45 print 5029.00: equity = balance − 5 − 100
 *            dd 500 + daily 300: 50,085 − 100 = 49,985 ≤ 50,000 → failed on day 3; flattened at the 08:50
 *            print 5028.00: −2 × 2 × 50 − 5 = −205 → balance 49,880.00.
 *          sell 2 @ 5039.00: +9 × 2 × 50 − 5 = +895 (day: +890)
 *            dd 1500, no daily: 50,190 + 890 = 51,080; at the 17:00 roll profit 1,080 ≥ 1,000 in 3 days → passed.
 *            dd 1500 + daily 300: 50,090 + 890 = 50,980; profit 980 < 1,000 → active, profit_target_not_reached.
 * bob
 *   04-07  buy 1 @ 5000.00, sell 1 @ 5025.00: +25 × 50 − 5 = +1,245 → 51,245.00 in every cell; profit is
 *          enough but it is one trading day of the 2 required → active, min_trading_days_not_met.
 *
 * Dropped fills (ann's; bob's all book): dd 500, no daily: failed on 04-08, so the 11:01 sell and both 04-09
 * fills are dropped: 3 failed. dd 500 + daily 300: the 11:01 sell is dropped (locked), the 04-09 sell after the
 * 08:45 failure (failed): 1 + 1. dd 1500, no daily: none. dd 1500 + daily 300: the 11:01 sell (locked): 1.
 * Each dropped fill leaves ann's own position flat beside a flat account, so no booked fill opens a position she
 * never had: positions_never_had 0 everywhere (test/backtest/fills/positions-never-had.test.ts has one).
 *
 * Fills off the market (more than 2 ticks outside the prints of their minute, or of the nearest minutes with prints
 * within 5): the entries sit on prints, but three exits were made up beside hourly ticks. ann's 04-07 sell at
 * 5014.00 (09:01) against 09:00's 5010.00: 16 ticks above; bob's 5025.00 (09:02): 60 above; ann's 04-09 sell at
 * 5039.00 (09:01) against 09:00's 5040.00: 4 below. ann 2, bob 1, each cell 3 (the same in every cell); every fill
 * has a print within 5 minutes, so fills_no_market 0 (test/backtest/fills/off-market-fills.test.ts).
 *
 * Cells (price_paid 100.00, payout_share 0.80): revenue 2 × 100 = 200.00 each; the only pass (cell 2, ann,
 * profit 1,080) pays 0.80 × 1,080 = 864.00, so cell 2 nets 200 − 864 = −664.00. mean_final_balance:
 * (ann + bob) / 2, e.g. cell 0 (50,190 + 51,245) / 2 = 50,717.50.
 *
 * 95 % Wilson intervals (z² = 3.841459, n = 2, so 1 + z²/n = 2.920729): 0 of 2 → centre = half =
 * (z²/4) / 2.920729 = 0.328814, so [0, 0.6576]; 1 of 2 → centre 0.5, half = z · √(0.125 + z²/16) / 2.920729 =
 * 0.405469, so [0.0945, 0.9055]. The failure rates use the same intervals: 1 of 2 in cells 0 and 1, 0 of 2 else.
 *
 * Net per trader: each pays 100.00; ann's pass in cell 2 pays out 864.00, so her net there is −764.00 and the
 * cell's (−764 + 100) / 2 = −332.00; 100.00 everywhere else. Cells 0, 1 and 3: every trader nets the same, so the
 * interval is that value. Cell 2: two traders carry the spread, under ten, so the t interval: s = 864 / √2 =
 * 610.94, t(0.975, 1) = 12.706205, −332.00 ± 12.706205 · 610.94 / √2 = ±5,489.08: −5,821.09 to 5,157.09 (cents
 * rounded outward). Two traders say little about a mean.
 *
 * Against cell 0 (9 comparisons): only ann ever moves, one trader, so every McNemar p is 1; her −864.00 in cell 2
 * is the only net that moves: the likelihood's p for (−864, 0) is 0.6274 (the t-test's, t = −1 on 1 degree of
 * freedom, is 0.5; the larger stands, as two traders carry it): no_evidence everywhere. With 9 comparisons an exact test
 * needs 9 traders all one way (2 / 2⁹ = 0.0039 < 0.05 / 9 = 0.0056 ≤ 2 / 2⁸), more than the 2 traders: the
 * smallest difference in a rate this run could detect is capped at 1.
 */
const CELLS_CSV = `cell,risk_profile.max_drawdown_value,risk_profile.daily_loss_value,accounts,passed,failed_max_loss,daily_lock_days,pass_rate,median_days_to_pass,median_days_to_fail,mean_final_balance,revenue,payouts,net,pass_rate_low,pass_rate_high,fail_rate,fail_rate_low,fail_rate_high,net_per_trader,net_per_trader_low,net_per_trader_high,fills_dropped_locked,fills_dropped_failed,fills_dropped_passed,positions_never_had,fills_off_market,fills_no_market,failed
0,500,none,2,0,1,0,0.0000,,2,50717.50,200.00,0.00,200.00,0.0000,0.6576,0.5000,0.0945,0.9055,100.00,100.00,100.00,0,3,0,0,3,0,1
1,500,300,2,0,1,1,0.0000,,3,50562.50,200.00,0.00,200.00,0.0000,0.6576,0.5000,0.0945,0.9055,100.00,100.00,100.00,1,1,0,0,3,0,1
2,1500,none,2,1,0,0,0.5000,3,,51162.50,200.00,864.00,-664.00,0.0945,0.9055,0.0000,0.0000,0.6576,-332.00,-5821.09,5157.09,0,0,0,0,3,0,0
3,1500,300,2,0,0,1,0.0000,,,51112.50,200.00,0.00,200.00,0.0000,0.6576,0.0000,0.0000,0.6576,100.00,100.00,100.00,1,0,0,0,3,0,0
`;

// The first evaluation (the only one: no funnel) as in `outcome`, and its day as in `days`; `open` while active. Last,
// each trader's fills off the market and with no market (above).
const TRADERS_CSV = `cell,trader,strategy,outcome,cause,days,trading_days,daily_lock_days,final_balance,net,fills_dropped_locked,fills_dropped_failed,fills_dropped_passed,positions_never_had,first_outcome,first_outcome_day,fills_off_market,fills_no_market
0,ann,fills,failed,max_loss_breach,2,2,0,50190.00,100.00,0,3,0,0,failed,2,2,0
0,bob,fills,active,min_trading_days_not_met,3,1,0,51245.00,100.00,0,0,0,0,open,,1,0
1,ann,fills,failed,max_loss_breach,3,3,1,49880.00,100.00,1,1,0,0,failed,3,2,0
1,bob,fills,active,min_trading_days_not_met,3,1,0,51245.00,100.00,0,0,0,0,open,,1,0
2,ann,fills,passed,passed,3,3,0,51080.00,-764.00,0,0,0,0,passed,3,2,0
2,bob,fills,active,min_trading_days_not_met,3,1,0,51245.00,100.00,0,0,0,0,open,,1,0
3,ann,fills,active,profit_target_not_reached,3,3,1,50980.00,100.00,1,0,0,0,open,,2,0
3,bob,fills,active,min_trading_days_not_met,3,1,0,51245.00,100.00,0,0,0,0,open,,1,0
`;

describe('a hand-checked back-test (2 historical traders, 3 ES trade dates, 2 × 2 grid)', () => {
  let run: BacktestRun;
  beforeAll(async () => {
    run = await runBacktest(loadBacktestConfig(CONFIG), { workers: 1 });
  });

  it('cells.csv: who fails, who passes, daily-lock days, medians, mean balance, revenue, payouts, net', () => {
    expect(cellsCsv(run)).toBe(CELLS_CSV);
  });

  it('traders.csv: one row per trader × cell with outcome, cause, days and final balance', () => {
    expect(tradersCsv(run)).toBe(TRADERS_CSV);
  });

  it('summary.json: the run identity, per-cell counts by cause and the best-net cell', () => {
    const doc = summaryDocument(run);
    expect(doc).toMatchObject({
      name: 'hand-checked ES grid',
      seed: 1,
      period: { from: '2026-04-07', to: '2026-04-09' },
      base_plan: 'mini-50k',
      grid: { 'risk_profile.max_drawdown_value': ['500', '1500'], 'risk_profile.daily_loss_value': [null, '300'] },
      traders: 2,
      best_net_cell: 0, // cells 0, 1 and 3 tie at 200.00; the lowest index wins
    });
    const cells = doc.cells as Array<Record<string, unknown>>;
    expect(cells.map((c) => c.values)).toEqual([
      { 'risk_profile.max_drawdown_value': '500', 'risk_profile.daily_loss_value': null },
      { 'risk_profile.max_drawdown_value': '500', 'risk_profile.daily_loss_value': '300' },
      { 'risk_profile.max_drawdown_value': '1500', 'risk_profile.daily_loss_value': null },
      { 'risk_profile.max_drawdown_value': '1500', 'risk_profile.daily_loss_value': '300' },
    ]);
    expect(cells.map((c) => [c.fills_off_market, c.fills_no_market])).toEqual([
      [3, 0],
      [3, 0],
      [3, 0],
      [3, 0],
    ]);
    expect(cells.map((c) => c.fills_dropped)).toEqual([
      { locked: 0, failed: 3, passed: 0 },
      { locked: 1, failed: 1, passed: 0 },
      { locked: 0, failed: 0, passed: 0 },
      { locked: 1, failed: 0, passed: 0 },
    ]);
    expect(cells.map((c) => [c.passed, c.failed_max_loss, c.failed, c.active])).toEqual([
      [0, 1, 1, 1],
      [0, 1, 1, 1],
      [1, 0, 0, 1],
      [0, 0, 0, 2],
    ]);
    // Every cause is a key, the rules no plan here turns on at 0 (docs/backtesting.md#per-cell-cellscsv-summaryjson).
    const none = Object.fromEntries(CAUSES.map((cause) => [cause, 0]));
    expect(cells.map((c) => c.causes)).toEqual([
      {
        ...none,
        passed: 0,
        max_loss_breach: 1,
        profit_target_not_reached: 0,
        min_trading_days_not_met: 1,
        consistency_not_met: 0,
      },
      {
        ...none,
        passed: 0,
        max_loss_breach: 1,
        profit_target_not_reached: 0,
        min_trading_days_not_met: 1,
        consistency_not_met: 0,
      },
      {
        ...none,
        passed: 1,
        max_loss_breach: 0,
        profit_target_not_reached: 0,
        min_trading_days_not_met: 1,
        consistency_not_met: 0,
      },
      {
        ...none,
        passed: 0,
        max_loss_breach: 0,
        profit_target_not_reached: 1,
        min_trading_days_not_met: 1,
        consistency_not_met: 0,
      },
    ]);
    expect(cells[2]).toMatchObject({
      pass_rate: '0.5000',
      median_days_to_pass: 3,
      median_days_to_fail: null,
      payouts: '864.00',
      net: '-664.00',
      pass_rate_95: { low: '0.0945', high: '0.9055' },
    });
    expect(cells[0]).toMatchObject({ pass_rate_95: { low: '0.0000', high: '0.6576' } });
  });

  it("report samples: a failed account's line ends at the first sample that saw its breach; bob's runs on", () => {
    // Cell 0 (500/none): ann breaches at the 10:30 CT print of 04-08 (equity 49,942.50); the 11:00 CT sample
    // (16:00Z) is the first after it and her last point. Bob is sampled every 30 minutes to the end.
    const [ann, bob] = run.cells[0]!.samples;
    expect(ann!.points.at(-1)).toEqual([Date.parse('2026-04-08T16:00:00Z'), 4_994_250, 5_000_000, null]);
    expect(bob!.points.at(-1)![0]).toBe(Date.parse('2026-04-09T20:30:00Z'));
    expect(ann!.points.length).toBeLessThan(bob!.points.length);
  });

  it('report fans: p10/p50/p90 headroom (equity − max-loss trigger) over every account, nearest rank', () => {
    // Two accounts: p10 and p50 are the lower headroom, p90 the higher. At the end of cell 0: ann 50,190 − 50,000
    // = 190.00, bob 51,245 − 50,000 = 1,245.00. Cell 1: ann failed at 49,880.00, headroom −120.00.
    expect(run.cells[0]!.fan.at(-1)).toEqual([Date.parse('2026-04-09T20:30:00Z'), 19_000, 19_000, 124_500]);
    expect(run.cells[1]!.fan.at(-1)).toEqual([Date.parse('2026-04-09T20:30:00Z'), -12_000, -12_000, 124_500]);
  });

  it('summary.json: every cell with its metrics and intervals, and its decisions against cell 0, all no_evidence', () => {
    const doc = summaryDocument(run);
    const cells = doc.cells as Array<Record<string, unknown>>;
    expect(cells[2]!.metrics).toEqual({
      pass_rate: { value: '0.5000', low: '0.0945', high: '0.9055' },
      fail_rate: { value: '0.0000', low: '0.0000', high: '0.6576' },
      net_per_trader: { value: '-332.00', low: '-5821.09', high: '5157.09' },
    });
    // Nothing is resampled any more: the key stays for readers of earlier files.
    expect(doc).toMatchObject({ compare_to: 0, subset: null, resampling: { bootstrap: 0, sign_flips: 0 } });
    const decisions = doc.decisions as Array<Record<string, unknown>>;
    expect(decisions.map((d) => [d.cell, d.metric, d.difference])).toEqual([
      [1, 'pass_rate', '0.0000'],
      [1, 'fail_rate', '0.0000'],
      [1, 'net_per_trader', '0.00'],
      [2, 'pass_rate', '0.5000'],
      [2, 'fail_rate', '-0.5000'],
      [2, 'net_per_trader', '-432.00'], // (−864.00 + 0) / 2
      [3, 'pass_rate', '0.0000'],
      [3, 'fail_rate', '-0.5000'],
      [3, 'net_per_trader', '0.00'],
    ]);
    expect(decisions.map((d) => d.p)).toEqual([
      '1.0000',
      '1.0000',
      '1.0000',
      '1.0000',
      '1.0000',
      '0.6274',
      '1.0000',
      '1.0000',
      '1.0000',
    ]);
    expect(
      decisions.every((d) => d.p_adjusted === '1.0000' && d.verdict === 'no_evidence' && d.p_mc_se === '0.0000'),
    ).toBe(true);
    expect(decisions.filter((d) => d.metric !== 'net_per_trader').every((d) => d.detectable === '1.0000')).toBe(true);
    // Nobody's net moved in cells 1 and 3: nothing to detect, said as such.
    expect(decisions.filter((d) => d.metric === 'net_per_trader').map((d) => d.detectable)).toEqual([
      null,
      '3888.00',
      null,
    ]);
    // ann's −864.00 in cell 2: (2.772921 + 0.841621) · √(86,400²) / 2 = 1,561.48 by power (z = Φ⁻¹(1 − 0.05/18)),
    // but 9 movers of the typical 864.00 are needed at Holm's strictest level: 9 · 864.00 / 2 = 3,888.00. Its
    // interval is at Holm's level for it, 0.05 · 0.6274 / 1 = 0.031371: t(1 − 0.0156857, 1) = 20.276601, −432.00 ±
    // 20.276601 · 610.94 / √2 = ±8,759.49, so −9,191.50 to 8,327.50 (outward). Two traders carry it; ten effective
    // traders would take 10 · 2 / 2 = 10 a cell.
    expect(decisions.find((d) => d.cell === 2 && d.metric === 'net_per_trader')).toMatchObject({
      low: '-9191.50',
      high: '8327.50',
      interval_level: '0.031371',
      moved: 1,
      rests_on: { traders: 2, settle: 10 },
    });
    // ann passes in cell 2 only: 1 discordant trader, θ of Clopper–Pearson from 0.025 to 1, (2θ − 1)/2 from −0.475.
    expect(decisions.find((d) => d.cell === 2 && d.metric === 'pass_rate')).toMatchObject({
      low: '-0.4750',
      high: '0.5000',
    });
  });

  it('summary.json keeps its comparisons and guidance, now each cell against cell 0 and by the paired formula', () => {
    const doc = summaryDocument(run);
    const comparisons = doc.comparisons as Array<Record<string, unknown>>;
    expect(comparisons.map((c) => [c.first, c.second])).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
    ]);
    // ann passes in cell 2 only: one discordant trader.
    expect(comparisons[1]).toEqual({
      first: 0,
      second: 2,
      passed_first: 0,
      passed_second: 1,
      only_first: 0,
      only_second: 1,
      p_value: '1.0000',
      p_adjusted: '1.0000',
      within_noise: true,
    });
    // 1 trader passes differently in 3 comparisons of 2 traders: ψ = 1/6. (z + 0.8416)² = 13.0649; traders for
    // 1 point: 13.0649 · (1/6) / 0.0001 = 21,774.9 → 21,775; 2 points 5,443.7 → 5,444; 5 points 871.0 → 871 (all
    // above 9 traders / δ: 900, 450, 180). ψ's 95 % Wilson interval with 2 traders, 0.0125 to 0.7592, gives the
    // ranges (its low end's needs fall under the floor of 9 / δ or of ψ = 1/6's: 21,775, 5,444 and 871 stand).
    expect(doc.guidance).toEqual({
      traders: 2,
      mean_pass_rate: '0.1250',
      discordance: '0.1667',
      comparisons: 9,
      z: '2.7729',
      detectable_difference: '1.0000',
      discordance_95: { low: '0.0125', high: '0.7592' },
      traders_for_difference: [
        { difference: '0.0100', traders: 21_775, low: 21_775, high: 99_192 },
        { difference: '0.0200', traders: 5_444, low: 5_444, high: 24_798 },
        { difference: '0.0500', traders: 871, low: 871, high: 3_968 },
      ],
    });
  });

  it('summary.json: the first evaluations in time, by trade date, and the share still open at the end', () => {
    const cells = summaryDocument(run).cells as Array<Record<string, unknown>>;
    // Bob is open in every cell; ann fails on day 2 in cell 0, on day 3 in cell 1, passes on day 3 in cell 2 and is
    // open in cell 3. With nobody censored before the end, the incidence by day d is the share by then: 1 of 2 is
    // 0.5000 with Wilson's interval 0.0945 to 0.9055 (as pass_rate_95 of 1 of 2), 0 of 2 is 0 to 0.6576.
    expect(cells.map((c) => c.open_at_end)).toEqual(['0.5000', '0.5000', '0.5000', '1.0000']);
    const none = { value: '0.0000', low: '0.0000', high: '0.6576' };
    const half = { value: '0.5000', low: '0.0945', high: '0.9055' };
    expect(cells[0]!.incidence).toEqual([
      { day: 1, at_risk: 2, pass: none, fail: none },
      { day: 2, at_risk: 2, pass: none, fail: half },
      { day: 3, at_risk: 1, pass: none, fail: half },
    ]);
    expect((cells[2]!.incidence as unknown[])[2]).toEqual({ day: 3, at_risk: 2, pass: half, fail: none });
  });

  it('a short horizon is said first: over a quarter of first evaluations open at the end of some cell', () => {
    expect(summaryDocument(run).warnings).toEqual([
      {
        code: 'short_horizon',
        message:
          '100.0% of first evaluations were still open at the end of the period in cell #3 (50.0% to 100.0% across the cells; over 25.0% in 4 of 4): pass and fail rates are by day 3, not final, and a plan that fails traders slowly looks safer than one that fails them fast. Read the incidence by day in report.html, or run a longer period (market.resample).',
      },
    ]);
    expect(backtestSummaryLines(run, 'out', 2, 1)[0]).toMatch(
      /^warning \(short_horizon\): 100\.0% of first evaluations/,
    );
  });

  it('the CLI summary: the highest net and what its paired comparison says, then the verdicts per metric', () => {
    const lines = backtestSummaryLines(run, 'out', 2, 1).filter((line) => !line.startsWith('warning'));
    // Cells 0, 1 and 3 net 100.00 a trader; the highest (the lowest index on a tie) is the reference itself.
    expect(lines[2]).toBe(
      'highest net: cell #0 (EOD trailing $500 · no daily limit) at $100.00 a trader (95% interval $100.00 to $100.00), the reference cell: see how each other cell compares with it below',
    );
    expect(lines.slice(3, 8)).toEqual([
      'pass rate against cell #0: 0 of 3 cells differ; the rest: no evidence (this run would detect about 100.0 points); #1, #3: no trader passed in one cell and not the other',
      'failure rate against cell #0: 0 of 3 cells differ; the rest: no evidence (this run would detect about 100.0 points); #1: no trader failed in one cell and not the other',
      // Cells 1 and 3: no trader's net moved; cell 2: 9 · 864.00 / 2 (above).
      "net per trader against cell #0: 0 of 3 cells differ; the rest: no evidence (this run would detect about $3,888.00); #1, #3: no trader's net moved between the two cells",
      "  #2's difference in net rests on about 2 traders (a few large nets carry it); about 10 traders a cell would hold ten",
      'paired by trader, p Holm-adjusted over 9 comparisons, "differs" when under 0.05; 2 points of pass rate need about 5,444 (5,444 to 24,798) traders a cell (add traders to the fills file, or traders.synthetic blocks to the config; --traders sets only synthetic traders, and this config has none); see report.html "Signal or noise"',
    ]);
  });

  it('the CLI summary of a highest net that is not the reference says what the paired comparison found', () => {
    // The same run with cell 2 as the reference: cell 0 nets the most, +432.00 a trader against it, no evidence.
    const statistics = runStatistics(run.cells, 2);
    const lines = backtestSummaryLines({ ...run, statistics }, 'out', 2, 1).filter((l) => !l.startsWith('warning'));
    expect(lines[2]).toMatch(
      /^highest net: cell #0 .* at \$100\.00 a trader \(95% interval \$100\.00 to \$100\.00\); against #2 \+\$432\.00 a trader: no evidence it differs from #2 \(adjusted p 1\.0000\)$/,
    );
  });

  it('the CLI writes the same files, and --json prints summary.json on stdout and nothing else', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'propsim-backtest-')), 'out');
    const { status, stdout, stderr } = runCli([
      'backtest',
      '--config',
      CONFIG,
      '--out',
      out,
      '--workers',
      '1',
      '--json',
    ]);
    expect(stderr).not.toMatch(/error/i);
    expect(stderr).toContain(
      `propsim backtest: warning: 3 historical fills lie more than 2 ticks outside the prices their instrument traded in their minute (fills_off_market in traders.csv, cells.csv and summary.json; report.html lists them); the first: ${TRADER_FILLS}:4: ann sell 1 ESM6 at 5014.00 at 2026-04-07T14:01:00.000Z, 16 ticks above ESM6's 5010.00 to 5010.00 between 14:00 and 14:01 UTC; --strict refuses them\n`,
    );
    expect(status).toBe(0);
    expect(readFileSync(join(out, 'cells.csv'), 'utf8')).toBe(CELLS_CSV);
    expect(readFileSync(join(out, 'traders.csv'), 'utf8')).toBe(TRADERS_CSV);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe(stdout);
    expect(JSON.parse(stdout)).toEqual({ ...summaryDocument(run), config: CONFIG });
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  });
});
