// The contract-limit fields of a plan (docs/risk-rules.md#plan-templates, docs/risk-rules.md#position-limits):
// risk_profile.scaling (tiers in ascending from_profit, the first at or below 0), position_limits.max_contracts_per_root
// (roots of the catalog) and micro_ratio (an integer from 1 to 1000); each refused naming its field; the provisioning
// overlays that replace or remove them; the journal's form read back unchanged.
import { describe, expect, it } from 'vitest';
import { FieldError } from '../../../src/core/validation/input-fields.js';
import { applyProvisioningOverlay, parseProvisioningOverlay } from '../../../src/core/accounts/plan-overlay.js';
import { parsePlanTemplate } from '../../../src/core/accounts/plans.js';
import { scalingTierOf } from '../../../src/core/accounts/position-limits.js';
import { planJson } from '../../../src/core/kernel/read/risk-json.js';

const TIERS = [
  { from_profit: '0', max_contracts: 3 },
  { from_profit: '1500', max_contracts: 5 },
];

function written(riskExtra: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    starting_balance: '50000',
    risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '2000', ...riskExtra },
    passing_criteria: { profit_target: '3000' },
    ...extra,
  };
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof FieldError) return error.message;
    throw error;
  }
  throw new Error('expected a FieldError');
}

const parse = (doc: unknown) => parsePlanTemplate(doc, 'plans.x');

describe('risk_profile.scaling: tiers in ascending from_profit, the first at or below 0', () => {
  it('reads the tiers in cents, negative ones too', () => {
    const plan = parse(written({ scaling: [{ from_profit: '-1000.50', max_contracts: 1 }, ...TIERS] }));
    expect(plan.riskProfile.scaling).toEqual([
      { fromProfitCents: -100_050, maxContracts: 1 },
      { fromProfitCents: 0, maxContracts: 3 },
      { fromProfitCents: 150_000, maxContracts: 5 },
    ]);
  });

  it.each([
    [
      'a first tier above 0',
      [{ from_profit: '500', max_contracts: 3 }],
      'plans.x.risk_profile.scaling[0].from_profit: expected the first tier at or below "0", so that a new account\'s profit of 0.00 has a tier, got "500.00"',
    ],
    [
      'a tier not above the one before',
      [...TIERS, { from_profit: '1500.00', max_contracts: 6 }],
      'plans.x.risk_profile.scaling[2].from_profit: expected a from_profit above the tier before\'s "1500.00" (tiers in ascending order), got "1500.00"',
    ],
    [
      'no tier',
      [],
      'plans.x.risk_profile.scaling: expected a non-empty list, each a tier: a mapping with from_profit and max_contracts, got an empty list',
    ],
    [
      'a number for money',
      [{ from_profit: 0, max_contracts: 3 }],
      'plans.x.risk_profile.scaling[0].from_profit: expected a decimal string with at most 2 decimal places, like "50000.00", got the number 0 (quote it: "0")',
    ],
    [
      'max_contracts 0',
      [{ from_profit: '0', max_contracts: 0 }],
      'plans.x.risk_profile.scaling[0].max_contracts: expected an integer of at least 1, got the number 0',
    ],
    [
      'a tier without max_contracts',
      [{ from_profit: '0' }],
      'plans.x.risk_profile.scaling[0].max_contracts: expected an integer of at least 1 (required), got nothing',
    ],
  ])('%s is refused naming the field', (_what, scaling, message) => {
    expect(errorOf(() => parse(written({ scaling })))).toBe(message);
  });

  it('the tier of a profit: the last it reaches; below them all, the first', () => {
    const plan = parse(written({ scaling: TIERS }));
    const tiers = plan.riskProfile.scaling!;
    // 1,499.99 < 1,500: still the tier from 0; 1,500.00 reaches the second; −0.01 is below the first.
    expect(scalingTierOf(tiers, 149_999)).toEqual({ tier: tiers[0], below: false });
    expect(scalingTierOf(tiers, 150_000)).toEqual({ tier: tiers[1], below: false });
    expect(scalingTierOf(tiers, -1)).toEqual({ tier: tiers[0], below: true });
  });
});

describe('position_limits.max_contracts_per_root: roots from the catalog; micro_ratio: an integer from 1 to 1000', () => {
  it('reads a per-root mapping and a ratio', () => {
    const plan = parse(
      written({}, { position_limits: { max_contracts: 5, max_contracts_per_root: { ES: 5, NQ: 2 }, micro_ratio: 10 } }),
    );
    expect(plan.positionLimits).toEqual({ maxContracts: 5, maxContractsPerRoot: { ES: 5, NQ: 2 }, microRatio: 10 });
  });

  it('an unknown root is refused by name, with the roots that exist', () => {
    const message = errorOf(() =>
      parse(written({}, { position_limits: { max_contracts_per_root: { ES: 2, XY: 1 } } })),
    );
    expect(message).toMatch(
      /^plans\.x\.position_limits\.max_contracts_per_root\.XY: unknown key; expected one of ES, MES, NQ, MNQ, .*, 6E, M6E, /,
    );
  });

  it.each([
    [
      { max_contracts_per_root: { ES: 0 } },
      'position_limits.max_contracts_per_root.ES: expected an integer of at least 1, got the number 0',
    ],
    [{ micro_ratio: 0 }, 'position_limits.micro_ratio: expected an integer from 1 to 1000, got the number 0'],
    [{ micro_ratio: 2.5 }, 'position_limits.micro_ratio: expected an integer from 1 to 1000, got the number 2.5'],
  ])('%j is refused naming the field', (limits, message) => {
    expect(errorOf(() => parse(written({}, { position_limits: limits })))).toBe(`plans.x.${message}`);
  });
});

describe('the journal writes the fields as a plan takes them (planJson), and reads them back the same', () => {
  it('scaling, per-root limits and micro_ratio survive a round trip', () => {
    const plan = parse(
      written(
        { scaling: [{ from_profit: '-500', max_contracts: 1 }, ...TIERS] },
        { position_limits: { max_contracts_per_root: { MES: 20, '6E': 1 }, micro_ratio: 10 } },
      ),
    );
    const json = planJson(plan);
    expect(json.risk_profile).toMatchObject({
      scaling: [
        { from_profit: '-500.00', max_contracts: 1 },
        { from_profit: '0.00', max_contracts: 3 },
        { from_profit: '1500.00', max_contracts: 5 },
      ],
    });
    expect(json.position_limits).toEqual({ max_contracts_per_root: { MES: 20, '6E': 1 }, micro_ratio: 10 });
    expect(parse(json)).toEqual(plan);
  });
});

describe('overlays replace or remove the limits for one account (docs/risk-rules.md#provisioning)', () => {
  const template = parse(
    written({ scaling: TIERS }, { position_limits: { max_contracts: 5, max_contracts_per_root: { ES: 5, NQ: 2 } } }),
  );
  const overlaid = (raw: unknown) => applyProvisioningOverlay(template, parseProvisioningOverlay(raw, 'body'));

  it('a per-root mapping replaces the whole mapping; micro_ratio is added; max_contracts stays', () => {
    const plan = overlaid({ position_limits: { max_contracts_per_root: { NQ: 1 }, micro_ratio: 10 } });
    expect(plan.positionLimits).toEqual({ maxContracts: 5, maxContractsPerRoot: { NQ: 1 }, microRatio: 10 });
    expect(template.positionLimits, 'the template is never touched').toEqual({
      maxContracts: 5,
      maxContractsPerRoot: { ES: 5, NQ: 2 },
    });
  });

  it('null removes a limit and the scaling plan; new tiers replace the old', () => {
    const removed = overlaid({ risk_profile: { scaling: null }, position_limits: { max_contracts: null } });
    expect(removed.riskProfile.scaling).toBeUndefined();
    expect(removed.positionLimits).toEqual({ maxContractsPerRoot: { ES: 5, NQ: 2 } });
    const replaced = overlaid({ risk_profile: { scaling: [{ from_profit: '0', max_contracts: 2 }] } });
    expect(replaced.riskProfile.scaling).toEqual([{ fromProfitCents: 0, maxContracts: 2 }]);
  });

  it.each([
    [
      { position_limits: { max_contracts_per_root: { ZZ: 1 } } },
      /^body\.position_limits\.max_contracts_per_root\.ZZ: unknown key; expected one of ES, /,
    ],
    [
      {
        risk_profile: {
          scaling: [
            { from_profit: '0', max_contracts: 3 },
            { from_profit: '-1', max_contracts: 5 },
          ],
        },
      },
      /^body\.risk_profile\.scaling\[1\]\.from_profit: expected a from_profit above the tier before's "0\.00"/,
    ],
    [
      { position_limits: { micro_ratio: 'ten' } },
      /^body\.position_limits\.micro_ratio: expected an integer from 1 to 1000, or null/,
    ],
    [
      { position_limits: { max_position: 3 } },
      /^body\.position_limits\.max_position: unknown key; expected one of max_contracts, /,
    ],
  ])('%j is refused naming the field', (raw, message) => {
    expect(errorOf(() => overlaid(raw))).toMatch(message);
  });
});
