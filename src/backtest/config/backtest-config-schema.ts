// The back-test config (docs/backtesting.md#the-config-file) as a TypeBox schema: the one declaration of its keys,
// types and ranges, published as schemas/backtest-config.json for editors (scripts/file-schemas.ts).
// backtest-config.ts checks a config against it first, then what a schema cannot say: files that exist, a base
// plan that is found, a period with trade dates, every grid cell's plan, strategy parameters.
import { Type, type Static, type TSchema } from 'typebox';
import { Percentage, PlanTemplateFile } from '../../core/accounts/plan-schema.js';
import { DecimalText, Int, Mapping, Money, OneOf, Text } from '../../core/validation/file-fields.js';
import { MarketFile } from '../../scenario/scenario-schema.js';
import { SYNTHETIC_STRATEGIES } from '../traders/strategy.js';
import { paramsByStrategy } from '../traders/strategy-params-schema.js';
import { PAYOUT_REQUESTS } from '../funnel/payout-cadence.js';
import { DATE_ORDERS } from '../../import/export-time.js';
import { FILL_FORMAT_NAMES } from '../../import/import-fills.js';
import { allInstruments } from '../../core/instruments.js';

/** The most traders one traders.synthetic block may hold (the config's count, or its share of --traders). */
export const MAX_BLOCK_TRADERS = 100_000;

/** A share from 0 to 1 with at most four places. */
function Share(description: string) {
  return DecimalText({
    places: 4,
    sign: 'non_negative',
    example: '0.8000',
    limits: [{ pattern: '^(1(\\.0+)?|0(\\.[0-9]+)?)$', expected: 'a share between "0" and "1"' }],
    description,
  });
}

const TradeDate = Type.String({ format: 'date', expected: 'a trade date YYYY-MM-DD' });

const ROOTS = allInstruments().map((spec) => spec.root);

/** The roots a block trades, by weight (docs/backtesting.md#several-instruments-and-contract-rolls). */
const Instruments = Type.Union(
  [
    Type.Array(OneOf(ROOTS, 'A product root; the roll rule picks its contract per trade date.'), {
      minItems: 1,
      uniqueItems: true,
      expected: 'a list of product roots like [ES, NQ]',
    }),
    Type.Record(Type.String(), Int({ minimum: 1 }, "The root's weight: its share of the draws at a check."), {
      minProperties: 1,
      expected: 'a mapping of product roots to weights like { ES: 3, NQ: 1 }',
    }),
  ],
  {
    expected: 'a list of product roots ([ES, NQ]) or a mapping of roots to whole weights ({ ES: 3, NQ: 1 })',
    description:
      "The product roots the block's traders trade, each rolled to its next contract by its product group's rule " +
      "(docs/market-data.md#contract-rolls); absent: the first market file's instrument, one contract.",
  },
);

export const SyntheticBlock = Mapping(
  {
    count: Int({ minimum: 1, maximum: MAX_BLOCK_TRADERS }, 'Traders in this block (--traders N shares N out).'),
    strategy: OneOf(SYNTHETIC_STRATEGIES, 'The strategy every trader of the block follows.'),
    instruments: Type.Optional(Instruments),
    params: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        expected: 'a mapping of strategy parameters',
        description: "The strategy's parameters (docs/backtesting.md#synthetic-traders).",
      }),
    ),
  },
  {
    expected: '{ count, strategy, instruments?, params }',
    description: 'A block of synthetic traders of one strategy.',
  },
);

/** The block as editors read it: with its strategy's params described (strategy-params-schema.ts). */
const SyntheticBlockForEditors = Type.Unsafe<Static<typeof SyntheticBlock>>({
  ...SyntheticBlock,
  allOf: paramsByStrategy(),
});

const Traders = (block: TSchema) =>
  Type.Object(
    {
      fills: Type.Optional(
        Mapping(
          {
            path: Text({
              expected: 'a CSV file path',
              description: "Recorded executions (CSV), relative to the config's folder.",
            }),
            format: Type.Optional(
              OneOf(
                FILL_FORMAT_NAMES,
                "A broker export read as it is (docs/backtesting.md#importing-broker-exports); absent: propsim's fills CSV.",
              ),
            ),
            tz: Type.Optional(
              Text({
                expected: 'an IANA time zone such as America/Chicago',
                description: 'The zone of export times written without an offset (NinjaTrader, Tradovate Timestamp).',
              }),
            ),
            date_order: Type.Optional(
              OneOf(
                DATE_ORDERS,
                "The order of month and day in the export's slash dates: mdy (1/2/2024 is January 2) or dmy (1 February); needed when no date has a day above 12, and for day/month exports.",
              ),
            ),
            records: Type.Optional(
              Text({
                expected: 'a CSV file path',
                description:
                  "The firm's records of these traders' evaluations, trader,outcome,date[,resets][,payouts_amount], relative to the config's folder: the reference cell is validated against them (docs/backtesting.md#validation-against-the-firms-records).",
              }),
            ),
          },
          { expected: '{ path, format?, tz?, date_order?, records? }' },
        ),
      ),
      kinds: Type.Optional(
        Mapping(
          {
            path: Text({
              expected: 'a kinds file path',
              description: "Kinds of synthetic traders written by propsim calibrate, relative to the config's folder.",
            }),
            count: Type.Optional(
              Int(
                { minimum: 1 },
                "Traders in all, shared out among the kinds in proportion to the file's counts; default: the file's counts.",
              ),
            ),
          },
          {
            expected: '{ path, count? }',
            description:
              'Synthetic traders calibrated on real ones (docs/backtesting.md#calibrating-synthetic-traders).',
          },
        ),
      ),
      synthetic: Type.Optional(
        Type.Union([block, Type.Array(block, { minItems: 1 })], {
          expected: 'a block { count, strategy, instruments?, params } or a list of them',
        }),
      ),
    },
    {
      additionalProperties: false,
      minProperties: 1,
      expected: 'a mapping with fills, synthetic, kinds or several of them',
      description: 'Who trades: recorded fills, synthetic traders, calibrated kinds of them, or several.',
    },
  );

const Evaluation = Mapping(
  {
    fee: Money('non_negative', 'The evaluation fee a trader pays, like "165.00".'),
    billing: Type.Optional(
      OneOf(
        ['one_time', 'monthly'] as const,
        'one_time: the fee once; monthly: again every 30 calendar days in evaluation. Default one_time.',
      ),
    ),
    reset: Type.Optional(
      Mapping(
        {
          fee: Money('non_negative', 'What a reset costs.'),
          rate: Share('The probability (seeded per trader) that a trader resets after a failure, by any rule.'),
          max: Int({ minimum: 0 }, 'The most resets one trader buys.'),
        },
        {
          expected: 'a mapping with fee, rate and max',
          description:
            'After a failure (by any rule) a trader resets with this probability: a fresh evaluation account on the ' +
            'same plan at the next session open.',
        },
      ),
    ),
  },
  { expected: 'a mapping with fee, billing and reset', description: 'What the evaluation stage earns the firm.' },
);

const PayoutSplit = Mapping(
  {
    up_to: Type.Optional(Money('positive', 'Cumulative withdrawals up to which this share applies; absent: the rest.')),
    trader: Share("The trader's share of each withdrawal in this band."),
  },
  { expected: 'a mapping with trader and optional up_to' },
);

const Payout = Mapping(
  {
    min_days: Type.Optional(Int({ minimum: 0 }, 'Trade dates with a fill since the funded start or the last payout.')),
    winning_day: Type.Optional(Money('non_negative', 'A day whose net P&L is at least this counts as a winning day.')),
    min_winning_days: Type.Optional(Int({ minimum: 0 }, 'Winning days needed since the last payout.')),
    buffer: Type.Optional(
      Money('non_negative', 'After a withdrawal the balance stays at least the starting balance plus this.'),
    ),
    max_fraction: Type.Optional(Share('The most of (balance − starting balance) one payout takes.')),
    cap: Type.Optional(Money('positive', 'The most one payout takes.')),
    consistency_pct: Type.Optional(
      Percentage('The largest winning day since the last payout is at most this % of the profit since it.'),
    ),
    split: Type.Array(PayoutSplit, {
      minItems: 1,
      expected: 'a list of tiers',
      description: "The trader's share by cumulative withdrawals, tier by tier; the last tier has no up_to.",
    }),
    min_amount: Type.Optional(
      Money('positive', 'A payout smaller than this is not taken: the trader waits until it can take this much.'),
    ),
    every_days: Type.Optional(
      Int(
        { minimum: 1 },
        'At most one payout per so many trade dates, counted from the funded start or the last payout.',
      ),
    ),
    request: Type.Optional(
      OneOf(
        PAYOUT_REQUESTS,
        'When an eligible trader asks: auto (at every session open, the default), weekly (the first trade date of ' +
          'each week), monthly (the first trade date of each month).',
      ),
    ),
    max_count: Type.Optional(
      Int(
        { minimum: 1 },
        'After this many payouts the trader moves to a live account: the back-test follows it no further.',
      ),
    ),
  },
  {
    expected:
      'a mapping with some of min_days, winning_day, min_winning_days, buffer, max_fraction, cap, consistency_pct, ' +
      'split, min_amount, every_days, request, max_count',
    description:
      'A payout is taken at the first session roll where every condition holds, for the largest amount allowed ' +
      '(docs/backtesting.md#payout-cadence for min_amount, every_days, request and max_count).',
  },
);

const Funded = Mapping(
  {
    plan: Text({
      expected: 'the name of a plan, as base_plan',
      description:
        'The funded account\'s plan by name (as base_plan); the grid varies it only by axes "funded.<path>".',
    }),
    activation_fee: Type.Optional(
      Money('non_negative', 'Charged at the pass; the funded account opens at the next session.'),
    ),
    payout: Payout,
  },
  { expected: 'a mapping with plan, activation_fee and payout', description: 'The funded stage after a pass.' },
);

const Economics = Mapping(
  {
    price_paid: Type.Optional(Money('non_negative', 'What each trader paid for the evaluation, like "100.00".')),
    payout_share: Type.Optional(Share("The firm's payout as a share of a passer's evaluation profit.")),
    evaluation: Type.Optional(Evaluation),
    funded: Type.Optional(Funded),
  },
  {
    expected: 'a mapping with some of price_paid, payout_share, evaluation, funded',
    description: "The firm's money per trader (docs/backtesting.md#the-config-file).",
  },
);

const FillModel = Mapping(
  {
    latency_ms: Type.Optional(Int({ minimum: 0 }, 'Milliseconds an order, cancel or modify travels.')),
    slippage_ticks: Type.Optional(Int({ minimum: 0 }, 'Ticks a market or stop order fills worse than the print.')),
    limit_fill: Type.Optional(
      OneOf(
        ['touch', 'through'] as const,
        'touch: a limit fills when a print touches it; through: when one passes it.',
      ),
    ),
  },
  { expected: '{ latency_ms, slippage_ticks, limit_fill }', description: 'How orders fill.' },
);

/** The most sessions one resampled block may hold: a block longer than a few weeks is no longer a resample. */
export const MAX_BLOCK_SESSIONS = 250;

/** `market:` of a back-test: the files, and optionally a synthetic tape resampled from them for a longer period. */
const BacktestMarket = Mapping(
  {
    files: Type.Array(MarketFile, { expected: 'a list of market files' }),
    resample: Type.Optional(
      Mapping(
        {
          block_sessions: Int(
            { minimum: 1, maximum: MAX_BLOCK_SESSIONS },
            'Whole real sessions per block, laid end to end in the order they traded; 5 keeps a week together.',
          ),
        },
        {
          expected: '{ block_sessions: N }',
          description:
            "Fill the period with whole real sessions of the files, drawn in blocks with the run's seed, each block's " +
            'prices shifted to open where the previous one closed (docs/backtesting.md#long-horizons-a-resampled-tape).',
        },
      ),
    ),
  },
  {
    expected: 'a mapping with files and optionally resample',
    description: 'The market data files, merged by time; resample makes a longer tape of them.',
  },
);

const GRID_KEY = '^[a-z_]+(\\.[a-z_]+)*$';

const Grid = Type.Unsafe<Record<string, unknown[]>>({
  type: 'object',
  propertyNames: { pattern: GRID_KEY, expected: 'a dotted plan field such as risk_profile.max_drawdown_value' },
  additionalProperties: Type.Array(Type.Unknown(), {
    minItems: 1,
    expected: 'a non-empty list of values',
    description: 'The values this plan field takes, one per column of the grid; null removes the field.',
  }),
  expected: 'a mapping of dotted plan fields to lists of values',
  description: 'Plan fields to vary, by dotted path: every combination is a cell.',
});

const ConfigFile = (traders: ReturnType<typeof Traders>) =>
  Mapping(
    {
      name: Text({ maxLength: 200, description: "The run's name, shown in its report." }),
      description: Type.Optional(Type.String({ description: 'What the run asks, for people.' })),
      seed: Type.Optional(Int({ minimum: 0 }, 'Seed of every random draw; default 1.')),
      market: BacktestMarket,
      period: Mapping(
        {
          from: TradeDate,
          to: TradeDate,
        },
        { expected: '{ from: YYYY-MM-DD, to: YYYY-MM-DD }', description: 'Trade dates, inclusive.' },
      ),
      traders,
      plans: Type.Optional(
        Type.Record(Type.String(), PlanTemplateFile, {
          expected: 'a mapping of plan names to plan templates',
          description: 'Plans of this config, by name.',
        }),
      ),
      base_plan: Text({
        expected: 'the name of the plan the grid varies',
        description: 'A plan of plans, else a plan file: plans/<name>.yaml beside the config, then the bundled ones.',
      }),
      grid: Type.Optional(Grid),
      compare_to: Type.Optional(
        Int({ minimum: 0 }, 'The grid cell (its index, from 0) every other cell is compared with; default 0.'),
      ),
      economics: Type.Optional(Economics),
      fill_model: Type.Optional(FillModel),
      sample_traders: Type.Optional(
        Int({ minimum: 0, maximum: 200 }, 'Traders whose equity the report draws; default 20.'),
      ),
    },
    {
      title: 'propsim back-test config',
      expected: 'a mapping: name, market, period, traders, plans or base_plan, grid, economics',
      description: 'A back-test of plan parameters (docs/backtesting.md#the-config-file).',
    },
  );

export const BacktestConfigFile = ConfigFile(Traders(SyntheticBlock));

/**
 * The same config with each strategy's params described, for editors (schemas/backtest-config.json); the run-time
 * check leaves params to the strategies' readers, whose messages name the parameter and the strategy.
 */
export const BacktestConfigFileForEditors = ConfigFile(Traders(SyntheticBlockForEditors));
