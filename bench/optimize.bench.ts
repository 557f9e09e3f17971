// `propsim optimize`'s throughput and its cost against a full grid (docs/optimizing.md#a-worked-run): the worked
// search as written (72 candidates, 240 traders), on every core. A first stage needs 61 traders for the 0.06
// pass-rate floor to drop anyone, so a smaller copy would be the full grid by construction. Reported as
// account-session-days per second, the stages (candidates run, kept), the chosen plan and its stability, and the
// search's account-session-days against the full grid's on the same 240 traders.
import { join } from 'node:path';
import { loadOptimizeConfig } from '../src/backtest/optimize/optimize-config.js';
import { runOptimize } from '../src/backtest/optimize/run-optimize.js';
import { syntheticCount } from '../src/backtest/optimize/search-population.js';
import { defaultWorkers } from '../src/backtest/run-backtest.js';
import { packageRoot } from '../src/market/holiday-file.js';
import type { Bench } from './bench.js';

export const optimizeBench: Bench = {
  name: 'optimize',
  description: 'the worked plan search (fixtures/optimize/50k-plan-search.yaml, 240 traders), on every core',
  run: async (log) => {
    const config = loadOptimizeConfig(join(packageRoot(), 'fixtures', 'optimize', '50k-plan-search.yaml'));
    const workers = defaultWorkers();
    const start = performance.now();
    const run = await runOptimize(config, { workers });
    const seconds = (performance.now() - start) / 1000;
    const traders = syntheticCount(config.backtest);
    const fullGrid = run.candidates.length * traders * run.days;
    const rate = Math.round(run.accountDays / seconds);
    const n = (x: number) => x.toLocaleString('en-US');
    const stages = run.stages.map((s) => `${s.evaluations.length} × ${s.traders} kept ${s.verdict.kept.length}`);
    const stability = run.choice.stability === null ? 'none' : run.choice.stability.toFixed(4);
    log(
      `${run.candidates.length} candidates, stages ${stages.join('; ')}; chosen #${run.confirmation.chosen} (stability ${stability}): ${n(run.accountDays)} account-session-days in ${seconds.toFixed(1)} s on ${workers} workers: ${n(rate)}/s; the full grid on ${traders} traders: ${n(fullGrid)}`,
    );
    return {
      candidates: run.candidates.length,
      stages: run.stages.map((s) => ({ candidates: s.evaluations.length, traders: s.traders, kept: s.verdict.kept })),
      chosen: run.confirmation.chosen,
      stability: run.choice.stability,
      accountSessionDays: run.accountDays,
      fullGridAccountSessionDays: fullGrid,
      workers,
      seconds: +seconds.toFixed(2),
      accountSessionDaysPerSecond: rate,
    };
  },
};
