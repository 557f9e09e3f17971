// The stand-in firm of docs/backtesting.md#how-close-calibration-comes: 200 traders of four styles (60 breakouts, 60
// fading moves from the mean, 40 scalpers, 40 swing traders). Not random_bracket traders but for the scalpers, so
// calibration has to approximate them. scripts/calibration-population.ts trades them; tests take fewer of each.
import type { SyntheticStrategy, SyntheticTraders } from '../src/backtest/traders/strategy.js';

type Range = [min: number, max: number];

/** `count` traders of `strategy`: trades a day, the strategy's own parameters, then contracts, stop and target ticks. */
function style(
  count: number,
  strategy: SyntheticStrategy,
  tradesPerDay: number,
  own: Record<string, number>,
  contracts: Range,
  stopTicks: Range,
  targetTicks: Range,
): SyntheticTraders {
  return {
    count,
    strategy,
    params: { trades_per_day: tradesPerDay, ...own, contracts, stop_ticks: stopTicks, target_ticks: targetTicks },
  };
}

export const FIRM_STYLES: SyntheticTraders[] = [
  style(60, 'momentum_breakout', 3, { lookback_minutes: 30 }, [1, 2], [10, 30], [15, 45]),
  style(60, 'mean_reversion', 4, { lookback_minutes: 60, threshold_ticks: 15 }, [1, 3], [8, 20], [6, 24]),
  style(40, 'random_bracket', 8, {}, [1, 1], [4, 8], [4, 10]),
  style(40, 'momentum_breakout', 1, { lookback_minutes: 120 }, [2, 5], [40, 80], [60, 120]),
];
