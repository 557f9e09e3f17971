// A plan template as written in a file (docs/risk-rules.md#plan-templates): the one declaration of its keys, types
// and ranges, shared by scenario `plans`, back-test configs, the sandbox seed and plan files. plans.ts checks a
// decoded template against it, then converts it and checks what involves two fields.
import { Type, type Static } from 'typebox';
import { PRODUCT_FAMILIES } from '../instruments.js';
import { DecimalText, Int, Mapping, Money, OneOf } from '../validation/file-fields.js';
import { PositionLimitsFile, PositionLimitsOverlay, Scaling, ScalingOverlay } from './limits-schema.js';
import {
  FlatBy,
  FlatByAction,
  FlatByActionOverlay,
  FlatByOverlay,
  HoldOverWeekend,
  HoldOverWeekendOverlay,
  NewsFileSchema,
  NewsOverlay,
} from './timed-rules-schema.js';

export const MAX_DRAWDOWN_MODES = ['static', 'realtime_balance', 'realtime_equity', 'eod_balance'] as const;
export const DAILY_LOSS_ACTIONS = ['lock', 'fail'] as const;
export type DailyLossAction = (typeof DAILY_LOSS_ACTIONS)[number];
export const TRADING_SESSION_NAMES = ['cme_globex'] as const;
export type MaxDrawdownMode = (typeof MAX_DRAWDOWN_MODES)[number];

/** 0 < x ≤ 100 with at most four places: the form is checked first, this only bounds it. */
const AT_MOST_100 = '^(100(\\.0+)?|[0-9]{1,2}(\\.[0-9]+)?)$';

export const DrawdownMode = OneOf(
  MAX_DRAWDOWN_MODES,
  'How the max-loss floor moves: static (never), realtime_balance or realtime_equity (trails the highest ' +
    'balance or equity as it happens), eod_balance (trails the highest balance at each session close).',
);

export const Currency = Type.String({
  pattern: '^[A-Z]{3}$',
  expected: 'a three-letter currency code like "USD"',
  description: 'ISO 4217 code, three capital letters; default USD.',
});

export const MinTradingDays = Int({ minimum: 0 }, 'Trade dates with a fill needed to pass; absent: no minimum.');

export const TimeLimitDays = Int(
  { minimum: 1 },
  'Trade dates (sessions) the evaluation may last, the one it opened in counting as 1; an account not passed at the ' +
    'roll that closes the last fails (time_limit). Absent: no limit.',
);

export const DailyLossAction = OneOf(
  DAILY_LOSS_ACTIONS,
  'What a daily-loss breach does: lock (default: locked until the next session roll) or fail (the evaluation fails, ' +
    'daily_loss_failure); fail needs daily_loss_value.',
);

/** A percentage 0 < x ≤ 100 with at most four places, kept as written. */
export function Percentage(description: string) {
  return DecimalText({
    places: 4,
    sign: 'positive',
    example: '50000.0000',
    limits: [{ pattern: AT_MOST_100, expected: 'a percentage greater than 0 and at most 100' }],
    description,
  });
}

export const ConsistencyPct = Percentage(
  "The best day's profit may be at most this percentage of the total profit (0 < x ≤ 100).",
);

export const RiskProfileFile = Mapping(
  {
    max_drawdown_mode: DrawdownMode,
    max_drawdown_value: Money('positive', 'The max-loss allowance, below starting_balance, like "2000.00".'),
    max_drawdown_limit: Type.Optional(
      Money('non_negative', 'The trailing cap as an offset from starting_balance; the static mode ignores it.'),
    ),
    daily_loss_value: Type.Optional(
      Money('positive', 'The daily-loss allowance; without it the account has no daily-loss floor.'),
    ),
    scaling: Type.Optional(Scaling),
    daily_loss_action: Type.Optional(DailyLossAction),
    flat_by: Type.Optional(FlatBy),
    flat_by_action: Type.Optional(FlatByAction),
    hold_over_weekend: Type.Optional(HoldOverWeekend),
    news: Type.Optional(NewsFileSchema),
  },
  {
    expected: 'a mapping with max_drawdown_mode and max_drawdown_value',
    description: 'The max-loss and daily-loss rules, the contract scaling plan and the rules of the clock.',
  },
);

export const PassingCriteriaFile = Mapping(
  {
    profit_target: Money('positive', 'Profit over the starting balance that passes the evaluation.'),
    min_trading_days: Type.Optional(MinTradingDays),
    consistency_pct: Type.Optional(ConsistencyPct),
    time_limit_days: Type.Optional(TimeLimitDays),
  },
  { expected: 'a mapping with profit_target', description: 'What passes the evaluation.' },
);

/** A plan template as written (decimal strings). */
export const PlanTemplateFile = Mapping(
  {
    starting_balance: Money('positive', 'The account\'s starting balance, like "50000.00".'),
    currency: Type.Optional(Currency),
    risk_profile: RiskProfileFile,
    passing_criteria: PassingCriteriaFile,
    position_limits: Type.Optional(PositionLimitsFile),
    commission_per_contract: Type.Optional(Money('non_negative', 'Charged per contract per side; default "0".')),
    enabled_families: Type.Optional(
      Type.Array(OneOf(PRODUCT_FAMILIES), {
        minItems: 1,
        uniqueItems: true,
        uniqueExpected: 'a product family not already listed',
        description: 'Product families the account may trade; default all.',
      }),
    ),
    trading_sessions: Type.Optional(
      Type.Array(OneOf(TRADING_SESSION_NAMES), { minItems: 1, description: 'Default [cme_globex].' }),
    ),
  },
  {
    title: 'propsim plan template',
    expected: 'a plan mapping with starting_balance, risk_profile and passing_criteria',
    description: 'An evaluation plan (docs/risk-rules.md#plan-templates).',
  },
);

export type PlanTemplateText = Static<typeof PlanTemplateFile>;

/** `null` removes an optional field of the plan in an overlay. */
function Removable<
  T extends ReturnType<typeof Money> | typeof MinTradingDays | typeof ConsistencyPct | typeof DailyLossAction,
>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/**
 * The overlay keys an account may carry over its plan (docs/risk-rules.md#provisioning): partial risk profile, passing
 * criteria and position limits, where null removes an optional field, and the price paid.
 */
export const OverlayProperties = {
  initial_balance: Type.Optional(Money('positive', "The account's own starting balance, over the plan's.")),
  currency: Type.Optional(Currency),
  risk_profile: Type.Optional(
    Mapping(
      {
        max_drawdown_mode: Type.Optional(DrawdownMode),
        max_drawdown_value: Type.Optional(Money('positive')),
        max_drawdown_limit: Type.Optional(Removable(Money('non_negative'))),
        daily_loss_value: Type.Optional(Removable(Money('positive'))),
        daily_loss_action: Type.Optional(Removable(DailyLossAction)),
        scaling: Type.Optional(ScalingOverlay),
        flat_by: Type.Optional(FlatByOverlay),
        flat_by_action: Type.Optional(FlatByActionOverlay),
        hold_over_weekend: Type.Optional(HoldOverWeekendOverlay),
        news: Type.Optional(NewsOverlay),
      },
      {
        expected:
          'a mapping with some of max_drawdown_mode, max_drawdown_value, max_drawdown_limit, daily_loss_value, ' +
          'daily_loss_action, scaling, flat_by, flat_by_action, hold_over_weekend, news',
      },
    ),
  ),
  passing_criteria: Type.Optional(
    Mapping(
      {
        profit_target: Type.Optional(Money('positive')),
        min_trading_days: Type.Optional(Removable(MinTradingDays)),
        consistency_pct: Type.Optional(Removable(ConsistencyPct)),
        time_limit_days: Type.Optional(Removable(TimeLimitDays)),
      },
      { expected: 'a mapping with some of profit_target, min_trading_days, consistency_pct, time_limit_days' },
    ),
  ),
  position_limits: Type.Optional(PositionLimitsOverlay),
  price_paid: Type.Optional(Money('non_negative', 'What the trader paid for the account, like "165.00".')),
};

export type OverlayText = Static<ReturnType<typeof Type.Object<typeof OverlayProperties>>>;
