// Back-test throughput (issue 5 target): the demo grid (12 cells × 240 traders × 21 trade dates of real 6E
// data) on every core in <= 60 s; reported as wall time and account-session-days per second. One run: it is
// itself a minute of work, and cells already average many accounts.
import { join } from 'node:path';
import { loadBacktestConfig, type BacktestConfig } from '../src/backtest/backtest-config.js';
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
    config.economics = {
      pricePaidCents: 0,
      payoutShare: '0',
      funnel: {
        evaluation: { feeCents: 16_500, billing: 'monthly', reset: { feeCents: 9_900, rate: '0.5', max: 3 } },
        funded: {
          planName: 'funded-50k-eod',
          plan: findPlanFile('funded-50k-eod', config.file)!.fields,
          activationFeeCents: 14_900,
          payout: {
            minDays: 5,
            winningDayCents: 20_000,
            minWinningDays: 5,
            bufferCents: 200_000,
            maxFraction: '0.5',
            capCents: 500_000,
            consistencyPct: '30',
            split: [{ upToCents: 1_000_000, trader: '1.0' }, { trader: '0.9' }],
          },
        },
      },
    };
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
