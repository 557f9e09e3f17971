// Each synthetic strategy's params (docs/backtesting.md#synthetic-traders) as TypeBox schemas, their one declaration:
// keys, types, ranges, defaults and help. Published in schemas/backtest-config.json so an editor completes and checks
// them; strategy-params.ts reads a block's params through them at run time.
import { Type, type TSchema } from 'typebox';
import { DecimalText, Flag, Int } from '../../core/validation/file-fields.js';
import type { SyntheticStrategy } from './strategy.js';

/** An integer ≥ 1, or a [low, high] range of them: each trader or entry draws from it. */
function Range(fallback: [number, number], description: string) {
  const positive = Int({ minimum: 1 });
  return Type.Union([positive, Type.Array(positive, { minItems: 2, maxItems: 2 })], {
    default: fallback,
    expected: 'a positive integer or [low, high]',
    description: `${description} An integer or [low, high]; default [${fallback.join(', ')}].`,
  });
}

function Count(fallback: number, description: string) {
  return Type.Integer({ minimum: 1, default: fallback, description: `${description} Default ${fallback}.` });
}

/** A positive amount as a decimal string, off unless given. */
function Amount(description: string) {
  return DecimalText({
    places: 2,
    sign: 'positive',
    example: '500.00',
    description: `${description} Off unless given.`,
  });
}

const BRACKET_PARAMS = {
  trades_per_day: Count(4, 'Most entries per trade date.'),
  contracts: Range([1, 2], 'Contracts per entry.'),
  stop_ticks: Range([8, 40], 'Stop distance in ticks, drawn per entry.'),
  target_ticks: Range([8, 60], 'Target distance in ticks, drawn per entry.'),
  check_every_minutes: Count(5, 'Minutes between checks for a signal.'),
  flat_minutes_before_close: Count(5, "Close out this many minutes before the session's close."),
  max_hold_minutes: Type.Integer({
    minimum: 1,
    description:
      'Close a position at market once it has been held this many minutes (from the print that filled its entry). Off unless given.',
  }),
  stop_after_daily_lock: Flag('true: no more entries in a session after its daily-loss lock. Default false.'),
  daily_profit_stop: Amount('No new entries once the day\'s net P&L reaches this, like "500.00".'),
  size_down_within: Amount('Trade one contract while equity is this close to the max-loss floor, like "500.00".'),
  quit_after_failure: Flag('true: after a failed account, trade no more and take no reset. Default false.'),
  active_hours: Type.Array(
    Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', expected: 'a Chicago time "HH:MM", like "08:30"' }),
    {
      minItems: 2,
      maxItems: 2,
      expected: 'two different Chicago times ["HH:MM", "HH:MM"], such as ["08:30", "11:00"]',
      description:
        'Signals only at checks from the first Chicago time (inclusive) to the second (exclusive), like ["08:30", "11:00"]; a window may wrap midnight. Off unless given.',
    },
  ),
};

/** Every parameter is optional: an absent one takes its default. */
function Params(properties: Record<string, TSchema>, strategy: SyntheticStrategy) {
  const optional = Object.fromEntries(Object.entries(properties).map(([key, schema]) => [key, Type.Optional(schema)]));
  return Type.Object(optional, {
    additionalProperties: false,
    description: `The parameters of ${strategy} (docs/backtesting.md#synthetic-traders).`,
  });
}

export const STRATEGY_PARAMS: Record<SyntheticStrategy, TSchema & { properties: Record<string, TSchema> }> = {
  random_bracket: Params(BRACKET_PARAMS, 'random_bracket'),
  momentum_breakout: Params(
    { ...BRACKET_PARAMS, lookback_minutes: Count(30, 'Base look-back for the breakout; each trader draws its own.') },
    'momentum_breakout',
  ),
  mean_reversion: Params(
    {
      ...BRACKET_PARAMS,
      lookback_minutes: Count(60, 'Base look-back for the mean; each trader draws its own.'),
      threshold_ticks: Count(20, 'Base distance from the mean that is faded; each trader draws its own.'),
    },
    'mean_reversion',
  ),
};

/** The keys a strategy's params may have. */
export function paramKeys(strategy: SyntheticStrategy): string[] {
  return Object.keys(STRATEGY_PARAMS[strategy].properties);
}

/**
 * For editors: a synthetic block's params checked against its strategy's (JSON Schema if/then). At run time
 * readStrategyParams checks them against the same schemas, with messages that name the parameter and the strategy.
 */
export function paramsByStrategy(): TSchema[] {
  return Object.entries(STRATEGY_PARAMS).map(([strategy, params]) =>
    Type.Unsafe({
      if: { type: 'object', properties: { strategy: { const: strategy } }, required: ['strategy'] },
      then: { type: 'object', properties: { params } },
    }),
  );
}
