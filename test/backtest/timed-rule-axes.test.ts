// Grid axes over the clock's rules (docs/risk-rules.md#flat-by-a-time, docs/risk-rules.md#news-blackouts):
// risk_profile.flat_by and risk_profile.news.action vary a base plan whose news file is read beside the config.
// fixtures/timed-rule-axes.yaml, by hand (ES $50 a point, no commission; prints 04-07 at 08:30 5000, 09:00 5010,
// 10:00 5014; 04-08 08:30 5020, 09:00 5016, ...):
//   cat 04-07: buys 1 at 5000 (08:31), sells 1 at 5014 (09:01): +14 x 50 = +700 -> 50,700.
//     flat_by 09:00: flattened at 09:00, the risk sell meeting the 09:00 print at 5010: +10 x 50 = +500 -> 50,500;
//     her own sell at 09:01 is dropped (locked flat_by until the 17:00 roll).
//   dan 04-08: buys 1 at 5020 at 08:31, inside CPI's window [08:28, 08:32).
//     no_entry: dropped, as the gate would have refused it: 50,000, no trading day.
//     fail: it fills and fails the evaluation (news_violation); the risk sell meets the 09:00 print at 5016:
//     -4 x 50 = -200 -> 49,800, failed.
// Cells, flat_by slowest: 0 (none, no_entry), 1 (none, fail), 2 (09:00, no_entry), 3 (09:00, fail).
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestConfig, type BacktestConfig } from '../../src/backtest/config/backtest-config.js';
import { runBacktest, type BacktestRun } from '../../src/backtest/run-backtest.js';
import { plainCellLabel } from '../../src/reports/cell-labels.js';

const CONFIG = fileURLToPath(new URL('./fixtures/timed-rule-axes.yaml', import.meta.url));

describe('grid axes over risk_profile.flat_by and risk_profile.news.action', () => {
  let config: BacktestConfig;
  let run: BacktestRun;
  beforeAll(async () => {
    config = loadBacktestConfig(CONFIG);
    run = await runBacktest(config, { workers: 1 });
  });

  const trader = (cell: number, name: string) => run.cells[cell]!.traders.find((t) => t.trader === name)!;

  it('the news file is read beside the config, into the base plan as written', () => {
    expect(config.basePlan.risk_profile).toMatchObject({
      news: { events: [{ time: '2026-04-08T08:30:00-05:00', roots: ['ES'], name: 'CPI' }], action: 'no_entry' },
    });
  });

  it('cat: +700 without flat_by; flattened at 09:00 at 5010 with it (+500)', () => {
    for (const cell of [0, 1]) expect(trader(cell, 'cat').finalBalanceCents, `cell ${cell}`).toBe(5_070_000);
    for (const cell of [2, 3]) {
      expect(trader(cell, 'cat').finalBalanceCents, `cell ${cell}`).toBe(5_050_000);
      expect(trader(cell, 'cat').droppedFills.locked, `cell ${cell}: the 09:01 sell`).toBe(1);
    }
  });

  it('dan: his entry in the window is dropped (no_entry) or fails him (fail), flattened at 5016', () => {
    for (const cell of [0, 2]) {
      expect(trader(cell, 'dan'), `cell ${cell}`).toMatchObject({
        outcome: 'active',
        tradingDays: 0,
        finalBalanceCents: 5_000_000,
      });
      expect(trader(cell, 'dan').droppedFills.locked, `cell ${cell}`).toBe(1);
    }
    for (const cell of [1, 3])
      expect(trader(cell, 'dan'), `cell ${cell}`).toMatchObject({ outcome: 'failed', finalBalanceCents: 4_980_000 });
  });

  it('the cells name their values in words', () => {
    expect(run.cells.map((c) => plainCellLabel(c.cell.values, config.basePlan))).toEqual([
      'no flat-by time · news no entries',
      'no flat-by time · news fails',
      'flat by 09:00 CT · news no entries',
      'flat by 09:00 CT · news fails',
    ]);
    expect(plainCellLabel({ 'risk_profile.hold_over_weekend': false, 'risk_profile.news': null }, {})).toBe(
      'flat for weekends · no news rule',
    );
  });
});
