// A back-test period is checked against the market data before any cell runs: a period longer than the data (no
// data at all, or trade dates before its first or after its last) is invalid input (exit 2) naming the period and
// the trade dates the files hold, and pointing to market.resample. The fixture's ticks cover ES trade dates
// 2026-04-07 to 2026-04-09.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { checkPeriodCoverage } from '../../../src/backtest/config/period-coverage.js';
import { runCliAsync } from '../../cli/run-cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/**
 * The hand-checked config with another period, in a fresh folder beside a copy of its market file. Its traders are
 * two synthetic ones: its fills file, all in 04-07 to 04-09, would be refused first in a period off the data.
 */
function configWithPeriod(from: string, to: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'propsim-coverage-'));
  copyFileSync(join(FIXTURES, 'esm6-ticks.csv'), join(dir, 'esm6-ticks.csv'));
  const text = readFileSync(join(FIXTURES, 'hand-checked.yaml'), 'utf8')
    .replace('period: { from: 2026-04-07, to: 2026-04-09 }', `period: { from: ${from}, to: ${to} }`)
    .replace('fills: { path: trader-fills.csv }', 'synthetic: { count: 2, strategy: random_bracket }');
  const path = join(dir, 'config.yaml');
  writeFileSync(path, text);
  return path;
}

async function coverage(from: string, to: string): Promise<unknown> {
  return checkPeriodCoverage(loadBacktestConfig(configWithPeriod(from, to)));
}

describe('market data against the back-test period', () => {
  it('a period the data covers fully: no warning', async () => {
    expect(await coverage('2026-04-07', '2026-04-09')).toBeUndefined();
    expect(await coverage('2026-04-08', '2026-04-08'), 'a single day inside the data').toBeUndefined();
  });

  it('a period before or after the data is invalid input naming the period and what the files hold', async () => {
    await expect(coverage('2026-03-02', '2026-03-06')).rejects.toThrow(
      /config\.yaml: period: no market data in the period 2026-03-02 to 2026-03-06: the market files hold trade dates 2026-04-07 to 2026-04-09;/,
    );
    await expect(coverage('2026-05-04', '2026-05-08')).rejects.toThrow(
      'no market data in the period 2026-05-04 to 2026-05-08: the market files hold trade dates 2026-04-07 to 2026-04-09',
    );
  });

  it('a period longer than the data is invalid input naming both, and how many of its trade dates lie beyond', async () => {
    // Trade dates 04-01, 02, 03 (Good Friday 2026: an abbreviated session, for the jobs report), 06, 07 and 08.
    await expect(coverage('2026-04-01', '2026-04-08')).rejects.toThrow(
      'config.yaml: period: the period 2026-04-01 to 2026-04-08 is longer than the market data, which holds trade dates 2026-04-07 to 2026-04-09: 4 of its 6 trade dates lie beyond it; move the period inside 2026-04-07 to 2026-04-09, add market files, or fill the period with a tape resampled from their sessions: market.resample: { block_sessions: 5 } (docs/backtesting.md#long-horizons-a-resampled-tape)',
    );
    await expect(coverage('2026-04-08', '2026-04-17')).rejects.toThrow(
      'the period 2026-04-08 to 2026-04-17 is longer than the market data, which holds trade dates 2026-04-07 to 2026-04-09: 6 of its 8 trade dates lie beyond it',
    );
  });

  it('the CLI exits 2 before any cell runs and writes nothing, for no data as for a period longer than it', async () => {
    const none = configWithPeriod('2026-05-04', '2026-05-08');
    const partial = configWithPeriod('2026-04-06', '2026-04-09');
    const [refused, longer] = await Promise.all([
      runCliAsync(['backtest', '--config', none, '--out', join(none, '..', 'out'), '--workers', '2']),
      runCliAsync(['backtest', '--config', partial, '--out', join(partial, '..', 'out'), '--workers', '1']),
    ]);
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr, 'one line, no progress: no cell ran').toBe(
      `propsim backtest: ${none}: period: no market data in the period 2026-05-04 to 2026-05-08: the market files hold trade dates 2026-04-07 to 2026-04-09; move the period into that range, add market files for it, or fill the period with a tape resampled from their sessions: market.resample: { block_sessions: 5 } (docs/backtesting.md#long-horizons-a-resampled-tape)\n`,
    );
    expect(readdirSync(join(none, '..')).sort(), 'nothing written').toEqual(['config.yaml', 'esm6-ticks.csv']);
    expect(longer.status, longer.stderr).toBe(2);
    expect(longer.stdout).toBe('');
    expect(longer.stderr).toContain(
      'period: the period 2026-04-06 to 2026-04-09 is longer than the market data, which holds trade dates 2026-04-07 to 2026-04-09: 1 of its 4 trade dates lie beyond it',
    );
    expect(readdirSync(join(partial, '..')).sort(), 'nothing written').toEqual(['config.yaml', 'esm6-ticks.csv']);
  });
});
