// `propsim optimize`'s throughput and its saving over a full grid (docs/optimizing.md#a-worked-run), small: the worked
// search's 72 candidates on 24 traders instead of 240 (stages of 3, 6, 12 and 24 traders, then the confirmation), on
// every core. Reported as account-session-days per second, and as the search's account-session-days against the full
// grid's at the last stage's size.
import { join } from 'node:path';
import { loadOptimizeConfig } from '../src/backtest/optimize/optimize-config.js';
import { runOptimize } from '../src/backtest/optimize/run-optimize.js';
import { defaultWorkers } from '../src/backtest/run-backtest.js';
import { packageRoot } from '../src/market/holiday-file.js';
import type { Bench } from './bench.js';

const TRADERS_PER_BLOCK = 8;

export const optimizeBench: Bench = {
  name: 'optimize',
  description: 'the worked plan search (fixtures/optimize/50k-plan-search.yaml) on 24 traders, on every core',
  run: async (log) => {
    const config = loadOptimizeConfig(join(packageRoot(), 'fixtures', 'optimize', '50k-plan-search.yaml'));
    for (const block of config.backtest.synthetic) block.count = TRADERS_PER_BLOCK;
    const workers = defaultWorkers();
    const start = performance.now();
    const run = await runOptimize(config, { workers });
    const seconds = (performance.now() - start) / 1000;
    const traders = TRADERS_PER_BLOCK * config.backtest.synthetic.length;
    const fullGrid = run.candidates.length * traders * run.days;
    const rate = Math.round(run.accountDays / seconds);
    const n = (x: number) => x.toLocaleString('en-US');
    log(
      `${run.candidates.length} candidates, ${run.stages.length} stages, chosen #${run.confirmation.chosen}: ${n(run.accountDays)} account-session-days in ${seconds.toFixed(1)} s on ${workers} workers: ${n(rate)}/s; the full grid on ${traders} traders: ${n(fullGrid)}`,
    );
    return {
      candidates: run.candidates.length,
      stages: run.stages.length,
      chosen: run.confirmation.chosen,
      accountSessionDays: run.accountDays,
      fullGridAccountSessionDays: fullGrid,
      workers,
      seconds: +seconds.toFixed(2),
      accountSessionDaysPerSecond: rate,
    };
  },
};
