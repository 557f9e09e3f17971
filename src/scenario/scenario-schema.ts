// The scenario file (docs/scenarios.md) as a TypeBox schema: the one declaration of its keys, types and ranges,
// published as schemas/scenario.json for editors (scripts/file-schemas.ts). The readers (parse-scenario.ts and the
// step readers) check a file against it first, then check what a schema cannot say: plans and aliases that exist,
// refs placed by earlier steps, a clock that never moves back, symbols the catalog knows.
import { Type, type TSchema } from 'typebox';
import { OverlayProperties, PlanTemplateFile } from '../core/accounts/plan-schema.js';
import { Flag, Int, Mapping, OneOf, Text } from '../core/validation/file-fields.js';
import { StepFile, Time } from './step-schemas.js';

export const LIMIT_FILLS = ['touch', 'through'] as const;

/** One market file of a `market:` section. */
export const MarketFile = Mapping(
  {
    path: Text({
      expected: 'a file path',
      description: "A CSV of ticks or bars (.csv or .csv.gz), relative to this file's folder.",
    }),
    format: OneOf(
      ['ticks', 'bars', 'databento'] as const,
      'ticks: ts,instrument,price[,size]; bars: OHLC bars; databento: a Databento trades or ohlcv download.',
    ),
    instrument: Type.Optional(
      Text({ expected: 'a GLOBEX symbol like ESM6', description: 'The symbol of every row, like ESM6 or 6EH4.' }),
    ),
    bar_ms: Type.Optional(Int({ minimum: 1 }, 'The length of one bar in milliseconds (bars files only).')),
    sort: Type.Optional(Flag('Sort the rows by time first (for files written out of order).')),
  },
  { expected: 'a mapping with path and format' },
);

/** `market:` of a scenario, a back-test config and `serve --market` lists. */
export const MarketSection = Mapping(
  { files: Type.Array(MarketFile, { expected: 'a list of market files' }) },
  { expected: 'a mapping with files', description: 'The market data files, merged by time.' },
);

/** `fill_model:`; cancel_latency_ms and modify_latency_ms default to latency_ms. */
export const FillModelSection = Mapping(
  {
    latency_ms: Type.Optional(Int({ minimum: 0 }, 'Milliseconds from an order to its arrival at the venue.')),
    cancel_latency_ms: Type.Optional(Int({ minimum: 0 }, 'Milliseconds a cancel travels; default latency_ms.')),
    modify_latency_ms: Type.Optional(Int({ minimum: 0 }, 'Milliseconds a modify travels; default latency_ms.')),
    slippage_ticks: Type.Optional(Int({ minimum: 0 }, 'Ticks a market or stop order fills worse than the print.')),
    limit_fill: Type.Optional(
      OneOf(LIMIT_FILLS, 'touch: a limit fills when a print touches its price; through: only when one passes it.'),
    ),
  },
  {
    expected: 'a mapping with some of latency_ms, cancel_latency_ms, modify_latency_ms, slippage_ticks, limit_fill',
    description: 'How orders fill (docs/order-lifecycle.md).',
  },
);

const AccountName = (what: string) =>
  Type.String({ pattern: '^\\S(.*\\S)?$', expected: `${what}: a non-empty string without surrounding spaces` });

/** `accounts:` items: an alias, a plan and the plan overlays (docs/scenarios.md#accounts-and-overlays). */
const ScenarioAccount = Mapping(
  {
    alias: AccountName('an account alias'),
    plan: AccountName('a plan name'),
    ...OverlayProperties,
  },
  { expected: 'a mapping with alias, plan and optional overlays' },
);

/** The scenario file, with `steps` items as given: StepFile to publish, anything to read (parse-steps.ts reads them). */
function scenarioFile<S extends TSchema>(step: S) {
  return Mapping(
    {
      name: Text({ description: "The scenario's name, in its outputs." }),
      description: Type.Optional(Text({ description: 'What the scenario shows, for people.' })),
      start: Time,
      seed: Type.Optional(Int({ minimum: 0 }, 'Seed of the ids and every random draw; default 1.')),
      fill_model: Type.Optional(FillModelSection),
      risk_load_delay_ms: Type.Optional(Int({ minimum: 0 }, "Milliseconds a new account's risk engine loads.")),
      expect_events_sha256: Type.Optional(
        Type.String({
          pattern: '^[0-9a-f]{64}$',
          expected: 'a sha256 as propsim replay prints it (64 lowercase hex digits)',
          description: 'The sha256 of events.jsonl the run must write.',
        }),
      ),
      plans: Type.Optional(
        Type.Record(Type.String(), PlanTemplateFile, {
          expected: 'a mapping of plan name to plan template',
          description: 'Plans of this scenario, by name.',
        }),
      ),
      accounts: Type.Optional(Type.Array(ScenarioAccount, { expected: 'a list of accounts' })),
      market: Type.Optional(MarketSection),
      steps: Type.Array(step, { expected: 'a list of steps', description: 'What happens, in order.' }),
    },
    {
      title: 'propsim scenario',
      expected: 'a mapping with name, start and steps',
      description: 'A scenario run by propsim replay (docs/scenarios.md).',
    },
  );
}

/** The scenario file as published (schemas/scenario.json). */
export const ScenarioFile = scenarioFile(StepFile);
/** The scenario file as checked before its steps are read one by one. */
export const ScenarioTopLevel = scenarioFile(Type.Unknown());
