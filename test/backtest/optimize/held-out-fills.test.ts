// Historical fills traders are split by the seed (docs/optimizing.md#confirmation): the search runs on one part, the
// confirmation on the other, never seen by the search. The hand-checked ES fills (ann, bob) over three trade dates.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadOptimizeConfig } from '../../../src/backtest/optimize/optimize-config.js';
import { runOptimize } from '../../../src/backtest/optimize/run-optimize.js';
import { splitFillsTraders, withPopulation } from '../../../src/backtest/optimize/search-population.js';
import { runBacktest } from '../../../src/backtest/run-backtest.js';
import { summaryDocument } from '../../../src/reports/optimize-outputs.js';

const HAND_CHECKED = fileURLToPath(new URL('../fixtures/hand-checked.yaml', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

function fillsConfig(): string {
  const { grid: _grid, ...config } = parse(readFileSync(HAND_CHECKED, 'utf8'));
  const optimize = {
    ...config,
    market: { files: [{ ...config.market.files[0], path: join(FIXTURES, 'esm6-ticks.csv') }] },
    traders: { fills: { path: join(FIXTURES, 'trader-fills.csv') } },
    search: { 'risk_profile.max_drawdown_value': ['500', '1500'], 'risk_profile.daily_loss_value': [null, '300'] },
    objective: { minimize: 'fail_rate' },
  };
  const path = join(mkdtempSync(join(tmpdir(), 'propsim-optimize-fills-')), 'fills.yaml');
  writeFileSync(path, JSON.stringify(optimize));
  return path;
}

describe('held-out fills traders', () => {
  it('the search runs one of the two fills traders, the confirmation the other, and a back-test of that one reproduces it', async () => {
    const config = loadOptimizeConfig(fillsConfig());
    const run = await runOptimize(config, { workers: 1 });
    const split = splitFillsTraders(['ann', 'bob'], 1);
    expect(run.searchFills).toEqual(split.search);
    expect(run.confirmation.fills).toEqual(split.heldOut);
    expect([...split.search, ...split.heldOut].sort()).toEqual(['ann', 'bob']);
    // Without --budget the budget is the full grid's, 4 candidates × 1 trader × 3 trade dates = 12, and the
    // confirmation's, the chosen and the base plan × 1 × 3 = 6: 18. Stage 1 spends 12 (4 × 1 × 3); a stage 2 of at
    // least ⌈4 / 3⌉ = 2 candidates would cost 6 more, beyond 18, so the search stops after stage 1 (a stage 2 would
    // only rerun the same trader). The confirmation: the held-out trader.
    expect(run.stages.map((s) => [s.evaluations.length, s.traders])).toEqual([[4, 1]]);
    expect(run.accountDays).toBe(18);
    expect(run.confirmation.traders).toBe(1);
    // The chosen candidate back-tested on the held-out trader alone, with the confirmation seed, gives its figures.
    const alone = withPopulation(config.backtest, { seed: run.confirmation.seed, fills: run.confirmation.fills });
    const check = await runBacktest(
      { ...alone, cells: [run.confirmation.chosen], compareTo: run.confirmation.chosen },
      { workers: 1 },
    );
    expect(check.cells[0]!.traders.map((t) => t.trader)).toEqual(split.heldOut);
    expect(check.statistics.cells[0]!.metrics).toEqual(run.confirmation.evaluation.metrics);
    // The choice is stage 1's best, made on the search's trader alone.
    expect(run.confirmation.chosen).toBe(run.stages[0]!.verdict.ranked[0]);
    // No constraints: nothing to check, and the outputs say so rather than that constraints were met.
    expect(run.confirmation.comparisons).toBe(0);
    expect(summaryDocument(run).verdict).toBe('no constraints');
  });
});
