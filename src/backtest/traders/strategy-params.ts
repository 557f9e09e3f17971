// A synthetic strategy's params read through their one declaration, the schema in strategy-params-schema.ts
// (docs/backtesting.md#synthetic-traders): it checks the keys, types and ranges and holds the defaults. Here only
// what a schema cannot say: a range's low above its high, the active hours as minutes, and money in cents.
import { FieldError, toCents } from '../../core/validation/input-fields.js';
import { checkFileValue } from '../../core/validation/file-check.js';
import { activeHoursOf } from './active-hours.js';
import { paramKeys, STRATEGY_PARAMS } from './strategy-params-schema.js';
import type { SyntheticStrategy } from './strategy.js';

/** What every bracket strategy reads (bracket-trader.ts), defaults applied. */
export interface BracketParams {
  tradesPerDay: number;
  contracts: [number, number];
  stopTicks: [number, number];
  targetTicks: [number, number];
  checkEveryMinutes: number;
  flatMinutesBeforeClose: number;
  /** Reacting to risk (docs/backtesting.md#traders-who-react-to-their-risk); all off by default. */
  stopAfterDailyLock: boolean;
  dailyProfitStopCents: number | undefined;
  sizeDownWithinCents: number | undefined;
  quitAfterFailure: boolean;
  /** active_hours: [from, to) minutes past midnight CT when it may enter; undefined (off): the whole session. */
  activeHours: [number, number] | undefined;
  /** max_hold_minutes: a position held this long is closed at market; undefined (off): held until its exits or the close. */
  maxHoldMinutes: number | undefined;
}

/** A strategy's params: the bracket's, and the look-back and threshold of those that have them. */
export interface StrategyParams extends BracketParams {
  lookbackMinutes: number | undefined;
  thresholdTicks: number | undefined;
}

type Checked = Record<string, unknown>;

/**
 * The params of a block of `strategy`, checked and with their defaults. Refusals are FieldErrors on `params.<key>`;
 * an unknown key names the strategy and the keys it has.
 */
export function readStrategyParams(
  strategy: SyntheticStrategy,
  params: Readonly<Record<string, unknown>>,
): StrategyParams {
  const keys = paramKeys(strategy);
  const unknown = Object.keys(params).find((key) => !keys.includes(key));
  if (unknown !== undefined)
    throw new FieldError(`params.${unknown}`, `unknown parameter of ${strategy}; expected one of ${keys.join(', ')}`);
  const schema = STRATEGY_PARAMS[strategy];
  const given = checkFileValue(schema, params, 'params') as Checked;
  const value = (key: string): unknown =>
    given[key] ?? (schema.properties[key] as { default?: unknown } | undefined)?.default;
  return {
    tradesPerDay: value('trades_per_day') as number,
    contracts: range(value('contracts'), 'contracts'),
    stopTicks: range(value('stop_ticks'), 'stop_ticks'),
    targetTicks: range(value('target_ticks'), 'target_ticks'),
    checkEveryMinutes: value('check_every_minutes') as number,
    flatMinutesBeforeClose: value('flat_minutes_before_close') as number,
    stopAfterDailyLock: given.stop_after_daily_lock === true,
    dailyProfitStopCents: cents(given.daily_profit_stop, 'daily_profit_stop'),
    sizeDownWithinCents: cents(given.size_down_within, 'size_down_within'),
    quitAfterFailure: given.quit_after_failure === true,
    activeHours: activeHoursOf(given.active_hours as [string, string] | undefined),
    maxHoldMinutes: given.max_hold_minutes as number | undefined,
    lookbackMinutes: value('lookback_minutes') as number | undefined,
    thresholdTicks: value('threshold_ticks') as number | undefined,
  };
}

/** A checked integer or [low, high]: low above high is the one thing the schema lets through. */
function range(text: unknown, key: string): [number, number] {
  const [low, high] = Array.isArray(text) ? (text as [number, number]) : [text as number, text as number];
  if (low > high)
    throw new FieldError(`params.${key}`, `expected a positive integer or [low, high], got ${JSON.stringify(text)}`);
  return [low, high];
}

function cents(text: unknown, key: string): number | undefined {
  return text === undefined ? undefined : toCents(text as string, `params.${key}`);
}
