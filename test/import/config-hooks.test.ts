// A back-test config takes a broker export as `traders.fills: { path, format, tz }` and a Databento download as a
// market file `format: databento`, without an import step.
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { loadBacktestConfig } from '../../src/backtest/backtest-config.js';
import { readFillsFile } from '../../src/backtest/trader-fills.js';
import { marketPrintBatches } from '../../src/market/sources.js';
import { collectRows, tempFiles } from '../market/market-test-files.js';

const fixture = (name: string): string => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const files = tempFiles();
afterAll(() => files.remove());

function config(fills: Record<string, unknown>): string {
  return files.write(
    'config.yaml',
    stringify({
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
      config({ path: fixture('ninjatrader-executions.csv'), format: 'ninjatrader', tz: 'America/New_York' }),
    );
    expect(loaded.fills).toEqual({
      path: fixture('ninjatrader-executions.csv'),
      format: 'ninjatrader',
      tz: 'America/New_York',
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
