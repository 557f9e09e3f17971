// The three documented synthetic strategies (docs/backtesting.md). Each draws its own parameters from the
// configured ranges with its seeded random source, so a trader behaves the same in every grid cell until its
// account's rules (a lock, a breach, a pass) make it differ.
import type { Side } from '../../core/orders/order-types.js';
import { BracketTrader, bracketParams } from './bracket-trader.js';
import { intParam, TraderRandom, type SyntheticStrategy, type Trader, type TraderView } from './strategy.js';

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

  constructor(id: string, random: TraderRandom, params: Record<string, unknown>) {
    super(id, random, bracketParams(params));
    const base = intParam(params, 'lookback_minutes', 30);
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

  constructor(id: string, random: TraderRandom, params: Record<string, unknown>) {
    super(id, random, bracketParams(params));
    const base = intParam(params, 'lookback_minutes', 60);
    this.lookbackMinutes = random.int(Math.max(2, Math.round(base / 2)), base * 2);
    const threshold = intParam(params, 'threshold_ticks', 20);
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

export function createTrader(
  strategy: SyntheticStrategy,
  id: string,
  seed: number,
  params: Record<string, unknown>,
): SyntheticTrader {
  const random = new TraderRandom(seed);
  switch (strategy) {
    case 'random_bracket':
      return new RandomBracketTrader(id, random, bracketParams(params));
    case 'momentum_breakout':
      return new MomentumBreakoutTrader(id, random, params);
    case 'mean_reversion':
      return new MeanReversionTrader(id, random, params);
  }
}

const BRACKET_KEYS = [
  'trades_per_day',
  'contracts',
  'stop_ticks',
  'target_ticks',
  'check_every_minutes',
  'flat_minutes_before_close',
  'stop_after_daily_lock',
  'daily_profit_stop',
  'size_down_within',
  'quit_after_failure',
  'active_hours',
];
const PARAM_KEYS: Record<SyntheticStrategy, readonly string[]> = {
  random_bracket: BRACKET_KEYS,
  momentum_breakout: [...BRACKET_KEYS, 'lookback_minutes'],
  mean_reversion: [...BRACKET_KEYS, 'lookback_minutes', 'threshold_ticks'],
};

/** Checks a strategy's params: known keys only, and values a trader can be built from (errors name the key). */
export function validateStrategyParams(strategy: SyntheticStrategy, params: Record<string, unknown>): void {
  const unknown = Object.keys(params).find((key) => !PARAM_KEYS[strategy].includes(key));
  if (unknown !== undefined)
    throw new Error(
      `params.${unknown}: unknown parameter of ${strategy}; expected one of ${PARAM_KEYS[strategy].join(', ')}`,
    );
  createTrader(strategy, 'check', 1, params);
}

export type { Trader };
