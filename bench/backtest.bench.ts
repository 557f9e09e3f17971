// Back-test throughput (issue 5 target): the demo grid (12 cells × 240 traders × 21 trade dates of real 6E
// data) on every core in <= 60 s; reported as wall time and account-session-days per second. One run: it is
// itself a minute of work, and cells already average many accounts.
import { join } from 'node:path';
import { loadBacktestConfig, type BacktestConfig } from '../src/backtest/backtest-config.js';
import { parseFunnel } from '../src/backtest/funnel-config.js';
import { findPlanFile } from '../src/scenario/plan-files.js';
import { defaultWorkers, runBacktest } from '../src/backtest/run-backtest.js';
import { packageRoot } from '../src/market/holiday-file.js';
import type { Bench } from './bench.js';

const DEMO = () => loadBacktestConfig(join(packageRoot(), 'fixtures', 'backtest', '6e-january-2024.yaml'));

export const backtestBench: Bench = {
  name: 'backtest',
  description: 'the demo back-test grid (fixtures/backtest/6e-january-2024.yaml) on every core',
  run: (log) => runGrid(DEMO(), log),
};

/**
 * The same grid with the whole funnel on (docs/backtesting.md#the-funnel), the figures: $165 monthly,
 * resets $99 at 0.5 up to 3, funded-50k-eod with $149 activation and the payout rules. Compare with `backtest`,
 * run back to back: the funnel should cost under 15 % of its throughput.
 */
export const backtestFunnelBench: Bench = {
  name: 'backtest-funnel',
  description: 'the demo grid with the funnel (evaluation billing, resets, funded accounts, payouts) on every core',
  run: (log) => {
    const config = DEMO();
    const funnel = parseFunnel(
      {
        evaluation: { fee: '165.00', billing: 'monthly', reset: { fee: '99.00', rate: '0.5', max: 3 } },
        funded: {
          plan: 'funded-50k-eod',
          activation_fee: '149.00',
          payout: {
            min_days: 5,
            winning_day: '200.00',
            min_winning_days: 5,
            buffer: '2000.00',
            max_fraction: '0.5',
            cap: '5000.00',
            consistency_pct: '30',
            split: [{ up_to: '10000.00', trader: '1.0' }, { trader: '0.9' }],
          },
        },
      },
      (name) => findPlanFile(name, config.file)?.fields ?? `a bundled plan, not ${name}`,
    );
    config.economics = { pricePaidCents: 0, payoutShare: '0', ...(funnel ? { funnel } : {}) };
    return runGrid(config, log);
  },
};

async function runGrid(config: BacktestConfig, log: (line: string) => void) {
  const workers = defaultWorkers();
  const start = performance.now();
  const run = await runBacktest(config, { workers });
  const seconds = (performance.now() - start) / 1000;
  const accountSessionDays = run.cells.reduce((n, c) => n + c.accountSessionDays, 0);
  const accounts = run.cells.reduce((n, c) => n + c.summary.accounts, 0);
  const rate = Math.round(accountSessionDays / seconds);
  log(
    `${run.cells.length} cells, ${accounts} accounts, ${accountSessionDays} account-session-days in ${seconds.toFixed(1)} s on ${workers} workers: ${rate.toLocaleString('en-US')} account-session-days/s (target: <= 60 s)`,
  );
  return {
    cells: run.cells.length,
    accounts,
    accountSessionDays,
    workers,
    seconds: +seconds.toFixed(2),
    accountSessionDaysPerSecond: rate,
  };
}
