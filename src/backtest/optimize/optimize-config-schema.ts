// The optimize config (docs/optimizing.md#the-config): a back-test config without `grid` and `compare_to`, plus
// `search` (the plan fields to search, as lists or ranges), `objective` (what to maximize or minimize, under which
// constraints), `start_traders` and `confirmation` (another period to confirm the chosen plan on). Published as schemas/optimize-config.json (`npm run schemas`).
import { Type } from 'typebox';
import { DecimalText, Int, Mapping, OneOf } from '../../core/validation/file-fields.js';
import { BacktestConfigFile } from '../config/backtest-config-schema.js';
import { METRICS } from '../stats/decisions.js';

/** A range's bound or step: a decimal string (values come out as strings) or an integer (values are integers). */
const RangeNumber = (description: string) =>
  Type.Union([DecimalText({ places: 4, example: '1500.00' }), Type.Integer()], {
    expected: 'a decimal string like "1500.00" or an integer',
    description,
  });

const SearchRange = Mapping(
  {
    from: RangeNumber('The first value.'),
    to: RangeNumber('The last value, included when a whole number of steps from `from`.'),
    step: RangeNumber('The distance between values, greater than 0.'),
  },
  {
    expected: '{ from, to, step }',
    description: 'from, from + step, … up to to, expanded exactly (decimal strings stay decimal strings).',
  },
);

const SEARCH_KEY = '^[a-z_]+(\\.[a-z_]+)*$';

const Search = Type.Unsafe<Record<string, unknown[] | { from: unknown; to: unknown; step: unknown }>>({
  type: 'object',
  minProperties: 1,
  propertyNames: { pattern: SEARCH_KEY, expected: 'a dotted plan field such as risk_profile.max_drawdown_value' },
  additionalProperties: Type.Union(
    [
      Type.Array(Type.Unknown(), {
        minItems: 1,
        expected: 'a non-empty list of values',
        description: 'The values this plan field takes; null removes the field.',
      }),
      SearchRange,
    ],
    { expected: 'a non-empty list of values or a range { from, to, step }' },
  ),
  expected: 'a mapping of dotted plan fields to lists of values or ranges { from, to, step }',
  description: 'Plan fields to search, by dotted path: every combination is a candidate plan.',
});

/** A constraint's bound: a rate as a fraction ("0.06"), the net per trader in dollars ("25.00"). */
const Bound = (description: string) => Type.Optional(DecimalText({ places: 4, example: '0.06', description }));

const Constraint = Mapping(
  {
    min: Bound('The least value the plan may have.'),
    max: Bound('The most value the plan may have.'),
  },
  { expected: '{ min?, max? }', description: 'Bounds a metric must meet with 95 % confidence.' },
);

const Objective = Mapping(
  {
    maximize: Type.Optional(OneOf(METRICS, 'The metric to make as large as possible.')),
    minimize: Type.Optional(OneOf(METRICS, 'The metric to make as small as possible.')),
    constraints: Type.Optional(
      Mapping(
        {
          pass_rate: Type.Optional(Constraint),
          fail_rate: Type.Optional(Constraint),
          net_per_trader: Type.Optional(Constraint),
        },
        { expected: 'a mapping of metrics (pass_rate, fail_rate, net_per_trader) to { min?, max? }' },
      ),
    ),
  },
  {
    expected: '{ maximize | minimize, constraints? }',
    description: 'What the search is for: one metric to maximize or minimize, and bounds on the metrics.',
  },
);

const { grid: _grid, compare_to: _compareTo, ...backtestFields } = BacktestConfigFile.properties;

export const OptimizeConfigFile = Mapping(
  {
    ...backtestFields,
    search: Search,
    objective: Objective,
    start_traders: Type.Optional(
      Int(
        { minimum: 1 },
        "Synthetic traders of the first stage (default: the config's count halved once per later stage, raised to what the rate constraints need to drop a candidate, at most the config's count).",
      ),
    ),
    confirmation: Type.Optional(
      Mapping(
        { period: backtestFields.period },
        {
          expected: '{ period: { from, to } }',
          description:
            "Where the chosen plan is confirmed: a period that does not overlap the search's (default: the search's period).",
        },
      ),
    ),
  },
  {
    title: 'propsim optimize config',
    expected: 'a mapping: name, market, period, traders, base_plan, search, objective',
    description: 'A search of plan fields for the firm’s goal (docs/optimizing.md#the-config).',
  },
);
