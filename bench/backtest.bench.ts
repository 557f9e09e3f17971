// Back-test throughput: the one-month grid (12 cells × 240 traders × 22 trade dates of real 6E
// data, its funnel on) on every core in <= 60 s; reported as wall time and account-session-days per second. One run: it is
// itself a minute of work, and cells already average many accounts.
import { join } from 'node:path';
import { loadBacktestConfig, type BacktestConfig } from '../src/backtest/config/backtest-config.js';
import { defaultWorkers, runBacktest } from '../src/backtest/run-backtest.js';
import { packageRoot } from '../src/market/holiday-file.js';
import type { Bench } from './bench.js';

const MONTH = () => loadBacktestConfig(join(packageRoot(), 'fixtures', 'backtest', '6e-january-2024.yaml'));

export const backtestBench: Bench = {
  name: 'backtest',
  description: 'the one-month back-test grid (fixtures/backtest/6e-january-2024.yaml) on every core',
  run: (log) => runGrid(MONTH(), log),
};

/**
 * The same grid without the funnel: price_paid only, as the demo was before its funnel
 * (docs/backtesting.md#the-funnel). Run back to back with `backtest`: the funnel and the statistics should cost
 * under 15 % of this throughput.
 */
export const backtestEvaluationOnlyBench: Bench = {
  name: 'backtest-evaluation-only',
  description:
    'the one-month grid with the evaluation price only (no resets, funded accounts or payouts) on every core',
  run: (log) => {
    const config = MONTH();
    config.economics = { pricePaidCents: 15_000, payoutShare: '0.90' };
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
