// The stand-in firm of docs/backtesting.md#how-close-calibration-comes: 200 traders of four styles (60 breakouts, 60
// fading moves from the mean, 40 scalpers, 40 swing traders). Not random_bracket traders but for the scalpers, so
// calibration has to approximate them. scripts/calibration-population.ts trades them; tests take fewer of each.
import type { SyntheticTraders } from '../src/backtest/traders/strategy.js';

export const FIRM_STYLES: SyntheticTraders[] = [
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
