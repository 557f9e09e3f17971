// A back-test validated against the firm's records (docs/backtesting.md#validation-against-the-firms-records): the
// reference cell's traders, whose resets come from the records, against what the records say, worked by hand on the
// funnel's and the hand-checked runs' fills.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { runBacktest } from '../../../src/backtest/run-backtest.js';
import { backtestOutputFiles } from '../../../src/reports/backtest-outputs.js';
import { runCliAsync } from '../../cli/run-cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** A copy of a fixture config and its data in a fresh folder, with `records` beside its fills. */
function withRecords(fixture: string, files: string[], records: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'propsim-validation-'));
  for (const file of files) copyFileSync(join(FIXTURES, file), join(dir, file.split('/').pop()!));
  const config = readFileSync(join(FIXTURES, fixture), 'utf8').replace(
    /fills: \{ path: ([\w-]+\.csv) \}/,
    'fills: { path: $1, records: records.csv }',
  );
  writeFileSync(join(dir, 'config.yaml'), config);
  writeFileSync(join(dir, 'records.csv'), records);
  return join(dir, 'config.yaml');
}

describe('the funnel run against records', () => {
  // The funnel by hand (docs/backtesting.md#the-funnel-worked-by-hand): ann fails on 04-07, resets, passes on 04-08 and
  // is paid 680.00 in all; dee fails on 04-07 and, by the configured rate 1, resets and fails again on 04-08; bob is
  // still in evaluation; cy passes on 04-07 and is never paid. The records say dee bought no reset, and cy was paid.
  const config = withRecords(
    'funnel/funnel.yaml',
    ['funnel/funnel.yaml', 'funnel/fills.csv', 'funnel/ticks.csv'],
    'trader,outcome,date,resets,payouts_amount\nann,passed,2026-04-08,1,680.00\ndee,failed,2026-04-07,0,\nbob,open,,0,\ncy,passed,2026-04-07,0,100.00\n',
  );

  it('resets as the records say, and agrees where they agree; a payout the simulation did not make is the divergence', async () => {
    const run = await runBacktest(loadBacktestConfig(config), { workers: 1 });
    const dee = run.cells[0]!.traders.find((t) => t.trader === 'dee')!;
    // No reset: out after the first failure, on day 1, having paid the one fee.
    expect([dee.outcome, dee.days, dee.funnel!.resets, dee.feesCents]).toEqual(['failed', 1, 0, 10_000]);
    const files = backtestOutputFiles(run);
    expect(files['validation.csv']).toBe(
      [
        'trader,actual_outcome,actual_date,simulated_outcome,simulated_date,outcome_match,date_match,first_divergence',
        'ann,passed,2026-04-08,passed,2026-04-08,true,true,',
        'dee,failed,2026-04-07,failed,2026-04-07,true,true,',
        'bob,open,,open,,true,true,',
        'cy,passed,2026-04-07,passed,2026-04-07,true,true,"outcome and date agree; payouts: simulated $0.00, the records $100.00"',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(files['summary.json']!).validation).toEqual({
      reference_cell: 0,
      traders: 4,
      outcome_agreement: '1.0000',
      date_agreement: '1.0000',
      confusion: {
        actual: {
          passed: { passed: 2, failed: 0, open: 0 },
          failed: { passed: 0, failed: 1, open: 0 },
          open: { passed: 0, failed: 0, open: 1 },
        },
      },
    });
    expect(files['report.html']).toContain(
      'The simulation of cell #0, the plan the traders traded, agrees with the records on the outcome of <b>100.0%</b> of 4 traders',
    );
  });
});

describe('the hand-checked run against records with a row altered', () => {
  // Cell #0 (eod $500, no daily limit, floor capped at $50,000.00): ann makes +$695.00 on 04-07 (balance 50,695.00),
  // buys 1 at 5020.00 on 04-08 (−$2.50), and the 5005.00 print at 10:30 CT leaves 50,692.50 − 15 × 50 = 49,942.50 ≤
  // 50,000.00: failed. Her record is changed to a pass on 04-09; bob's, still open, is left as it is.
  const config = withRecords(
    'hand-checked.yaml',
    ['hand-checked.yaml', 'esm6-ticks.csv', 'trader-fills.csv'],
    'trader,outcome,date\nann,passed,2026-04-09\nbob,open,\n',
  );

  it('names exactly the altered trader, with where the simulation first parts from the records', async () => {
    const out = join(config, '..', 'out');
    const run = await runCliAsync(['backtest', '--config', config, '--out', out, '--workers', '1']);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(out, 'validation.csv'), 'utf8').split('\n').slice(1, 3)).toEqual([
      'ann,passed,2026-04-09,failed,2026-04-08,false,false,"simulated floor crossed at 2026-04-08 10:30 CT at $49,942.50 (max-loss floor $50,000.00); the records say passed on 2026-04-09"',
      'bob,open,,open,,true,true,',
    ]);
    expect(run.stdout).toContain(
      'validation: cell #0 (the plan the traders traded) agrees with the records on the outcome of 50.0% of 2 traders, on its date for 50.0%; 1 part from them',
    );
  });

  it('refuses records of a trader with no fills, naming the line, and writes nothing', async () => {
    const bad = withRecords(
      'hand-checked.yaml',
      ['hand-checked.yaml', 'esm6-ticks.csv', 'trader-fills.csv'],
      'trader,outcome,date\nann,open,\nzed,open,\n',
    );
    const run = await runCliAsync(['backtest', '--config', bad, '--out', join(bad, '..', 'out'), '--workers', '1']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /traders\.fills\.records: expected records of the fills file's traders \(.*records\.csv:3: zed has no fills\)/,
    );
    expect(readdirSync(join(bad, '..')).sort()).toEqual([
      'config.yaml',
      'esm6-ticks.csv',
      'hand-checked.yaml',
      'records.csv',
      'trader-fills.csv',
    ]);
  });
});
