// The three documented synthetic strategies (docs/backtesting.md). Each draws its own parameters from the
// configured ranges with its seeded random source, so a trader behaves the same in every grid cell until its
// account's rules (a lock, a breach, a pass) make it differ.
import type { Side } from '../../core/orders/order-types.js';
import { BracketTrader } from './bracket-trader.js';
import { readStrategyParams, type StrategyParams } from './strategy-params.js';
import { TraderRandom, type SyntheticStrategy, type Trader, type TraderView } from './strategy.js';

/** random_bracket: at each check, enters on a coin toss with the odds that give trades_per_day a day on average. */
class RandomBracketTrader extends BracketTrader {
  protected signal(): Side | undefined {
    const checksPerDay = (23 * 60) / this.params.checkEveryMinutes;
    const percent = Math.max(1, Math.round((100 * this.params.tradesPerDay) / checksPerDay));
    if (!this.random.chance(percent)) return undefined;
    return this.random.chance(50) ? 'buy' : 'sell';
  }
}

/** momentum_breakout: buys a print above the high of the last lookback minutes, sells one below the low. */
class MomentumBreakoutTrader extends BracketTrader {
  private readonly lookbackMinutes: number;

  constructor(id: string, random: TraderRandom, params: StrategyParams) {
    super(id, random, params);
    const base = params.lookbackMinutes!;
    this.lookbackMinutes = random.int(Math.max(2, Math.round(base / 2)), base * 2);
  }

  protected signal(view: TraderView): Side | undefined {
    const range = view.bars.range(this.lookbackMinutes);
    const last = view.bars.lastTicks;
    if (!range || last === undefined) return undefined;
    if (last > range.high) return 'buy';
    if (last < range.low) return 'sell';
    return undefined;
  }
}

/** mean_reversion: fades a price threshold_ticks or more away from its lookback mean. */
class MeanReversionTrader extends BracketTrader {
  private readonly lookbackMinutes: number;
  private readonly thresholdTicks: number;

  constructor(id: string, random: TraderRandom, params: StrategyParams) {
    super(id, random, params);
    const base = params.lookbackMinutes!;
    this.lookbackMinutes = random.int(Math.max(2, Math.round(base / 2)), base * 2);
    const threshold = params.thresholdTicks!;
    this.thresholdTicks = random.int(Math.max(1, Math.round(threshold / 2)), threshold * 2);
  }

  protected signal(view: TraderView): Side | undefined {
    const mean = view.bars.meanClose(this.lookbackMinutes);
    const last = view.bars.lastTicks;
    if (mean === undefined || last === undefined) return undefined;
    if (last >= mean + this.thresholdTicks) return 'sell';
    if (last <= mean - this.thresholdTicks) return 'buy';
    return undefined;
  }
}

export type SyntheticTrader = BracketTrader;

/** A trader of `strategy`; its params as written in the config, read through their schema (strategy-params.ts). */
export function createTrader(
  strategy: SyntheticStrategy,
  id: string,
  seed: number,
  written: Readonly<Record<string, unknown>>,
): SyntheticTrader {
  const random = new TraderRandom(seed);
  const params = readStrategyParams(strategy, written);
  switch (strategy) {
    case 'random_bracket':
      return new RandomBracketTrader(id, random, params);
    case 'momentum_breakout':
      return new MomentumBreakoutTrader(id, random, params);
    case 'mean_reversion':
      return new MeanReversionTrader(id, random, params);
  }
}

export type { Trader };
