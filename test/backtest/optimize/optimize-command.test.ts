// `propsim optimize` end to end (docs/optimizing.md), on 6 candidates × 12 synthetic traders over two weeks of 6E:
// byte-identical outputs for a seed, a back-test of chosen-plan.yaml reproducing the confirmation, the budget, and
// progress on stderr. Runs are separate processes, as a user runs them (report.html's chart ids are per process).
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

  it("keeps stage 1's candidates not clearly beaten, and confirms the last stage's best 3 on 12 unseen traders", () => {
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
    // Without --budget the budget is the full grid's on 12 traders, 6 × 12 × 9 = 648, and the confirmation's, 3
    // finalists and the base plan × 12 × 9 = 432: 1,080. Stage 2 (the last of the 2 planned: 6 → 2 → 1 by thirds)
    // pays for ⌊(1,080 − 324 − 432) / (12 × 9)⌋ = 3 candidates.
    expect(summary.budget).toBe(1080);
    const ran = Math.min(notBeaten.length, 3);
    expect(stage1.kept).toHaveLength(ran);
    for (const row of stageRows(1))
      expect(column(row, 'result'), row).toBe(stage1.kept.includes(Number(column(row, 'candidate'))) ? 'kept' : 'cut');
    expect([stage1, stage2].map((s) => [s.candidates, s.traders, s.account_days])).toEqual([
      [6, 6, 324],
      [ran, 12, ran * 12 * 9],
    ]);
    const finalists = Math.min(ran, 3);
    expect(summary.account_days).toBe(324 + ran * 12 * 9 + (finalists + 1) * 12 * 9);
    expect(summary.account_days).toBeLessThanOrEqual(1080);
    expect(summary.evaluated).toBe(6 + ran + finalists + 1);
    expect(summary.chosen.confirmation.seed).toBe(1_000_008);
    expect(summary.chosen.confirmation.traders).toBe(12);
    expect(summary.finalists).toHaveLength(finalists);
    expect(rows.filter((r) => r.endsWith(',chosen'))).toHaveLength(1);
    expect(first.stdout).toContain('fail_rate max 0.90');
  });

  it('progress on stderr: a line per candidate of each stage and of the confirmation, and one for the base plan', () => {
    const lines = first.stderr.match(/^optimize: .* done/gm) ?? [];
    expect(lines.filter((l) => l.includes('stage 1/2'))).toHaveLength(6);
    const summary = JSON.parse(read('first', 'summary.json'));
    expect(lines.filter((l) => l.includes('stage 2/2'))).toHaveLength(summary.stages[1].candidates);
    expect(lines.filter((l) => l.includes('confirmation'))).toHaveLength(summary.finalists.length + 1);
    // The finalists, then the base plan, named as such (not "candidate 1/1").
    expect(lines.filter((l) => l.includes('confirmation: candidate'))).toHaveLength(summary.finalists.length);
    expect(lines.filter((l) => l.startsWith('optimize: confirmation: base plan done'))).toHaveLength(1);
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

  it('keeps within --budget: 800 account-session-days pay for stage 1 and the confirmation, not stage 2', async () => {
    // The confirmation is reserved first, for up to 3 finalists and the base plan: 4 × 12 × 9 = 432. Stage 1 costs
    // 324 (756 in all); stage 2 another 216 would make 972 > 800. So stage 1's best 3 are confirmed: 4 × 12 × 9 = 432.
    const run = await optimize('budget', '--budget', '800');
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(read('budget', 'summary.json'));
    expect(summary.stages).toHaveLength(1);
    expect(summary.finalists).toHaveLength(3);
    expect(summary.account_days).toBe(756);
    expect(summary.account_days).toBeLessThanOrEqual(800);
  });

  it('when the budget cannot pay for every candidate kept, the next stage runs the best it can pay for and says so', async () => {
    // 1,000 − stage 1 (324) − the confirmation (432) leaves 244: stage 2 pays for ⌊244 / (12 × 9)⌋ = 2 candidates,
    // at least ⌈6 / 3⌉ = 2, so stage 1's kept are cut to its best 2 and the others listed as over_budget.
    const stage1 = JSON.parse(read('first', 'summary.json')).stages[0];
    const kept = [...stage1.kept, ...stage1.over_budget] as number[]; // best first: the cut were the lowest ranked
    expect(kept.length).toBeGreaterThan(2); // on 6 traders most intervals overlap
    const run = await optimize('capped', '--budget', '1000');
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(read('capped', 'summary.json'));
    expect(summary.stages[0].kept).toEqual(kept.slice(0, 2));
    expect(summary.stages[0].over_budget).toEqual(kept.slice(2));
    expect(summary.stages[1].candidates).toBe(2);
    expect(run.stdout).toContain(`stages: 6 × 6 traders kept 2 (${kept.length - 2} more cut for the budget)`);
    // Stage 2 on 2 candidates, then those 2 finalists and the base plan confirmed: 324 + 216 + 324 = 864.
    expect(summary.account_days).toBe(324 + 2 * 12 * 9 + 3 * 12 * 9);
  });

  it('refuses a budget that cannot pay for the first stage and the confirmation (exit 2, nothing run)', async () => {
    const run = await optimize('poor', '--budget', '755');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--budget: 755 account-session-days cannot pay for the first stage');
    expect(run.stderr).toContain('expected at least 756');
    expect(run.stderr).not.toMatch(/optimize: stage/);
  });

  it("without --budget, a start_traders above the config's count cannot outgrow the full grid: exit 2 saying so", () => {
    // start_traders 40 of a 12-trader config: stage 1 is 6 × 40 × 9 = 2,160, more than the default budget, the full
    // grid's 6 × 12 × 9 = 648 and the confirmation's 432: 1,080. At least 2,160 + 432 = 2,592 is needed.
    const text = readFileSync(CONFIG, 'utf8')
      .replace('start_traders: 6', 'start_traders: 40')
      .replace('../../../../fixtures/market/6EH4-2024-01.csv.gz', MARKET);
    const config = join(dir, 'start-40.yaml');
    writeFileSync(config, text);
    const run = runCli(['optimize', '--config', config, '--out', join(dir, 'start-40'), '--workers', '1']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      "without --budget, the full grid's and the confirmation's 1,080 account-session-days cannot pay for the first stage (6 candidates × 40 traders × 9 trade dates = 2,160)",
    );
    expect(run.stderr).toContain('expected a --budget of at least 2,592');
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
