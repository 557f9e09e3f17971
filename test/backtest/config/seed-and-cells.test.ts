// `propsim backtest --seed N` and `--cells 0,5` (docs/backtesting.md#running): another seed without editing the
// config, and a subset of the grid whose cells keep their indices. Checked in-process, then through the CLI on the
// 4-cell synthetic fixture (the runs are spawned together, so their waits overlap).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { cellsToRun, withCellSubset } from '../../../src/backtest/config/cell-subset.js';
import { runCliAsync } from '../../cli/run-cli.js';

const SYNTHETIC = fileURLToPath(new URL('../fixtures/synthetic-6e.yaml', import.meta.url));

describe('--cells', () => {
  const config = loadBacktestConfig(SYNTHETIC); // 2 × 2 grid: cells 0 to 3

  it('keeps the cells listed, in grid order, with their grid indices', () => {
    const subset = withCellSubset(config, '2, 0,2');
    expect(subset.cells).toEqual([0, 2]);
    expect(cellsToRun(subset).map((c) => [c.index, c.label])).toEqual([
      [0, 'risk_profile.max_drawdown_value=1000 risk_profile.daily_loss_value=none'],
      [2, 'risk_profile.max_drawdown_value=2000 risk_profile.daily_loss_value=none'],
    ]);
    expect(cellsToRun(config)).toHaveLength(4);
  });

  it('refuses an index outside the grid, a word, and a subset without the reference cell', () => {
    expect(() => withCellSubset(config, '0,4')).toThrow(
      `--cells: expected grid cell indices from 0 to 3 (${SYNTHETIC} has 4 cells), separated by commas, got "4"`,
    );
    expect(() => withCellSubset(config, '0,two')).toThrow(/got "two"/);
    expect(() => withCellSubset(config, '')).toThrow(/got ""/);
    expect(() => withCellSubset(config, '1,3')).toThrow(
      `--cells: must include the reference cell #0 (compare_to in ${SYNTHETIC}), which every other cell is compared with; got 1,3`,
    );
    expect(withCellSubset({ ...config, compareTo: 3 }, '1,3').cells).toEqual([1, 3]);
  });
});

describe('the CLI with --seed and --cells', () => {
  it('runs a subset that says so, and its cells are the whole run’s; another seed draws other traders', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'propsim-seed-cells-'));
    const run = (out: string, ...flags: string[]) =>
      runCliAsync(['backtest', '--config', SYNTHETIC, '--out', join(folder, out), '--workers', '1', ...flags]);
    const [whole, subset, reseeded, badCell, noReference, badSeed] = await Promise.all([
      run('whole', '--traders', '3', '--seed', '5'),
      run('subset', '--traders', '3', '--seed', '5', '--cells', '0,2'),
      run('reseeded', '--traders', '3', '--seed', '6', '--cells', '0'),
      run('bad-cell', '--cells', '0,9'),
      run('no-reference', '--cells', '1,2'),
      run('bad-seed', '--seed', '-1'),
    ]);
    for (const ok of [whole, subset, reseeded]) expect(ok.status, ok.stderr).toBe(0);
    const read = (out: string, file: string) => readFileSync(join(folder, out, file), 'utf8');
    const summary = (out: string) => JSON.parse(read(out, 'summary.json')) as Record<string, unknown>;

    expect(summary('whole')).toMatchObject({ seed: 5, subset: null, compare_to: 0 });
    expect(summary('subset')).toMatchObject({ seed: 5, subset: { cells: [0, 2], grid_cells: 4 }, compare_to: 0 });
    expect(subset.stdout).toContain('2 of 4 cells (0, 2; a subset, --cells) × 3 traders');
    expect(read('subset', 'report.html')).toContain("(a subset of the grid's 4: 0, 2)");
    // The subset's cells are the whole run's cells 0 and 2, row for row.
    const rowsOf = (out: string, file: string, cells: string[]) =>
      read(out, file)
        .trim()
        .split('\n')
        .slice(1)
        .filter((row) => cells.includes(row.split(',')[0]!));
    expect(rowsOf('subset', 'traders.csv', ['0', '2'])).toEqual(rowsOf('whole', 'traders.csv', ['0', '2']));
    expect(rowsOf('subset', 'cells.csv', ['0', '2'])).toEqual(rowsOf('whole', 'cells.csv', ['0', '2']));
    // Cell 2's decisions differ only in the Holm adjustment (3 comparisons here, 9 in the whole run).
    const decisionsOf = (out: string) =>
      (summary(out).decisions as Array<Record<string, unknown>>)
        .filter((d) => d.cell === 2)
        .map(({ p_adjusted: _, verdict: __, detectable: ___, ...rest }) => rest);
    expect(decisionsOf('subset')).toEqual(decisionsOf('whole'));

    // Seed 6 draws other traders: the same ids, other outcomes or balances.
    expect(summary('reseeded').seed).toBe(6);
    expect(rowsOf('reseeded', 'traders.csv', ['0'])).not.toEqual(rowsOf('whole', 'traders.csv', ['0']));

    expect(badCell.status).toBe(2);
    expect(badCell.stderr).toContain('--cells: expected grid cell indices from 0 to 3');
    expect(noReference.status).toBe(2);
    expect(noReference.stderr).toContain('--cells: must include the reference cell #0');
    expect(badSeed.status).toBe(2);
    expect(badSeed.stderr).toContain('--seed: expected a whole number of at least 0');
    for (const out of ['bad-cell', 'no-reference', 'bad-seed']) expect(existsSync(join(folder, out))).toBe(false);
  }, 120_000);
});
