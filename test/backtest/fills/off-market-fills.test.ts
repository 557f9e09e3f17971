// Historical fills at prices the market did not trade near: more than 2 ticks outside the low–high of their
// instrument's prints in their minute (or, in a minute without prints, in the nearest minutes with prints within 5
// on each side). Counted before any cell runs, the same in every cell; warned of on stderr; `--strict` refuses them.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { fillsAgainstMarket } from '../../../src/backtest/fills/off-market-fills.js';
import { runCliAsync } from '../../cli/run-cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** The hand-checked config (ESM6 ticks, 2026-04-07 to 04-09) with fixtures/off-market-fills.csv as its fills. */
function offMarketConfig(): { dir: string; config: string; fills: string } {
  const dir = mkdtempSync(join(tmpdir(), 'propsim-off-market-'));
  for (const file of ['esm6-ticks.csv', 'off-market-fills.csv']) copyFileSync(join(FIXTURES, file), join(dir, file));
  const text = readFileSync(join(FIXTURES, 'hand-checked.yaml'), 'utf8').replace(
    'fills: { path: trader-fills.csv }',
    'fills: { path: off-market-fills.csv }',
  );
  writeFileSync(join(dir, 'config.yaml'), text);
  return { dir, config: join(dir, 'config.yaml'), fills: join(dir, 'off-market-fills.csv') };
}

/*
 * ESM6 prints (esm6-ticks.csv, CDT = UTC-5) near the fills: 04-08 09:00 5016.00, 09:30 5012.00, 10:00 5008.00;
 * 04-09 08:45 5029.00, 08:50 5028.00. A tick is 0.25, so 2 ticks are 0.50.
 *   line 2  cat buy  5016.50 at 09:00:30: its minute printed 5016.00; 2 ticks above, within the tolerance.
 *   line 3  cat sell 5011.25 at 09:30:10: its minute printed 5012.00; 3 ticks below: off the market.
 *   line 4  cat buy  5010.00 at 09:47:00: no print from 09:42 to 09:52 (09:30 and 10:00 are 17 and 13 minutes
 *           away): no market to compare.
 *   line 5  cat sell 5028.75 at 08:47:00 (04-09): no print that minute; the nearest, 08:45 (5029.00) and 08:50
 *           (5028.00), make 5028.00 to 5029.00: inside.
 *   line 6  cat buy  502.75 at 08:47:30 (04-09), a dropped digit: (5028.00 − 502.75) / 0.25 = 18,101 ticks below.
 *   line 7  dan buy NQM6 18000.00: no market file prints NQ: no market to compare.
 */
describe('fills against the market', () => {
  it('lists the fills off the market in time order with the range they missed, and counts per trader', async () => {
    const { config, fills } = offMarketConfig();
    const checked = await fillsAgainstMarket(loadBacktestConfig(config));
    expect(checked.offMarket).toEqual([
      {
        file: fills,
        line: 3,
        trader: 'cat',
        symbol: 'ESM6',
        side: 'sell',
        quantity: 1,
        timeMs: Date.parse('2026-04-08T14:30:10Z'),
        price: '5011.25',
        low: '5012.00',
        high: '5012.00',
        fromMs: Date.parse('2026-04-08T14:30:00Z'),
        toMs: Date.parse('2026-04-08T14:31:00Z'),
        ticksOutside: -3,
      },
      {
        file: fills,
        line: 6,
        trader: 'cat',
        symbol: 'ESM6',
        side: 'buy',
        quantity: 1,
        timeMs: Date.parse('2026-04-09T13:47:30Z'),
        price: '502.75',
        low: '5028.00',
        high: '5029.00',
        fromMs: Date.parse('2026-04-09T13:45:00Z'),
        toMs: Date.parse('2026-04-09T13:51:00Z'),
        ticksOutside: -18_101,
      },
    ]);
    expect(Object.fromEntries(checked.byTrader)).toEqual({
      cat: { offMarket: 2, noMarket: 1 },
      dan: { offMarket: 0, noMarket: 1 },
    });
  });

  it('finds three in the hand-checked fills: their exits were made up beside hourly ticks', async () => {
    // ann sells 5014.00 at 09:01 (04-07): 09:00 printed 5010.00, 16 ticks below; bob sells 5025.00 at 09:02, 60 ticks
    // above it; ann sells 5039.00 at 09:01 (04-09): 09:00 printed 5040.00, 4 ticks above. Every entry is on a print.
    const checked = await fillsAgainstMarket(loadBacktestConfig(join(FIXTURES, 'hand-checked.yaml')));
    expect(checked.offMarket.map((f) => [f.line, f.trader, f.price, f.low, f.high, f.ticksOutside])).toEqual([
      [4, 'ann', '5014.00', '5010.00', '5010.00', 16],
      [5, 'bob', '5025.00', '5010.00', '5010.00', 60],
      [9, 'ann', '5039.00', '5040.00', '5040.00', -4],
    ]);
    expect(Object.fromEntries(checked.byTrader)).toEqual({
      ann: { offMarket: 2, noMarket: 0 },
      bob: { offMarket: 1, noMarket: 0 },
    });
  });
});

describe('a fat-fingered exit on 1-minute bars (each bar four prints spanning its low and high)', () => {
  it('a 6E exit at 1.00000 while the minute traded 1.09485 to 1.09515 is 1,897 ticks below it', async () => {
    // fixtures/market 6EH4 bars stamp a bar's end (timestamp_utc): 2024-01-03 14:31:00 is the 14:30 minute, 1.09465 to
    // 1.09505 (the entry at 1.09500 lies in it); 14:32:00 is the 14:31 minute, 1.09485 to 1.09515. A 6E tick is
    // 0.00005: (1.09485 − 1.00000) / 0.00005 = 1,897.
    const dir = mkdtempSync(join(tmpdir(), 'propsim-off-market-6e-'));
    const fills = join(dir, 'fills.csv');
    writeFileSync(
      fills,
      'ts,trader,instrument,side,quantity,price\n2024-01-03T14:30:20Z,ann,6EH4,buy,1,1.09500\n2024-01-03T14:31:40Z,ann,6EH4,sell,1,1.00000\n',
    );
    const bars = fileURLToPath(new URL('../../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url));
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      [
        'name: fat finger',
        `market: { files: [ { path: ${JSON.stringify(bars)}, format: bars, instrument: 6EH4 } ] }`,
        'period: { from: 2024-01-03, to: 2024-01-03 }',
        'traders: { fills: { path: fills.csv } }',
        'base_plan: eval-50k-eod',
      ].join('\n') + '\n',
    );
    const checked = await fillsAgainstMarket(loadBacktestConfig(config));
    expect(checked.offMarket.map((f) => [f.line, f.price, f.low, f.high, f.ticksOutside])).toEqual([
      [3, '1.00000', '1.09485', '1.09515', -1_897],
    ]);
  });
});

describe('propsim backtest and fills off the market', () => {
  it('warns on stderr naming the first, and counts them per trader and cell', async () => {
    const { dir, config, fills } = offMarketConfig();
    const out = join(dir, 'out');
    const { status, stderr } = await runCliAsync(['backtest', '--config', config, '--out', out, '--workers', '1']);
    expect(status).toBe(0);
    expect(stderr).toContain(
      `propsim backtest: warning: 2 historical fills lie more than 2 ticks outside the prices their instrument traded in their minute (fills_off_market in traders.csv, cells.csv and summary.json; report.html lists them); the first: ${fills}:3: cat sell 1 ESM6 at 5011.25 at 2026-04-08T14:30:10.000Z, 3 ticks below ESM6's 5012.00 to 5012.00 between 14:30 and 14:31 UTC; --strict refuses them\n`,
    );
    const traders = readFileSync(join(out, 'traders.csv'), 'utf8').split('\n');
    expect(traders[0]).toMatch(/,first_outcome,first_outcome_day,fills_off_market,fills_no_market$/);
    // Roster order is the order of first fills: dan's at 09:00:00, cat's at 09:00:30.
    expect(traders.filter((row) => row.startsWith('0,'))).toEqual([
      expect.stringMatching(/^0,dan,fills,.*,0,1$/),
      expect.stringMatching(/^0,cat,fills,.*,2,1$/),
    ]);
    const cells = readFileSync(join(out, 'cells.csv'), 'utf8').split('\n');
    expect(cells[0]).toMatch(/,positions_never_had,fills_off_market,fills_no_market,failed$/);
    expect(cells.slice(1, 5).map((row) => row.split(',').slice(-3, -1).join(','))).toEqual([
      '2,2',
      '2,2',
      '2,2',
      '2,2',
    ]);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      cells: Array<{ fills_off_market: number; fills_no_market: number }>;
    };
    expect(summary.cells.map((c) => [c.fills_off_market, c.fills_no_market])).toEqual([
      [2, 2],
      [2, 2],
      [2, 2],
      [2, 2],
    ]);
    const report = readFileSync(join(out, 'report.html'), 'utf8');
    expect(report).toContain('<h2>Historical fills off the market</h2>');
    expect(report).toContain(
      '<td>sell 1 ESM6</td><td>5011.25</td><td>5012.00 to 5012.00</td><td>14:30 to 14:31 UTC</td><td>-3</td>',
    );
    expect(report).toContain('2 had no print of their instrument within 5 minutes'); // cat's 09:47 and dan's NQM6
  });

  it('--strict: exit 2 naming the first, before any cell runs; nothing written', async () => {
    const { dir, config, fills } = offMarketConfig();
    const out = join(dir, 'strict-out');
    const { status, stdout, stderr } = await runCliAsync(['backtest', '--config', config, '--out', out, '--strict']);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `propsim backtest: --strict: ${fills}:3: cat sell 1 ESM6 at 5011.25 at 2026-04-08T14:30:10.000Z, 3 ticks below ESM6's 5012.00 to 5012.00 between 14:30 and 14:31 UTC: a historical fill more than 2 ticks outside the market (2 in all, docs/backtesting.md#fills-off-the-market); correct the fills file, or run without --strict to count them as fills_off_market\n`,
    );
    expect(existsSync(out)).toBe(false);
  });
});
