// `propsim optimize` end to end (docs/optimizing.md), on 6 candidates × 12 synthetic traders over two weeks of 6E:
// byte-identical outputs for a seed, the choice made on the search, a back-test of chosen-plan.yaml reproducing the
// confirmation, the budget, the confirmation period, and progress on stderr. Runs are separate processes, as a user runs them (report.html's chart ids are per process).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLI, runCli, runCliAsync, type CliResult } from '../../cli/run-cli.js';

const CONFIG = fileURLToPath(new URL('./fixtures/search-6e.yaml', import.meta.url));
const MARKET = fileURLToPath(new URL('../../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url));
const FILES = ['candidates.csv', 'front.csv', 'chosen-plan.yaml', 'summary.json', 'report.html'];

const dir = mkdtempSync(join(tmpdir(), 'propsim-optimize-'));

function optimize(out: string, ...flags: string[]): Promise<CliResult> {
  const workers = flags.includes('--workers') ? [] : ['--workers', '1'];
  return runCliAsync(['optimize', '--config', CONFIG, '--out', join(dir, out), ...workers, ...flags]);
}

const read = (out: string, file: string) => readFileSync(join(dir, out, file), 'utf8');
const outAndOneWorker = (out: string) => ['--out', join(dir, out), '--workers', '1'];

/** The fixture, its market path made absolute, with `confirmation: { period: { from, to } }`. */
function withConfirmation(from: string, to: string): string {
  const text = readFileSync(CONFIG, 'utf8').replace('../../../../fixtures/market/6EH4-2024-01.csv.gz', MARKET);
  const path = join(dir, `confirm-${from}-${to}.yaml`);
  writeFileSync(path, `${text}confirmation: { period: { from: ${from}, to: ${to} } }\n`);
  return path;
}

let first: CliResult;
let second: CliResult;

beforeAll(async () => {
  // The second on 2 worker threads: the stages run on runBacktest's pool, in any order.
  [first, second] = await Promise.all([optimize('first'), optimize('second', '--workers', '2')]);
}, 120_000);

describe('propsim optimize', () => {
  it('writes byte-identical outputs for a seed, run twice (1 and 2 workers)', () => {
    expect(first.status, first.stderr).toBe(0);
    expect(second.status, second.stderr).toBe(0);
    for (const file of FILES) expect(read('second', file), file).toBe(read('first', file));
  });

  it("keeps stage 1's candidates not clearly beaten, chooses stage 2's best, and confirms it alone beside the base plan", () => {
    const summary = JSON.parse(read('first', 'summary.json'));
    const rows = read('first', 'candidates.csv').trim().split('\n');
    const header = rows[0]!.split(',');
    const column = (row: string, name: string) => row.split(',')[header.indexOf(name)]!;
    const stageRows = (stage: number) => rows.filter((r) => r.startsWith(`${stage},`));
    // Stage 1: 6 candidates × 6 traders (start_traders) × 9 trade dates (2024-01-02 to 01-12) = 324. The bar is the
    // ⌈6 / 3⌉ = 2nd best lower bound of the net; a candidate is not clearly beaten when its upper bound reaches it.
    const judged = stageRows(1).filter((r) => !r.endsWith(',dropped')); // none outside fail_rate ≤ 0.90 on 6
    const lows = judged.map((r) => Number(column(r, 'net_per_trader_low'))).sort((x, y) => y - x);
    const notBeaten = judged
      .filter((r) => Number(column(r, 'net_per_trader_high')) >= lows[1]!)
      .map((r) => Number(column(r, 'candidate')));
    const [stage1, stage2] = summary.stages;
    expect([...stage1.kept, ...stage1.over_budget].sort()).toEqual(notBeaten.sort());
    // Without --budget the budget is the full grid's on 12 traders, 6 × 12 × 9 = 648, and the confirmation's, the
    // chosen and the base plan × 12 × 9 = 216: 864. Stage 2 (the last of the 2 planned: 6 → 2 → 1 by thirds) pays
    // for ⌊(864 − 324 − 216) / (12 × 9)⌋ = 3 candidates.
    expect(summary.budget).toBe(864);
    expect(stage1.kept).toEqual([1, 3, 5]);
    for (const row of stageRows(1))
      expect(column(row, 'result'), row).toBe(stage1.kept.includes(Number(column(row, 'candidate'))) ? 'kept' : 'cut');
    expect([stage1, stage2].map((s) => [s.candidates, s.traders, s.account_days])).toEqual([
      [6, 6, 324],
      [3, 12, 324],
    ]);
    // The choice is stage 2's best by the net's lower bound: all three net $150.00 (−$504.73 to $150.00), so the
    // lower index, #1; the confirmation does not change it.
    const best = stageRows(2)
      .map((r) => ({ candidate: Number(column(r, 'candidate')), low: Number(column(r, 'net_per_trader_low')) }))
      .sort((a, b) => b.low - a.low || a.candidate - b.candidate)[0]!;
    expect(best).toEqual({ candidate: 1, low: -504.73 });
    expect(summary.chosen.candidate).toBe(1);
    expect(summary.chosen.search).toMatchObject({ stage: 2, traders: 12, outside_constraints: false });
    // Only the chosen plan and the base plan on the confirmation: 2 × 12 × 9 = 216.
    expect(summary.confirmation_account_days).toBe(216);
    expect(summary.account_days).toBe(324 + 324 + 216);
    expect(summary.evaluated).toBe(6 + 3 + 2);
    expect(rows.filter((r) => r.startsWith('confirmation,')).map((r) => column(r, 'result'))).toEqual([
      'chosen',
      'base_plan',
    ]);
    expect(summary.finalists.map((f: { candidate: number }) => f.candidate)).toEqual([1]);
    expect(summary.chosen.confirmation).toMatchObject({
      seed: 1_000_008,
      traders: 12,
      period: { from: '2024-01-02', to: '2024-01-12', trade_dates: 9 },
    });
    // Bonferroni over the chosen plan's one bound: its interval is the 95 % one, 11 of 12 failing: 0.6461 to 0.9851.
    expect(summary.correction).toEqual({ method: 'bonferroni', comparisons: 1, level: '0.0500' });
    expect(summary.chosen.confirmation.constraints).toEqual([
      {
        metric: 'fail_rate',
        bound: 'max',
        value: '0.90',
        interval: { low: '0.6461', high: '0.9851' },
        verdict: 'no evidence either way',
      },
    ]);
    expect(summary.constraints_met).toBe(false);
    expect(summary.verdict).toBe(
      'the confirmation cannot show that the chosen plan meets every constraint (Bonferroni over 1 check)',
    );
    expect(first.stdout).toContain('fail_rate max 0.90: no evidence either way');
  });

  it('compares the chosen plan with the base plan on the objective, paired by trader, and says so plainly', () => {
    const summary = JSON.parse(read('first', 'summary.json'));
    // Every one of the 12 confirmation traders nets the firm the $150.00 fee under both plans: no trader's net moved.
    expect(summary.base_plan.confirmation.net_per_trader.value).toBe('150.00');
    expect(summary.chosen.versus_base).toEqual({
      metric: 'net_per_trader',
      difference: '0.00',
      low: '0.00',
      high: '0.00',
      p: '1.0000',
      p_adjusted: '1.0000',
      verdict: 'no_evidence',
      interval_level: '0.050000',
      words: 'no better than the current plan (no evidence of a difference on net per trader)',
    });
    expect(first.stdout).toContain(
      'against the base plan short-eval: no better than the current plan (no evidence of a difference on net per trader)',
    );
    expect(read('first', 'report.html')).toContain('no better than the current plan');
  });

  it("reports how stable the choice is over 1,000 resamples of the search's traders", () => {
    const summary = JSON.parse(read('first', 'summary.json'));
    // On stage 2's 12 traders every candidate nets $150.00 from each; #1 fails all 12, #3 11 and #5 8, each one's
    // failers among the previous one's. #1 is above the 0.90 cap in every resample, so it ranks first only when #3
    // and #5 are above it too (at least 11 of the 12 draws among #5's 8 failers), and then it shares first place
    // with both, counting a third: expected (2/3)¹² + 12 (2/3)¹¹ (1/3) = 0.0540, over 3: 0.0180. This seed's draws:
    expect(summary.chosen.stability_resamples).toBe(1000);
    expect(summary.chosen.stability).toBe('0.0183');
    expect(first.stdout).toContain("the choice holds in 2% of resamples of the search's traders");
    expect(read('first', 'report.html')).toContain('The choice holds in 2% of resamples');
  });

  it('progress on stderr: a line per candidate of each stage, then the chosen plan and the base plan', () => {
    const lines = first.stderr.match(/^optimize: .* done/gm) ?? [];
    expect(lines.filter((l) => l.includes('stage 1/2'))).toHaveLength(6);
    expect(lines.filter((l) => l.includes('stage 2/2'))).toHaveLength(3);
    expect(lines.filter((l) => l.includes('confirmation')).map((l) => l.replace(/ done$/, ''))).toEqual([
      'optimize: confirmation: chosen plan',
      'optimize: confirmation: base plan',
    ]);
  });

  it('a back-test of chosen-plan.yaml on the confirmation population reproduces the confirmation exactly', () => {
    const summary = JSON.parse(read('first', 'summary.json'));
    const check = join(dir, 'check');
    mkdirSync(join(check, 'plans'), { recursive: true });
    copyFileSync(join(dir, 'first', 'chosen-plan.yaml'), join(check, 'plans', 'chosen-plan.yaml'));
    // The optimize config without search, objective and start_traders, on the chosen plan, with the confirmation's
    // seed.
    const { search: _s, objective: _o, start_traders: _t, ...config } = parse(readFileSync(CONFIG, 'utf8'));
    const backtest = {
      ...config,
      seed: summary.chosen.confirmation.seed,
      market: { files: [{ ...config.market.files[0], path: MARKET }] },
      base_plan: 'chosen-plan',
    };
    writeFileSync(join(check, 'check.yaml'), JSON.stringify(backtest));
    const run = runCli([
      'backtest',
      '--config',
      join(check, 'check.yaml'),
      '--out',
      join(check, 'out'),
      '--workers',
      '1',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const cell = JSON.parse(readFileSync(join(check, 'out', 'summary.json'), 'utf8')).cells[0];
    expect(cell.accounts).toBe(12);
    expect(cell.metrics).toEqual(summary.chosen.confirmation.metrics);
  });

  it('keeps within --budget: 600 account-session-days pay for stage 1 and the confirmation, not stage 2', async () => {
    // The confirmation is reserved first, the chosen and the base plan: 2 × 12 × 9 = 216. Stage 1 costs 324 (540 in
    // all); stage 2 needs at least ⌈6 / 3⌉ = 2 candidates × 12 × 9 = 216 more, 756 > 600. So stage 1's best is chosen.
    const run = await optimize('budget', '--budget', '600');
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(read('budget', 'summary.json'));
    expect(summary.stages).toHaveLength(1);
    expect(summary.chosen.search.stage).toBe(1);
    expect(summary.finalists).toHaveLength(1);
    expect(summary.account_days).toBe(540);
  });

  it('when the budget cannot pay for every candidate kept, the next stage runs the best it can pay for and says so', async () => {
    // 800 − stage 1 (324) − the confirmation (216) leaves 260: stage 2 pays for ⌊260 / (12 × 9)⌋ = 2 candidates,
    // at least ⌈6 / 3⌉ = 2, so stage 1's kept are cut to its best 2 and the others listed as over_budget.
    const stage1 = JSON.parse(read('first', 'summary.json')).stages[0];
    const kept = [...stage1.kept, ...stage1.over_budget] as number[]; // best first: the cut were the lowest ranked
    expect(kept.length).toBeGreaterThan(2); // on 6 traders most intervals overlap
    const run = await optimize('capped', '--budget', '800');
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(read('capped', 'summary.json'));
    expect(summary.stages[0].kept).toEqual(kept.slice(0, 2));
    expect(summary.stages[0].over_budget).toEqual(kept.slice(2));
    expect(summary.stages[1].candidates).toBe(2);
    expect(run.stdout).toContain(`stages: 6 × 6 traders kept 2 (${kept.length - 2} more cut for the budget)`);
    // Stage 2 on 2 candidates, then the chosen and the base plan confirmed: 324 + 216 + 216 = 756.
    expect(summary.account_days).toBe(756);
  });

  it('refuses a budget that cannot pay for the first stage and the confirmation (exit 2, nothing run)', async () => {
    const run = await optimize('poor', '--budget', '539');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--budget: 539 account-session-days cannot pay for the first stage');
    expect(run.stderr).toContain('and the confirmation (216); expected at least 540');
    expect(run.stderr).not.toMatch(/optimize: stage/);
  });

  it("without --budget, a start_traders above the config's count cannot outgrow the full grid: exit 2 saying so", () => {
    // start_traders 40 of a 12-trader config: stage 1 is 6 × 40 × 9 = 2,160, more than the default budget, the full
    // grid's 6 × 12 × 9 = 648 and the confirmation's 216: 864. At least 2,160 + 216 = 2,376 is needed.
    const text = readFileSync(CONFIG, 'utf8')
      .replace('start_traders: 6', 'start_traders: 40')
      .replace('../../../../fixtures/market/6EH4-2024-01.csv.gz', MARKET);
    const config = join(dir, 'start-40.yaml');
    writeFileSync(config, text);
    const run = runCli(['optimize', '--config', config, '--out', join(dir, 'start-40'), '--workers', '1']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      "without --budget, the full grid's and the confirmation's 864 account-session-days cannot pay for the first stage (6 candidates × 40 traders × 9 trade dates = 2,160)",
    );
    expect(run.stderr).toContain('expected a --budget of at least 2,376');
  });

  it('confirms over confirmation.period: other market days, whose trade dates the budget counts', async () => {
    // 2024-01-16 to 2024-01-31 holds 12 trade dates: the confirmation costs 2 × 12 traders × 12 = 288, so the
    // default budget is 648 + 288 = 936, and stage 2 pays for ⌊(936 − 324 − 288) / 108⌋ = 3 candidates, as before.
    const run = runCli([
      'optimize',
      '--config',
      withConfirmation('2024-01-16', '2024-01-31'),
      ...outAndOneWorker('later'),
    ]);
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(read('later', 'summary.json'));
    expect(summary.budget).toBe(936);
    expect(summary.period).toEqual({ from: '2024-01-02', to: '2024-01-12', trade_dates: 9 });
    expect(summary.chosen.confirmation.period).toEqual({ from: '2024-01-16', to: '2024-01-31', trade_dates: 12 });
    expect(summary.confirmation_account_days).toBe(288);
    expect(summary.account_days).toBe(324 + 324 + 288);
    // The search is the same: the same choice, confirmed elsewhere.
    expect(summary.chosen.candidate).toBe(JSON.parse(read('first', 'summary.json')).chosen.candidate);
    expect(run.stdout).toContain('unseen traders (seed 1000008, 2024-01-16 to 2024-01-31)');
  });

  it("refuses a confirmation.period that overlaps the search's, or that the market data do not cover (exit 2)", () => {
    const overlap = runCli([
      'optimize',
      '--config',
      withConfirmation('2024-01-10', '2024-01-19'),
      ...outAndOneWorker('overlap'),
    ]);
    expect(overlap.status).toBe(2);
    expect(overlap.stderr).toContain(
      'confirmation.period: expected a period that does not overlap the search\'s period (2024-01-02 to 2024-01-12): the confirmation is meant for trade dates the search never saw, got "2024-01-10 to 2024-01-19"',
    );
    const beyond = runCli([
      'optimize',
      '--config',
      withConfirmation('2024-02-05', '2024-02-09'),
      ...outAndOneWorker('beyond'),
    ]);
    expect(beyond.status).toBe(2);
    expect(beyond.stderr).toContain('confirmation.period: no market data in the period 2024-02-05 to 2024-02-09');
    expect(beyond.stderr).not.toMatch(/optimize: stage/);
    expect(existsSync(join(dir, 'overlap'))).toBe(false);
    expect(existsSync(join(dir, 'beyond'))).toBe(false);
  });

  it('Ctrl-C during a stage: exit 130, nothing written', async () => {
    const out = join(dir, 'interrupted');
    const child = spawn(process.execPath, [CLI, 'optimize', '--config', CONFIG, '--out', out, '--workers', '2']);
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!sent && stderr.includes('stage 1/2: candidate 1/6 done')) sent = child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    expect(code).toBe(130);
    expect(stderr).toContain('optimize: interrupted; nothing was written');
    expect(existsSync(out)).toBe(false);
  });

  it('--help shows examples', () => {
    const help = runCli(['optimize', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('optimize --config fixtures/optimize/50k-plan-search.yaml');
    expect(help.stdout).toContain('--budget');
  });
});
