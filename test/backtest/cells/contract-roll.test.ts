// Several instruments and the equity-index roll in a back-test (docs/backtesting.md#several-instruments-and-contract-rolls),
// over seeded ES and NQ ticks of both the March and June 2024 contracts (scripts/multi-instrument-ticks.ts), 2024-02-26
// to 2024-03-15: ESH4 expires Friday 15 March, so ES and NQ roll on Thursday 7 March.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBacktestConfig, type BacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { runCell, type CellResult } from '../../../src/backtest/cells/cell-runner.js';
import { runBacktest } from '../../../src/backtest/run-backtest.js';
import type { Kernel } from '../../../src/core/kernel/kernel.js';
import type { FillJson } from '../../../src/core/shapes/fill.js';
import { backtestOutputFiles } from '../../../src/reports/backtest-outputs.js';
import { ES_NQ_ROLL, writeTickData, type TickDataOptions } from '../../../scripts/multi-instrument-ticks.js';

const BIN = fileURLToPath(new URL('../../../bin/propsim.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'propsim-roll-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A plan loose enough that the traders keep trading through the three weeks. */
const WIDE_PLAN = {
  starting_balance: '50000.00',
  risk_profile: { max_drawdown_mode: 'eod_balance', max_drawdown_value: '20000.00' },
  passing_criteria: { profit_target: '40000.00', min_trading_days: 5 },
  position_limits: { max_contracts: 5 },
  commission_per_contract: '2.10',
};

function config(data: TickDataOptions, name: string): BacktestConfig {
  return parseBacktestConfig(configDocument(data, name), join(folder, name, 'config.yaml'));
}

/** The config over freshly written data in folder/name (its files named by absolute path). */
function configDocument(data: TickDataOptions, name: string, seed = 3): Record<string, unknown> {
  const files = writeTickData(join(folder, name), data);
  return {
    name,
    seed,
    market: { files: files.map((path) => ({ path, format: 'ticks' })) },
    period: { from: data.from, to: data.to },
    traders: {
      synthetic: [
        { count: 8, strategy: 'random_bracket', instruments: { ES: 3, NQ: 1 }, params: { trades_per_day: 6 } },
        { count: 4, strategy: 'momentum_breakout', instruments: ['ES', 'NQ'], params: { lookback_minutes: 10 } },
      ],
    },
    plans: { wide: WIDE_PLAN },
    base_plan: 'wide',
  };
}

async function runWithFills(cfg: BacktestConfig): Promise<{ result: CellResult; fills: FillJson[] }> {
  let fills: FillJson[] = [];
  const result = await runCell({ config: cfg, cell: { index: 0, values: {}, label: 'base' } }, undefined, (kernel) => {
    fills = everyFill(kernel);
  });
  return { result, fills };
}

function everyFill(kernel: Kernel): FillJson[] {
  const fills: FillJson[] = [];
  let cursor: string | undefined;
  do {
    const page = kernel.read.fills({}, {}, { limit: 500, cursor });
    if (!page.ok) throw new Error(page.body.error);
    fills.push(...page.body.items);
    cursor = page.body.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return fills;
}

describe('several instruments and contract rolls', () => {
  it('trades ESH4 and NQH4 before the 2024-03-07 roll and ESM4 and NQM4 from it; no position crosses the roll', async () => {
    const { result, fills } = await runWithFills(config(ES_NQ_ROLL, 'roll'));
    const byContract = (symbol: string) => fills.filter((f) => f.instrument_id === symbol);
    for (const symbol of ['ESH4', 'NQH4', 'ESM4', 'NQM4']) expect(byContract(symbol).length).toBeGreaterThan(0);
    for (const fill of fills) {
      const march = fill.trade_date < '2024-03-07';
      expect(fill.instrument_id.endsWith(march ? 'H4' : 'M4'), `${fill.instrument_id} on ${fill.trade_date}`).toBe(
        true,
      );
    }
    // Every account is flat in each March contract after its last March trade date.
    for (const account of new Set(fills.map((f) => f.account_id)))
      for (const symbol of ['ESH4', 'NQH4']) {
        const net = byContract(symbol)
          .filter((f) => f.account_id === account)
          .reduce((sum, f) => sum + (f.side === 'buy' ? f.quantity : -f.quantity), 0);
        expect(net, `${account} ${symbol}`).toBe(0);
      }
    // ES weighs 3 against NQ's 1 in the first block, 1 against 1 in the second: ES takes most entries.
    const es = fills.filter((f) => f.instrument_id.startsWith('ES')).length;
    expect(es / fills.length).toBeGreaterThan(0.55);
    expect(result.missingPrints).toEqual([]);
  }, 60_000);

  it('is deterministic: the same seed writes the same data and the same results', async () => {
    const first = config(ES_NQ_ROLL, 'same-a');
    const second = config(ES_NQ_ROLL, 'same-b');
    for (const contract of Object.keys(ES_NQ_ROLL.contracts)) {
      const bytes = (name: string) => readFileSync(join(folder, name, `${contract}.csv`));
      expect(bytes('same-b').equals(bytes('same-a')), contract).toBe(true);
    }
    const [a, b] = await Promise.all([runBacktest(first, { workers: 1 }), runBacktest(second, { workers: 1 })]);
    expect(JSON.stringify(b.cells)).toBe(JSON.stringify(a.cells));
  }, 60_000);

  it('reports a session whose contract printed nothing: a day of NQM4 left out', async () => {
    const data = { ...ES_NQ_ROLL, leaveOut: [{ contract: 'NQM4', tradeDate: '2024-03-12' }] };
    const { result, fills } = await runWithFills(config(data, 'gap'));
    expect(result.missingPrints).toEqual([{ trade_date: '2024-03-12', contract: 'NQM4' }]);
    // That session the traders trade ES only.
    const gapDay = fills.filter((f) => f.trade_date === '2024-03-12');
    expect(gapDay.length).toBeGreaterThan(0);
    expect(gapDay.every((f) => f.instrument_id === 'ESM4')).toBe(true);
    const run = await runBacktest(config(data, 'gap-run'), { workers: 1 });
    const files = backtestOutputFiles(run);
    expect(JSON.parse(files['summary.json']!).missing_prints).toEqual([{ trade_date: '2024-03-12', contract: 'NQM4' }]);
    expect(files['report.html']).toContain('NQM4 on 2024-03-12');
  }, 60_000);

  it('the CLI names a session without prints on stderr and runs', async () => {
    const data = { ...ES_NQ_ROLL, leaveOut: [{ contract: 'NQM4', tradeDate: '2024-03-12' }] };
    const path = join(folder, 'cli.yaml');
    writeFileSync(path, JSON.stringify(configDocument(data, 'cli')));
    const args = [BIN, 'backtest', '--config', path, '--out', join(folder, 'cli-out'), '--workers', '1'];
    const { status, stderr } = await new Promise<{ status: number; stderr: string }>((done) =>
      execFile(process.execPath, args, { encoding: 'utf8', timeout: 60_000 }, (error, _stdout, stderr) =>
        done({ status: error ? Number(error.code) : 0, stderr }),
      ),
    );
    expect(status, stderr).toBe(0);
    expect(stderr).toContain(
      'propsim backtest: warning: 1 session had no prints for the contract the traders should trade: NQM4 on 2024-03-12;',
    );
  }, 60_000);
});
