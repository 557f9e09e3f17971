// A grid over a scaling plan, a time limit and a daily loss that fails (docs/backtesting.md#what-is-measured): each
// failure's cause is the rule that failed the account, a time limit's counted on the trade date its roll closes, and
// every output follows (traders.csv, summary.json, cells.csv, the report's causes chart, the cell labels).
// fixtures/rule-axes.yaml: the hand-checked traders ann and bob (trader-fills.csv) and 4 synthetic traders whose every
// entry is 2 ES contracts, over the 3 trade dates of esm6-ticks.csv; mini-50k is eod_balance $1,500 capped at the
// start, daily $300, target $1,000 in 2 trading days, commission $2.50. A 2 × 3 × 2 grid:
//   cell = 6 × scaling (0: 2 contracts, 1: 1 contract) + 2 × time limit (0: 1, 1: 2, 2: none) + action (0: lock, 1: fail)
//
// By hand (test/backtest/hand-checked.test.ts works the same fills under dd 1500 + daily 300):
//   ann  04-07 +695 → 50,695.00. The roll: profit 695 < 1,000, not passed; daily trigger 50,695 − 300 = 50,395.
//        04-08 long 1 @ 5020.00 (−2.50); the 09:30 print 5012.00: equity 50,292.50 ≤ 50,395: a daily-loss breach.
//          lock: locked, flattened at 5008.00 → 50,090.00; 04-09 +890 → 50,980.00: profit 980, still active.
//          fail: failed on day 2, daily_loss_failure; flattened → 50,090.00.
//   bob  04-07 +1,245 → 51,245.00 on one trading day of the 2 required: never passes.
//   The time limit fails whoever is active at the roll that closes trade date 1 (2): ann and bob both at 1; at 2, bob,
//   and ann when her breach only locked her (a lock does not hold the deadline back). Without a limit, ann (lock)
//   and bob end active: profit_target_not_reached and min_trading_days_not_met.
//   The synthetic traders' 2-lot entries meet a scaling plan of 1 contract and are refused: they never trade, so under a
//   time limit each fails by it on the limit's day, and without one ends active short of the target.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestConfig, type BacktestConfig } from '../../src/backtest/config/backtest-config.js';
import { runBacktest, type BacktestRun } from '../../src/backtest/run-backtest.js';
import { CAUSES } from '../../src/backtest/cells/outcomes.js';
import { FAILURE_RULES } from '../../src/core/accounts/failure-rules.js';
import { cellsCsv, summaryDocument, tradersCsv } from '../../src/reports/backtest-outputs.js';
import { plainCellLabel } from '../../src/reports/cell-labels.js';
import { shownCauses } from '../../src/reports/cause-chart.js';
import { backtestReportHtml } from '../../src/reports/backtest-report.js';

const CONFIG = fileURLToPath(new URL('./fixtures/rule-axes.yaml', import.meta.url));
const CONTRACT_LIMITS = fileURLToPath(new URL('./fixtures/contract-limit-axes.yaml', import.meta.url));

const isRule = (cause: string) => (FAILURE_RULES as readonly string[]).includes(cause);
const cellOf = (scaling: 0 | 1, limit: 0 | 1 | 2, action: 0 | 1) => 6 * scaling + 2 * limit + action;

describe('a grid over the scaling plan, the time limit and the daily loss action: causes by rule', () => {
  let config: BacktestConfig;
  let run: BacktestRun;
  beforeAll(async () => {
    config = loadBacktestConfig(CONFIG);
    run = await runBacktest(config, { workers: 1 });
  });

  const trader = (cell: number, name: string) => run.cells[cell]!.traders.find((t) => t.trader === name)!;
  const fate = (cell: number, name: string) => {
    const t = trader(cell, name);
    return [t.outcome, t.cause, t.days, t.firstOutcome, t.firstOutcomeDay];
  };

  it('the causes list passed, then every rule of FAILURE_RULES, then why an active account has not passed', () => {
    expect(CAUSES, 'a rule added to FAILURE_RULES becomes a cause by itself').toEqual([
      'passed',
      ...FAILURE_RULES,
      'profit_target_not_reached',
      'min_trading_days_not_met',
      'consistency_not_met',
    ]);
  });

  it('ann and bob, by hand: the time limit fails them at the roll that closes its last trade date', () => {
    for (const scaling of [0, 1] as const)
      for (const action of [0, 1] as const) {
        const one = cellOf(scaling, 0, action);
        expect(fate(one, 'ann'), `cell ${one}: active at the first roll, profit 695`).toEqual([
          'failed',
          'time_limit',
          1,
          'failed',
          1,
        ]);
        expect(fate(one, 'bob'), `cell ${one}: one trading day of 2 at the first roll`).toEqual([
          'failed',
          'time_limit',
          1,
          'failed',
          1,
        ]);
        const two = cellOf(scaling, 1, action);
        expect(fate(two, 'bob'), `cell ${two}: still one trading day at the second roll`).toEqual([
          'failed',
          'time_limit',
          2,
          'failed',
          2,
        ]);
      }
  });

  it('ann, by hand: her daily-loss breach on day 2 locks her (then the time limit of 2 fails her) or fails her', () => {
    for (const scaling of [0, 1] as const) {
      expect(fate(cellOf(scaling, 1, 0), 'ann'), 'lock: the lock does not hold back the deadline').toEqual([
        'failed',
        'time_limit',
        2,
        'failed',
        2,
      ]);
      expect(trader(cellOf(scaling, 1, 0), 'ann').dailyLockDays, 'lock: one daily-lock day').toBe(1);
      for (const limit of [1, 2] as const) {
        const cell = cellOf(scaling, limit, 1);
        expect(fate(cell, 'ann'), `cell ${cell}: the breach fails her during day 2`).toEqual([
          'failed',
          'daily_loss_failure',
          2,
          'failed',
          2,
        ]);
        expect(trader(cell, 'ann').dailyLockDays, 'a daily loss that fails takes no lock').toBe(0);
        expect(trader(cell, 'ann').finalBalanceCents, 'flattened at 5008.00: 50,090.00').toBe(5_009_000);
      }
      expect(fate(cellOf(scaling, 2, 0), 'ann'), 'no limit, lock: 980 short of 1,000').toEqual([
        'active',
        'profit_target_not_reached',
        3,
        'open',
        null,
      ]);
      expect(fate(cellOf(scaling, 2, 1), 'bob'), 'no limit: one trading day of 2').toEqual([
        'active',
        'min_trading_days_not_met',
        3,
        'open',
        null,
      ]);
    }
  });

  it('a scaling plan of 1 refuses every 2-lot entry: its synthetic traders fail by the time limit on its day', () => {
    for (const [limit, day] of [
      [0, 1],
      [1, 2],
    ] as const)
      for (const action of [0, 1] as const)
        for (const t of run.cells[cellOf(1, limit, action)]!.traders.filter((t) => t.strategy !== 'fills')) {
          expect(t.tradingDays, `${t.trader}: no entry fills`).toBe(0);
          expect([t.cause, t.days], `${t.trader}: never traded, failed when the limit ran out`).toEqual([
            'time_limit',
            day,
          ]);
        }
    for (const t of run.cells[cellOf(1, 2, 0)]!.traders.filter((t) => t.strategy !== 'fills'))
      expect(t.cause, `${t.trader}: no limit, still short of the target`).toBe('profit_target_not_reached');
  });

  it('summary.json: failed counts every rule, failed_max_loss max loss only, and the fail rate every failure', () => {
    const summary = summaryDocument(run) as {
      cells: Array<{
        failed_max_loss: number;
        failed: number;
        active: number;
        accounts: number;
        causes: Record<string, number>;
        metrics: { fail_rate: { value: string } };
        incidence: Array<{ fail: { value: string } }>;
      }>;
    };
    for (const [i, cell] of summary.cells.entries()) {
      const byRule = FAILURE_RULES.reduce((sum, rule) => sum + cell.causes[rule]!, 0);
      expect(cell.failed, `cell ${i}: failed is the sum over the rules`).toBe(byRule);
      expect(cell.failed_max_loss, `cell ${i}: no account reached the max-loss floor`).toBe(
        cell.causes.max_loss_breach,
      );
      expect(cell.metrics.fail_rate.value, `cell ${i}: the fail rate counts every failure`).toBe(
        (cell.failed / cell.accounts).toFixed(4),
      );
      expect(Object.keys(cell.causes), 'every cause is a key, zero or not').toEqual([...CAUSES]);
    }
    // Cell 0: all six fail by the time limit on day 1, so the first evaluations' fail incidence is 1 by day 1.
    expect(summary.cells[0]!.causes.time_limit).toBe(6);
    expect(summary.cells[0]!.incidence[0]!.fail.value).toBe('1.0000');
    expect(cellsCsv(run).split('\n')[0], 'failed is added last, after the columns readers know').toMatch(
      /,fills_off_market,fills_no_market,failed$/,
    );
    expect(tradersCsv(run)).toContain(',ann,fills,failed,daily_loss_failure,2,');
  });

  it('the cells read in words, and the causes chart draws the rules the grid turns on', () => {
    expect(run.cells.slice(0, 6).map((c) => plainCellLabel(c.cell.values, config.basePlan))).toEqual([
      'scaling 2 · 1 trade date to pass · daily loss locks',
      'scaling 2 · 1 trade date to pass · daily loss fails',
      'scaling 2 · 2 trade dates to pass · daily loss locks',
      'scaling 2 · 2 trade dates to pass · daily loss fails',
      'scaling 2 · no time limit · daily loss locks',
      'scaling 2 · no time limit · daily loss fails',
    ]);
    // Rules no plan here turns on (any added to FAILURE_RULES later) stay out of the chart.
    const drawn = ['max_loss_breach', 'daily_loss_failure', 'time_limit'];
    expect(shownCauses(run)).toEqual(CAUSES.filter((c) => !isRule(c) || drawn.includes(c)));
    const html = backtestReportHtml(run);
    const causes = html.slice(html.indexOf('Outcomes and their causes per cell'), html.indexOf('Outcomes in time'));
    for (const rule of ['time_limit', 'daily_loss_failure']) expect(causes, `${rule} in the legend`).toContain(rule);
  });

  it('a grid whose plans turn on no rule draws no always-empty rule series', async () => {
    const plain = await runBacktest(loadBacktestConfig(CONTRACT_LIMITS), { workers: 1 });
    expect(shownCauses(plain)).toEqual([
      'passed',
      'max_loss_breach',
      'profit_target_not_reached',
      'min_trading_days_not_met',
      'consistency_not_met',
    ]);
    expect(backtestReportHtml(plain), 'no time_limit series').not.toContain('time_limit');
  });
});
