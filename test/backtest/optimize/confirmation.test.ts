// The confirmation (docs/optimizing.md#confirmation) chooses nothing: it runs the search's choice and the base plan on
// unseen traders, and compares them by the back-test's paired test. Checked against a back-test of the two plans as
// grid cells, one run, and over a confirmation period of its own. The 6E two-week search, in this process.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';
import { describe, expect, it } from 'vitest';
import { loadOptimizeConfig } from '../../../src/backtest/optimize/optimize-config.js';
import { runOptimize, type OptimizeRun } from '../../../src/backtest/optimize/run-optimize.js';
import { withPopulation } from '../../../src/backtest/optimize/search-population.js';
import { runBacktest } from '../../../src/backtest/run-backtest.js';
import { summaryDocument } from '../../../src/reports/optimize-outputs.js';
import { versusBaseVerdict } from '../../../src/reports/optimize-words.js';
import type { Decision } from '../../../src/backtest/stats/decisions.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/search-6e.yaml', import.meta.url));
const MARKET = fileURLToPath(new URL('../../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'propsim-confirmation-'));

/** The fixture with its market path made absolute and `edit` applied to its text. */
function config(name: string, edit: (text: string) => string) {
  const text = readFileSync(FIXTURE, 'utf8').replace('../../../../fixtures/market/6EH4-2024-01.csv.gz', MARKET);
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, edit(text));
  return loadOptimizeConfig(path);
}

const maximizePass = (t: string) =>
  t.replace('maximize: net_per_trader', 'maximize: pass_rate').replace(/\n {2}constraints: .*\n/, '\n');

describe('the confirmation', () => {
  it('compares the chosen plan with the base plan as a back-test of both as grid cells does', async () => {
    const optimize = config('pass', maximizePass);
    const run = await runOptimize(optimize, { workers: 1 });
    // Stage 2's best pass rate by its lower bound: #2, 1,500 allowance and a 1,000 target.
    expect(run.confirmation.chosen).toBe(2);
    expect(run.confirmation.chosen).toBe(run.stages[run.stages.length - 1]!.verdict.ranked[0]);
    // The base plan (short-eval: 2,000.00 and 3,000.00) and #2 as cells 0 and 3 of one back-test on the
    // confirmation's traders, compared with cell 0.
    const population = withPopulation(optimize.backtest, { seed: run.confirmation.seed, fills: [] });
    const grid = [
      { key: 'risk_profile.max_drawdown_value', values: ['2000.00', '1500'] },
      { key: 'passing_criteria.profit_target', values: ['3000.00', '1000'] },
    ];
    const both = await runBacktest({ ...population, grid, cells: [0, 3], compareTo: 0 }, { workers: 1 });
    const independent = both.statistics.decisions.find((d) => d.metric === 'pass_rate')!;
    const { cell: _c, reference: _r, ...expected } = independent;
    const { cell: _cc, reference: _rr, ...versus } = run.confirmation.versusBase;
    expect(versus).toEqual(expected);
    expect(run.confirmation.base).toEqual(both.statistics.cells[0]!.metrics);
    expect(run.confirmation.evaluation.metrics).toEqual(both.statistics.cells[1]!.metrics);
    // By hand: 3 of 12 pass under #2, none under the base plan, so 3 discordant traders all for #2: McNemar's exact
    // p = 2 × ½³ = 0.25, Holm-adjusted to 0.5 over the three metrics; the difference 3 / 12 = 0.25; the interval at
    // Holm's level 0.05 × 0.25 / 0.5 = 0.025 is 3 (2θ − 1) / 12 for θ from Beta(3, 1)'s 0.0125 quantile (0.0125^⅓)
    // to 1: −0.1340 to 0.25.
    expect(versus).toMatchObject({ difference: 0.25, verdict: 'no_evidence', high: 0.25 });
    expect(versus.p).toBeCloseTo(0.25, 12);
    expect(versus.pAdjusted).toBeCloseTo(0.5, 12);
    expect(versus.low).toBeCloseTo((3 * (2 * betaQuantile(0.0125, 3, 1) - 1)) / 12, 4);
    expect(versus.low).toBe(-0.134);
    expect(summaryDocument(run).chosen).toMatchObject({
      versus_base: {
        metric: 'pass_rate',
        difference: '0.2500',
        low: '-0.1340',
        high: '0.2500',
        p: '0.2500',
        p_adjusted: '0.5000',
        verdict: 'no_evidence',
        words: 'no better than the current plan (no evidence of a difference on pass rate)',
      },
    });
  }, 60_000);

  it('confirms over confirmation.period: a back-test of each plan over it, with the confirmation seed, gives its figures', async () => {
    const optimize = config('later', (t) => `${t}confirmation: { period: { from: 2024-01-16, to: 2024-01-31 } }\n`);
    const run = await runOptimize(optimize, { workers: 1 });
    expect(run.confirmation.period).toEqual({ from: '2024-01-16', to: '2024-01-31' });
    expect(run.confirmation.days).toBe(12);
    const population = {
      ...withPopulation(optimize.backtest, { seed: 1_000_008, fills: [] }),
      period: { from: '2024-01-16', to: '2024-01-31' },
    };
    const chosen = await runBacktest(
      { ...population, cells: [run.confirmation.chosen], compareTo: run.confirmation.chosen },
      { workers: 1 },
    );
    expect(chosen.cells[0]!.periodDays).toBe(12);
    expect(chosen.statistics.cells[0]!.metrics).toEqual(run.confirmation.evaluation.metrics);
    const base = await runBacktest({ ...population, grid: [], compareTo: 0 }, { workers: 1 });
    expect(base.statistics.cells[0]!.metrics).toEqual(run.confirmation.base);
  }, 60_000);
});

describe('the chosen plan against the current plan, in words', () => {
  const run = (direction: 'maximize' | 'minimize', d: Partial<Decision>) =>
    ({
      config: { objective: { direction, metric: d.metric } },
      confirmation: { versusBase: d },
    }) as unknown as OptimizeRun;

  it('better or worse by the objective’s direction; no better when there is no evidence of a difference', () => {
    const net = { metric: 'net_per_trader', verdict: 'differs' } as const;
    expect(versusBaseVerdict(run('maximize', { ...net, difference: 500 }))).toBe(
      'better than the current plan on net per trader',
    );
    expect(versusBaseVerdict(run('maximize', { ...net, difference: -500 }))).toBe(
      'worse than the current plan on net per trader',
    );
    const fail = { metric: 'fail_rate', verdict: 'differs' } as const;
    expect(versusBaseVerdict(run('minimize', { ...fail, difference: -0.1 }))).toBe(
      'better than the current plan on failure rate',
    );
    expect(versusBaseVerdict(run('minimize', { ...fail, difference: 0.1 }))).toBe(
      'worse than the current plan on failure rate',
    );
    expect(versusBaseVerdict(run('maximize', { ...net, verdict: 'no_evidence', difference: 900 }))).toBe(
      'no better than the current plan (no evidence of a difference on net per trader)',
    );
  });
});
