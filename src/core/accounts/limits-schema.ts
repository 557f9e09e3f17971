// A plan's contract limits as written in files (docs/risk-rules.md#position-limits): the scaling plan's tiers
// (risk_profile.scaling) and position_limits (max_contracts, max_contracts_per_root, micro_ratio). Declared once here
// for plan templates and their provisioning overlays (plan-schema.ts); position-limits.ts reads what a schema cannot
// say (tiers in ascending order).
import { Type, type TSchema } from 'typebox';
import { allInstruments } from '../instruments.js';
import { Int, Mapping, Money } from '../validation/file-fields.js';

export const MaxContracts = Int({ minimum: 1 }, 'Most contracts open at once, across instruments.');

export const ScalingTier = Mapping(
  {
    from_profit: Money(
      'any',
      'The trading profit at the last session roll from which the tier holds, like "1500.00"; may be below zero.',
    ),
    max_contracts: Int({ minimum: 1 }, 'Most contracts open at once while the tier holds.'),
  },
  { expected: 'a tier: a mapping with from_profit and max_contracts' },
);

export const Scaling = Type.Array(ScalingTier, {
  minItems: 1,
  expected: 'a list of tiers like [{ from_profit: "0", max_contracts: 3 }]',
  description:
    'The scaling plan (docs/risk-rules.md#scaling-plan): tiers in ascending from_profit, the first at or below "0"; ' +
    "the tier of the trading profit at the last session roll caps the account's contracts until the next roll.",
});

/** One optional key per root of the catalog, so an unknown root is refused by name with the roots that exist. */
export const MaxContractsPerRoot = Mapping(
  Object.fromEntries(allInstruments().map((spec) => [spec.root, Type.Optional(Int({ minimum: 1 }))])),
  {
    expected: 'a mapping of instrument roots to contract limits, like { ES: 5, NQ: 2 }',
    description:
      "Most contracts of one root open at once, all its contract months together; with micro_ratio, a mini's limit " +
      'counts its micros too (docs/risk-rules.md#micros).',
  },
);

export const MicroRatio = Int(
  { minimum: 1, maximum: 1000 },
  "Micros that count as one mini toward max_contracts, the scaling plan and the mini's per-root limit; absent " +
    '(or 1): a micro counts as a whole contract.',
);

export const PositionLimitsFile = Mapping(
  {
    max_contracts: Type.Optional(MaxContracts),
    max_contracts_per_root: Type.Optional(MaxContractsPerRoot),
    micro_ratio: Type.Optional(MicroRatio),
  },
  { expected: 'a mapping with some of max_contracts, max_contracts_per_root, micro_ratio' },
);

/** `null` removes the field in an overlay. */
function OrNull<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** risk_profile.scaling in an overlay: replaces the plan's tiers as a whole, or null removes them. */
export const ScalingOverlay = OrNull(Scaling);

/** position_limits in an overlay: each field replaces the plan's (a per-root mapping as a whole), null removes it. */
export const PositionLimitsOverlay = Mapping(
  {
    max_contracts: Type.Optional(OrNull(MaxContracts)),
    max_contracts_per_root: Type.Optional(OrNull(MaxContractsPerRoot)),
    micro_ratio: Type.Optional(OrNull(MicroRatio)),
  },
  { expected: 'a mapping with some of max_contracts, max_contracts_per_root, micro_ratio' },
);
