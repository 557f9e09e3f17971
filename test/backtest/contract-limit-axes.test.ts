// Grid axes over the contract limits (docs/backtesting.md#the-config-file): risk_profile.scaling takes a list of tiers
// per value and position_limits.max_contracts_per_root a mapping, both set whole on the base plan; cells.csv writes
// them as JSON, the report in words. fixtures/contract-limit-axes.yaml: 4 synthetic traders whose every entry is 2
// ES contracts, over the 3 trade dates of esm6-ticks.csv, a 2 × 3 grid.
//
// By hand: an entry of 2 meets |0 + 2| = 2 against the limit. The scaling plan's one tier allows 2 (cells 0-2) or 1
// (cells 3-5); the ES root allows 2 (cells 0, 3), 1 (cells 1, 4), or is unbounded under { NQ: 1 } (cells 2, 5).
// Any limit of 1 refuses every entry (2 > 1): cells 1, 3, 4, 5 have no fill, every balance stays 50,000.00, no
// trading day. Cells 0 and 2 refuse nothing, so their traders trade exactly alike: NQ's limit bounds no ES order.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestConfig, type BacktestConfig } from '../../src/backtest/config/backtest-config.js';
import { runBacktest, type BacktestRun } from '../../src/backtest/run-backtest.js';
import { cellsCsv } from '../../src/reports/backtest-outputs.js';
import { plainCellLabel } from '../../src/reports/cell-labels.js';

const CONFIG = fileURLToPath(new URL('./fixtures/contract-limit-axes.yaml', import.meta.url));

describe('grid axes over risk_profile.scaling and position_limits.max_contracts_per_root', () => {
  let config: BacktestConfig;
  let run: BacktestRun;
  beforeAll(async () => {
    config = loadBacktestConfig(CONFIG);
    run = await runBacktest(config, { workers: 1 });
  });

  const traders = (cell: number) => run.cells[cell]!.traders;

  it('a limit of 1 refuses every 2-lot entry: no trading day, the starting balance kept (cells 1, 3, 4, 5)', () => {
    for (const cell of [1, 3, 4, 5])
      for (const t of traders(cell)) {
        expect(t.tradingDays, `cell ${cell} ${t.trader}`).toBe(0);
        expect(t.finalBalanceCents, `cell ${cell} ${t.trader}`).toBe(5_000_000);
      }
  });

  it('limits of 2, or one on NQ only, leave the entries alone: cells 0 and 2 trade, and alike', () => {
    expect(
      traders(0).some((t) => t.tradingDays > 0),
      'the entries fill',
    ).toBe(true);
    expect(traders(2)).toEqual(traders(0));
  });

  it('the cells name their values: JSON in cells.csv, words in the report', () => {
    expect(cellsCsv(run).split('\n')[1]).toMatch(
      /^0,"\[\{""from_profit"":""0"",""max_contracts"":2\}\]","\{""ES"":2\}",4,/,
    );
    expect(run.cells.map((c) => plainCellLabel(c.cell.values, config.basePlan))).toEqual([
      'scaling 2 · per root ES 2',
      'scaling 2 · per root ES 1',
      'scaling 2 · per root NQ 1',
      'scaling 1 · per root ES 2',
      'scaling 1 · per root ES 1',
      'scaling 1 · per root NQ 1',
    ]);
    expect(run.cells[2]!.cell.label).toBe(
      'risk_profile.scaling=[{"from_profit":"0","max_contracts":2}] position_limits.max_contracts_per_root={"NQ":1}',
    );
  });

  it('more words: tiers from other profits, no scaling plan, micro_ratio', () => {
    const tiers = [
      { from_profit: '-500', max_contracts: 1 },
      { from_profit: '0', max_contracts: 3 },
      { from_profit: '1500', max_contracts: 5 },
    ];
    expect(plainCellLabel({ 'risk_profile.scaling': tiers }, {})).toBe(
      'scaling 1 from -$500, 3 from $0, 5 from $1,500',
    );
    expect(plainCellLabel({ 'risk_profile.scaling': null, 'position_limits.micro_ratio': 10 }, {})).toBe(
      'no scaling plan · 10 micros a mini',
    );
    expect(plainCellLabel({ 'position_limits.max_contracts_per_root': null }, {})).toBe('no per-root limits');
  });
});
