// Scenarios refer to plans by name: their own `plans:`, then plans/<name>.yaml beside the file, then the
// bundled fixtures/plans/<name>.yaml, found from the package (not the working folder).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load-scenario.js';
import { scenarioErrorOf } from './scenario-files.js';
import { runCli } from '../cli/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'propsim-plan-refs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scenario = (accounts: string, plans = '') => `name: plan refs
start: 2026-03-10T09:00:00-05:00
${plans}accounts: ${accounts}
steps:
  - fill: { account: a, instrument: ESM6, side: buy, quantity: 1, price: "5000.00" }
  - fill: { account: a, instrument: ESM6, side: sell, quantity: 1, price: "5001.00" }
  - expect: { account: a, balance: "50045.80", max_loss_limit_trigger: "48000", daily_loss_limit_trigger: "49000", max_drawdown_mode: eod_balance }
`;

function write(name: string, text: string, folder = dir): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

describe('plans by reference in scenario files', () => {
  it('an account on a bundled plan with no plans: entry gets fixtures/plans/eval-50k-eod.yaml', () => {
    const loaded = loadScenarioFile(write('bundled.yaml', scenario('[ { alias: a, plan: eval-50k-eod } ]')));
    const plan = loaded.accounts[0]!.plan;
    expect(plan.startingBalanceCents, 'starting_balance "50000.00"').toBe(5_000_000);
    expect(plan.commissionPerContractCents, 'commission_per_contract "2.10"').toBe(210);
    expect(plan.riskProfile).toMatchObject({
      maxDrawdownMode: 'eod_balance',
      maxDrawdownValueCents: 200_000,
      dailyLossValueCents: 100_000,
    });
    expect(loaded.plans.has('eval-50k-eod'), 'the referenced plan is listed with the scenario plans').toBe(true);
  });

  it('runs from any working folder: the bundled plans are found from the package, not the cwd', () => {
    const file = write('run.yaml', scenario('[ { alias: a, plan: eval-50k-eod } ]'));
    const { status, stdout, stderr } = runCli(['replay', file, '--out', join(dir, 'out')], '', { cwd: tmpdir() });
    expect(stderr).toBe('');
    // +1.00 point × $50 = 50.00, less 2 × $2.10 commission: 50,045.80; floors 50,000 − 2,000 and − 1,000.
    expect(stdout, 'the bundled plan (commission 2.10, eod 2000, daily 1000) was used').toContain(
      'PASS  plan refs  (4/4 expectations held)',
    );
    expect(status).toBe(0);
  });

  it('a plan of the scenario wins over a file of the same name; plans/ beside the file wins over the bundled one', () => {
    const own = `plans:\n  eval-50k-eod: { starting_balance: "25000", risk_profile: { max_drawdown_mode: static, max_drawdown_value: "1000" }, passing_criteria: { profit_target: "1" } }\n`;
    expect(
      loadScenarioFile(write('own.yaml', scenario('[ { alias: a, plan: eval-50k-eod } ]', own))).accounts[0]!.plan
        .startingBalanceCents,
    ).toBe(2_500_000);
    const folder = join(dir, 'beside');
    write(
      'eval-50k-eod.yaml',
      'starting_balance: "75000"\nrisk_profile: { max_drawdown_mode: static, max_drawdown_value: "3000" }\npassing_criteria: { profit_target: "1" }\n',
      join(folder, 'plans'),
    );
    expect(
      loadScenarioFile(write('s.yaml', scenario('[ { alias: a, plan: eval-50k-eod } ]'), folder)).accounts[0]!.plan
        .startingBalanceCents,
    ).toBe(7_500_000);
  });

  it('an unknown plan name lists the scenario plans, the plan files beside it and the bundled ones', () => {
    const folder = join(dir, 'listing');
    write('mine.yaml', readFileSync('fixtures/plans/eval-50k-eod.yaml', 'utf8'), join(folder, 'plans'));
    const own = `plans:\n  house: { starting_balance: "25000", risk_profile: { max_drawdown_mode: static, max_drawdown_value: "1000" }, passing_criteria: { profit_target: "1" } }\n`;
    const file = write('s.yaml', scenario('[ { alias: a, plan: eval-75k } ]', own), folder);
    const error = scenarioErrorOf(() => loadScenarioFile(file));
    expect(error.path).toBe('accounts[0].plan');
    expect(error.message).toContain(
      'accounts[0].plan: expected a plan defined under plans ("house"), or a plan file beside it in plans/ (mine), or a bundled plan (eval-100k-balance, ',
    );
    expect(error.message).toContain('eval-50k-static, funded-50k-eod), got "eval-75k"');
  });

  it('a plan name is never a path', () => {
    const error = scenarioErrorOf(() =>
      loadScenarioFile(write('path.yaml', scenario('[ { alias: a, plan: ../plans/eval-50k-eod } ]'))),
    );
    expect(error.path).toBe('accounts[0].plan');
  });

  it('an invalid plan file is named with its own line', () => {
    const folder = join(dir, 'broken');
    const plan = write(
      'bad-plan.yaml',
      'starting_balance: "50000"\nrisk_profile: { max_drawdown_mode: sideways, max_drawdown_value: "2000" }\npassing_criteria: { profit_target: "1" }\n',
      join(folder, 'plans'),
    );
    const error = scenarioErrorOf(() =>
      loadScenarioFile(write('s.yaml', scenario('[ { alias: a, plan: bad-plan } ]'), folder)),
    );
    expect(error.message).toBe(
      `${plan}:2:36: risk_profile.max_drawdown_mode: expected one of static, realtime_balance, realtime_equity, eod_balance, got "sideways"`,
    );
  });
});
