// Results are identical for any --workers (docs/backtesting.md#running): `propsim backtest` with 1 worker (cells run
// in the main thread) and with 2 (a piscina pool running the compiled dist/src/backtest/cells/cell-worker.js; `npm test`
// builds first) writes byte-identical cells.csv, traders.csv, summary.json and report.html.
//
// The two runs are separate processes, as a user would run them: report.html's SVG ids come from a
// process-wide echarts counter, so two reports rendered in one process differ in those ids.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';

const CONFIG = fileURLToPath(new URL('../fixtures/synthetic-6e.yaml', import.meta.url));
/** The same grid with the traders' risk knobs on (docs/backtesting.md#traders-who-react-to-their-risk). */
const REACTING = fileURLToPath(new URL('../fixtures/synthetic-6e-reacting.yaml', import.meta.url));
const FILES = ['cells.csv', 'traders.csv', 'summary.json', 'report.html'];

function runWith(workers: number, config = CONFIG): { files: Record<string, string>; stderr: string } {
  const out = join(mkdtempSync(join(tmpdir(), `propsim-workers-${workers}-`)), 'out');
  const { status, stderr } = runCli(['backtest', '--config', config, '--out', out, '--workers', String(workers)]);
  expect(status, stderr).toBe(0);
  return { files: Object.fromEntries(FILES.map((f) => [f, readFileSync(join(out, f), 'utf8')])), stderr };
}

describe('worker-count independence', () => {
  it('1 and 2 workers write byte-identical outputs (4 cells × 10 synthetic traders, 6E 2024-01-02 to 01-12)', () => {
    const one = runWith(1);
    const two = runWith(2);
    for (const file of FILES) expect(two.files[file], file).toBe(one.files[file]);

    // The run is not trivial: max-loss failures, daily locks, a pass and its payout, and every cell differs.
    const [header, ...rows] = one.files['cells.csv']!.trim()
      .split('\n')
      .map((line) => line.split(','));
    const column = (name: string) => header!.indexOf(name);
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r[column('accounts')] === '10')).toBe(true);
    expect(one.files['traders.csv']!.trim().split('\n')).toHaveLength(1 + 4 * 10);
    expect(rows.some((r) => Number(r[column('failed_max_loss')]) > 0)).toBe(true);
    expect(rows.some((r) => Number(r[column('daily_lock_days')]) > 0)).toBe(true);
    expect(rows.some((r) => Number(r[column('passed')]) > 0 && Number(r[column('payouts')]) > 0)).toBe(true);
    expect(new Set(rows.map((r) => r.slice(3).join(','))).size).toBe(4);

    // Progress (stderr is not a terminal here): one line per finished cell, counting up to 4 with any N.
    for (const { stderr } of [one, two]) {
      expect(stderr.match(/^backtest: cell \d+\/4 done/gm)).toEqual([
        'backtest: cell 1/4 done',
        'backtest: cell 2/4 done',
        'backtest: cell 3/4 done',
        'backtest: cell 4/4 done',
      ]);
    }
  });

  it('with the risk knobs on, 1 and 2 workers still write byte-identical outputs, and the knobs change the traders', () => {
    const one = runWith(1, REACTING);
    const two = runWith(2, REACTING);
    for (const file of FILES) expect(two.files[file], file).toBe(one.files[file]);
    const plain = runWith(1);
    const rows = (csv: string) => csv.trim().split('\n').slice(1);
    // Same roster, different trading: some traders end elsewhere with the knobs on.
    expect(rows(one.files['traders.csv']!).map((r) => r.split(',')[1])).toEqual(
      rows(plain.files['traders.csv']!).map((r) => r.split(',')[1]),
    );
    expect(one.files['traders.csv']).not.toBe(plain.files['traders.csv']);
  });
});
