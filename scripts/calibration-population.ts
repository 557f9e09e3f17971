// A firm's worth of traders to calibrate on, for docs/backtesting.md#how-close-calibration-comes: 200 seeded traders
// of four styles (breakouts, fades, scalpers, swing traders) trade January 2024 6E through the engine, and their fills
// are written as propsim's fills CSV. They are not random_bracket traders, so calibration has to approximate them.
//   node dist/scripts/calibration-population.js /tmp/firm-fills.csv
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { syntheticFills } from '../src/calibrate/synthetic-fills.js';
import { fillsCsv } from '../src/import/fills-csv.js';
import type { SyntheticTraders } from '../src/backtest/traders/strategy.js';

const STYLES: SyntheticTraders[] = [
  {
    count: 60,
    strategy: 'momentum_breakout',
    params: {
      trades_per_day: 3,
      lookback_minutes: 30,
      contracts: [1, 2],
      stop_ticks: [10, 30],
      target_ticks: [15, 45],
    },
  },
  {
    count: 60,
    strategy: 'mean_reversion',
    params: {
      trades_per_day: 4,
      lookback_minutes: 60,
      threshold_ticks: 15,
      contracts: [1, 3],
      stop_ticks: [8, 20],
      target_ticks: [6, 24],
    },
  },
  {
    count: 40,
    strategy: 'random_bracket',
    params: { trades_per_day: 8, contracts: [1, 1], stop_ticks: [4, 8], target_ticks: [4, 10] },
  },
  {
    count: 40,
    strategy: 'momentum_breakout',
    params: {
      trades_per_day: 1,
      lookback_minutes: 120,
      contracts: [2, 5],
      stop_ticks: [40, 80],
      target_ticks: [60, 120],
    },
  },
];

const out = process.argv[2] ?? 'firm-fills.csv';
const bars = fileURLToPath(new URL('../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url));
const fills = await syntheticFills(STYLES, {
  market: [{ path: bars, format: 'bars', instrument: '6EH4' }],
  period: { from: '2024-01-02', to: '2024-01-31' },
  seed: 5,
});
writeFileSync(
  out,
  fillsCsv({
    fills: fills.map((f) => ({ ...f, commission: '', file: '' })),
    hasCommission: false,
  }),
);
process.stderr.write(`calibration-population: ${fills.length} fills of 200 traders written to ${out}\n`);
