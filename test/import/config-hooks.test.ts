// A back-test config takes a broker export as `traders.fills: { path, format, tz }` and a Databento download as a
// market file `format: databento`, without an import step.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { loadBacktestConfig } from '../../src/backtest/config/backtest-config.js';
import { readFillsFile, type FillsFileSpec } from '../../src/backtest/fills/trader-fills.js';
import type { ImportedFills } from '../../src/import/import-fills.js';
import { marketPrintBatches } from '../../src/market/sources.js';
import { collectRows, tempFiles } from '../market/market-test-files.js';
import { runCli, runCliAsync } from '../cli/run-cli.js';

const fixture = (name: string): string => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const files = tempFiles();
afterAll(() => files.remove());

function config(fills: Record<string, unknown>, more: Record<string, unknown> = {}): string {
  return files.write(
    'config.yaml',
    stringify({
      ...more,
      name: 'imported',
      seed: 1,
      market: { files: [{ path: fixture('databento-trades.csv'), format: 'databento', instrument: 'ESH4' }] },
      period: { from: '2024-01-02', to: '2024-01-02' },
      traders: { fills },
      plans: {
        'mini-50k': {
          starting_balance: '50000',
          risk_profile: { max_drawdown_mode: 'eod_balance', max_drawdown_value: '1000', daily_loss_value: '1000' },
          passing_criteria: { profit_target: '1000' },
        },
      },
      base_plan: 'mini-50k',
    }),
  );
}

describe('traders.fills with a format', () => {
  it('reads a NinjaTrader export in its tz as the back-test fills', () => {
    const loaded = loadBacktestConfig(
      config({
        path: fixture('ninjatrader-executions.csv'),
        format: 'ninjatrader',
        tz: 'America/New_York',
        date_order: 'mdy',
      }),
    );
    expect(loaded.fills).toEqual({
      path: fixture('ninjatrader-executions.csv'),
      format: 'ninjatrader',
      tz: 'America/New_York',
      dateOrder: 'mdy',
    });
    // 9:31:05 AM in New York (EST, UTC-5) is 14:31:05Z.
    expect(readFillsFile(loaded.fills!)[0]).toMatchObject({
      timeMs: Date.parse('2024-01-02T14:31:05Z'),
      trader: 'Sim101',
      symbol: 'ESH4',
      commission: '2.04',
      line: 2,
    });
  });

  it('gives what the import of the export gave, as `propsim import fills` has it: counts per trader, duplicates', () => {
    const given: unknown[] = [];
    const path = fixture('tradovate-fills.csv');
    const loaded = loadBacktestConfig(
      config({ path, format: 'tradovate', tz: 'America/Chicago', date_order: 'mdy' }),
      undefined,
      (...args) => given.push(args),
    );
    // Fill ID 1002 twice (lines 3 and 4); DEMO123: 3 rows = 2 kept + 1 duplicate; DEMO456: 3 rows = 2 kept + 1
    // spread (ESH4-ESM4) skipped.
    expect(given).toHaveLength(1);
    const [imported, spec] = given[0] as [ImportedFills, FillsFileSpec];
    expect(spec).toEqual(loaded.fills);
    expect(imported.warnings).toEqual([`${path}:4: Fill ID 1002 was already read at ${path}:3; kept once`]);
    expect(Object.fromEntries(imported.counts)).toEqual({
      DEMO123: { read: 3, kept: 2, deduplicated: 1, skipped: 0 },
      DEMO456: { read: 3, kept: 2, deduplicated: 0, skipped: 1 },
    });
  });

  it('the CLI tells it once on stderr, not once per cell or worker (2 cells on 2 workers)', () => {
    const path = fixture('tradovate-fills.csv');
    const grid = { 'risk_profile.daily_loss_value': ['1000', '500'] };
    const configPath = config({ path, format: 'tradovate', tz: 'America/Chicago', date_order: 'mdy' }, { grid });
    const out = join(dirname(configPath), 'out');
    const { status, stderr } = runCli(['backtest', '--config', configPath, '--out', out, '--workers', '2']);
    expect(status).toBe(0);
    const count = (text: string) => stderr.split(text).length - 1;
    expect(count(`propsim backtest: read 4 fills of 2 traders from ${path} (a tradovate export)\n`)).toBe(1);
    expect(count(`propsim backtest: warning: ${path}:4: Fill ID 1002 was already read at ${path}:3; kept once\n`)).toBe(
      1,
    );
    // The table of `propsim import fills`, once: DEMO123's and DEMO456's counts.
    expect(count('trader   read  kept  deduplicated  skipped\nDEMO123  3     2     1             0\n')).toBe(1);
  });

  it('the CLI warns once that de-duplication is off for an export without a fill-id column, and what to do', () => {
    const renamed = files.write(
      'renamed-fills.csv',
      readFileSync(fixture('tradovate-fills.csv'), 'utf8').replace('Fill ID,', 'FillNo,'),
    );
    const configPath = config({ path: renamed, format: 'tradovate', tz: 'America/Chicago', date_order: 'mdy' });
    const { status, stderr } = runCli([
      'backtest',
      '--config',
      configPath,
      '--out',
      join(dirname(configPath), 'renamed'),
    ]);
    expect(status).toBe(0);
    const warning = `propsim backtest: warning: ${renamed}: no fill-id column (looked for Fill ID or id): de-duplication is off, so a fill exported twice is kept twice; a config cannot map columns: import the export with propsim import fills --map id=COLUMN and name its output in traders.fills.path\n`;
    expect(stderr.split(warning).length - 1).toBe(1);
    expect(stderr).toContain(`propsim backtest: read 5 fills of 2 traders from ${renamed} (a tradovate export)\n`);
  });

  it('the CLI refuses --traders and --cells before the export is read: the refusal is all stderr holds', async () => {
    const path = fixture('tradovate-fills.csv');
    const configPath = config({ path, format: 'tradovate', tz: 'America/Chicago', date_order: 'mdy' });
    // An export with a bad row (a side of "hold") would be refused too, once read: the flag's refusal comes first.
    const bad = files.write('bad-fills.csv', readFileSync(path, 'utf8').replace(', Buy,', ', Hold,'));
    const badConfig = files.write('bad-config.yaml', readFileSync(configPath, 'utf8').replace(path, bad));
    const out = join(dirname(configPath), 'refused-out');
    const [traders, cells, badTraders] = await Promise.all([
      runCliAsync(['backtest', '--config', configPath, '--out', out, '--traders', '500']),
      runCliAsync(['backtest', '--config', configPath, '--out', out, '--cells', '0,1']),
      runCliAsync(['backtest', '--config', badConfig, '--out', out, '--traders', '500']),
    ]);
    const refusal = `propsim backtest: --traders: sets how many synthetic traders run, and ${configPath} has none (its traders are the fills file's); add traders.synthetic to the config, or leave --traders out\n`;
    expect(traders).toEqual({ status: 2, stdout: '', stderr: refusal });
    expect(badTraders).toEqual({ status: 2, stdout: '', stderr: refusal.replace(configPath, badConfig) });
    expect(cells).toEqual({
      status: 2,
      stdout: '',
      stderr: `propsim backtest: --cells: expected grid cell indices from 0 to 0 (${configPath} has 1 cells), separated by commas, got "1"\n`,
    });
    expect(existsSync(out)).toBe(false);
  });

  it('gives nothing of an invalid config: only what is wrong is told', () => {
    const given: unknown[] = [];
    const invalid = files.write(
      'invalid.yaml',
      readFileSync(
        config({ path: fixture('tradovate-fills.csv'), format: 'tradovate', tz: 'America/Chicago', date_order: 'mdy' }),
        'utf8',
      ).replace('base_plan: mini-50k', 'base_plan: nowhere'),
    );
    expect(() => loadBacktestConfig(invalid, undefined, (...args) => given.push(args))).toThrow(/base_plan/);
    expect(given).toEqual([]);
  });

  it('names traders.fills.date_order when every date of the export reads both ways, with what each order reads', () => {
    const path = fixture('ninjatrader-executions.csv');
    expect(() => loadBacktestConfig(config({ path, format: 'ninjatrader', tz: 'America/New_York' }))).toThrow(
      `traders.fills.date_order: required: ${path}:2: column Time: "1/2/2024 9:31:05 AM" reads as month/day (2024-01-02) or day/month (2024-02-01), and so does every date of the file: none has a day above 12 to show which comes first; date_order: mdy reads it as 2024-01-02, date_order: dmy as 2024-02-01`,
    );
  });

  it("refuses tz and date_order beside propsim's own fills CSV, whose times are ISO", () => {
    expect(() => loadBacktestConfig(config({ path: fixture('generic-trades.csv'), tz: 'America/Chicago' }))).toThrow(
      /traders\.fills\.tz: expected only with traders\.fills\.format \(a broker export\)/,
    );
    expect(() => loadBacktestConfig(config({ path: fixture('generic-trades.csv'), date_order: 'dmy' }))).toThrow(
      /traders\.fills\.date_order: expected only with traders\.fills\.format/,
    );
    expect(() =>
      loadBacktestConfig(config({ path: fixture('generic-trades.csv'), format: 'generic', date_order: 'ymd' })),
    ).toThrow(/traders\.fills\.date_order/);
  });

  it('names traders.fills.tz when the export needs a zone', () => {
    expect(() =>
      loadBacktestConfig(config({ path: fixture('ninjatrader-executions.csv'), format: 'ninjatrader' })),
    ).toThrow(/traders\.fills\.tz: expected the zone of its times: .*column Time has times with no offset/);
  });

  it('refuses an unknown format and zone', () => {
    expect(() => loadBacktestConfig(config({ path: fixture('generic-trades.csv'), format: 'excel' }))).toThrow(
      /traders\.fills\.format/,
    );
    expect(() =>
      loadBacktestConfig(config({ path: fixture('generic-trades.csv'), format: 'generic', tz: 'Mars/Olympus' })),
    ).toThrow(/traders\.fills\.tz: expected an IANA time zone/);
  });
});

describe('market files with format: databento', () => {
  it("an instrument key reads only that contract of the file's several", async () => {
    const rows = await collectRows(
      marketPrintBatches([{ path: fixture('databento-trades.csv'), format: 'databento', instrument: 'ESH4' }]),
    );
    // 6 rows: 4 ES, 1 NQ, 1 spread; sorted by ms: .000 (lines 2, 3), .001 (line 5), .002 (line 7).
    expect(rows.map((r) => [r.symbol, r.line])).toEqual([
      ['ESH4', 2],
      ['ESH4', 3],
      ['ESH4', 5],
      ['ESH4', 7],
    ]);
  });
});
