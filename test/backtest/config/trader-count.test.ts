// `propsim backtest --traders N` (docs/backtesting.md#how-many-traders): the synthetic traders' count from the command
// line, split over the config's blocks in proportion to their counts (largest remainders, earlier blocks first on a
// tie, at least one each). The shares are worked by hand; the CLI runs once on the 4-cell synthetic fixture.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { shares, withSyntheticTraders } from '../../../src/backtest/config/trader-count.js';
import { runCliAsync } from '../../cli/run-cli.js';

const SYNTHETIC = fileURLToPath(new URL('../fixtures/synthetic-6e.yaml', import.meta.url));
const FILLS_ONLY = fileURLToPath(new URL('../fixtures/hand-checked.yaml', import.meta.url));

describe('--traders N', () => {
  it('splits N over the blocks in proportion to their counts', () => {
    expect(shares([4, 3, 3], 20)).toEqual([8, 6, 6]); // exactly 20 × 4/10, 20 × 3/10, 20 × 3/10
    expect(shares([80, 80, 80], 720)).toEqual([240, 240, 240]);
    // 2, 1.5, 1.5: one left over after the floors, and the two .5 remainders tie: the earlier block takes it.
    expect(shares([4, 3, 3], 5)).toEqual([2, 2, 1]);
    // 1.2, 0.9, 0.9: floors 1, 0, 0; the two .9 remainders take the two left over.
    expect(shares([4, 3, 3], 3)).toEqual([1, 1, 1]);
    // 0.02 and 1.98 round to 0 and 2; a block still runs one trader, taken from the largest.
    expect(shares([1, 99], 2)).toEqual([1, 1]);
  });

  it("sets the config's blocks, nothing else", () => {
    const config = loadBacktestConfig(SYNTHETIC);
    const scaled = withSyntheticTraders(config, 5);
    expect(scaled.synthetic.map((b) => b.count)).toEqual([2, 2, 1]);
    expect(scaled.synthetic.map((b) => b.strategy)).toEqual(config.synthetic.map((b) => b.strategy));
    expect({ ...scaled, synthetic: config.synthetic }).toEqual(config);
    expect(config.synthetic.map((b) => b.count)).toEqual([4, 3, 3]); // the loaded config is left as it was
  });

  it('is refused where it cannot apply: no synthetic traders, fewer than the blocks, more than a block holds', () => {
    expect(() => withSyntheticTraders(loadBacktestConfig(FILLS_ONLY), 10)).toThrow(
      /--traders: sets how many synthetic traders run, and .*hand-checked\.yaml has none \(its traders are the fills file's\)/,
    );
    expect(() => withSyntheticTraders(loadBacktestConfig(SYNTHETIC), 2)).toThrow(
      "--traders: expected at least 3 (one for each of the config's 3 traders.synthetic blocks), got 2",
    );
    expect(() => withSyntheticTraders(loadBacktestConfig(SYNTHETIC), 1_000_000)).toThrow(
      '--traders: at most 100,000 traders a traders.synthetic block; 1,000,000 would give one 400,000',
    );
  });

  it('runs the CLI with the count given, and refuses a bad one with exit 2 and nothing written', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'propsim-traders-'));
    const run = (traders: string, out: string) =>
      runCliAsync([
        'backtest',
        '--config',
        SYNTHETIC,
        '--out',
        join(folder, out),
        '--workers',
        '1',
        '--traders',
        traders,
      ]);
    const [five, zero, two] = await Promise.all([run('5', 'five'), run('0', 'zero'), run('2', 'two')]);

    expect(five.status, five.stderr).toBe(0);
    const traders = readFileSync(join(folder, 'five', 'traders.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    expect(traders).toHaveLength(4 * 5); // 4 cells × 5 traders
    const ids = [...new Set(traders.map((row) => row.split(',')[1]))];
    expect(ids).toEqual([
      'random_bracket-1-0001',
      'random_bracket-1-0002',
      'momentum_breakout-2-0001',
      'momentum_breakout-2-0002',
      'mean_reversion-3-0001',
    ]);
    expect(JSON.parse(readFileSync(join(folder, 'five', 'summary.json'), 'utf8')).traders).toBe(5);

    expect(zero.status).toBe(2);
    expect(zero.stderr).toContain('--traders: expected a whole number of at least 1');
    expect(two.status).toBe(2);
    expect(two.stderr).toContain('--traders: expected at least 3');
    expect(existsSync(join(folder, 'zero')) || existsSync(join(folder, 'two'))).toBe(false);
  }, 60_000);
});
