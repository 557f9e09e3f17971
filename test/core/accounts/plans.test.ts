// docs/risk-rules.md#plan-templates: the plan files under fixtures/plans load and validate; a plan is decoded into
// cents with its defaults, and a bad field, an unknown key or a missing one is refused naming the field. Overlays on a
// plan: plan-overlays.test.ts; the time limit and the daily-loss action: plan-rule-fields.test.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parsePlanTemplate, parsePlanTemplates } from '../../../src/core/accounts/plans.js';
import { PRODUCT_FAMILIES } from '../../../src/core/instruments.js';
import { basePlan, errorOf, withField } from './plan-documents.js';

const PLAN_DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'plans');

describe('plan templates (docs/risk-rules.md#plan-templates)', () => {
  const files = readdirSync(PLAN_DIR).filter((f) => f.endsWith('.yaml'));

  it('ships at least three realistic plan files', () => {
    expect(files.length, 'fixtures/plans holds the example plans').toBeGreaterThanOrEqual(12);
  });

  it.each(files)('fixtures/plans/%s loads and validates', (file) => {
    const plan = parsePlanTemplate(
      parseYaml(readFileSync(join(PLAN_DIR, file), 'utf8')),
      `plans.${basename(file, '.yaml')}`,
    );
    expect(plan.startingBalanceCents).toBeGreaterThan(plan.riskProfile.maxDrawdownValueCents);
    expect(plan.passingCriteria.profitTargetCents).toBeGreaterThan(0);
    expect(plan.currency).toBe('USD');
  });

  it('holds 50K, 100K and 150K evaluations in each of the four drawdown modes', () => {
    const modes = files
      .filter((f) => f.startsWith('eval-'))
      .map((f) => parsePlanTemplate(parseYaml(readFileSync(join(PLAN_DIR, f), 'utf8')), f).riskProfile.maxDrawdownMode);
    for (const mode of ['static', 'realtime_balance', 'realtime_equity', 'eod_balance'])
      expect(
        modes.filter((m) => m === mode),
        mode,
      ).toHaveLength(3);
  });

  it('decodes the 50K end-of-day plan into cents', () => {
    const plan = parsePlanTemplate(
      parseYaml(readFileSync(join(PLAN_DIR, 'eval-50k-eod.yaml'), 'utf8')),
      'plans.eval-50k-eod',
    );
    expect(plan).toEqual({
      startingBalanceCents: 5_000_000,
      currency: 'USD',
      riskProfile: {
        maxDrawdownMode: 'eod_balance',
        maxDrawdownValueCents: 200_000,
        maxDrawdownLimitCents: 0,
        dailyLossValueCents: 100_000,
      },
      passingCriteria: { profitTargetCents: 300_000, minTradingDays: 5, consistencyPct: '40' },
      positionLimits: { maxContracts: 5 },
      commissionPerContractCents: 210,
      enabledFamilies: [...PRODUCT_FAMILIES],
      tradingSessions: ['cme_globex'],
    });
  });

  it('applies the defaults: USD, no commission, every product family, GLOBEX sessions', () => {
    const plan = parsePlanTemplate(basePlan(), 'plans.p');
    expect(plan.currency).toBe('USD');
    expect(plan.commissionPerContractCents).toBe(0);
    expect(plan.enabledFamilies).toEqual(PRODUCT_FAMILIES);
    expect(plan.tradingSessions).toEqual(['cme_globex']);
    expect(plan.positionLimits).toEqual({});
  });

  it('keeps max_drawdown_limit on a static plan (the risk engine ignores it there)', () => {
    const plan = parsePlanTemplate(withField('risk_profile.max_drawdown_mode', 'static'), 'plans.p');
    expect(plan.riskProfile).toMatchObject({ maxDrawdownMode: 'static', maxDrawdownLimitCents: 0 });
  });

  it.each([
    [
      'an unknown drawdown mode',
      'risk_profile.max_drawdown_mode',
      'trailing',
      'plans.eval-50k.risk_profile.max_drawdown_mode: expected one of static, realtime_balance, realtime_equity, eod_balance, got "trailing"',
    ],
    [
      'money written as a YAML number',
      'starting_balance',
      50000,
      'plans.eval-50k.starting_balance: expected a decimal string greater than zero',
    ],
    [
      'a negative commission',
      'commission_per_contract',
      '-1.00',
      'plans.eval-50k.commission_per_contract: expected a decimal string zero or more, got "-1.00"',
    ],
    [
      'a consistency above 100',
      'passing_criteria.consistency_pct',
      '100.5',
      'plans.eval-50k.passing_criteria.consistency_pct: expected a percentage greater than 0 and at most 100, got "100.5"',
    ],
    [
      'a consistency of 0',
      'passing_criteria.consistency_pct',
      '0',
      'plans.eval-50k.passing_criteria.consistency_pct: expected a decimal string greater than zero',
    ],
    [
      'a zero drawdown allowance',
      'risk_profile.max_drawdown_value',
      '0',
      'plans.eval-50k.risk_profile.max_drawdown_value: expected a decimal string greater than zero',
    ],
    [
      'a negative max_drawdown_limit',
      'risk_profile.max_drawdown_limit',
      '-5',
      'plans.eval-50k.risk_profile.max_drawdown_limit: expected a decimal string zero or more',
    ],
    [
      'sub-cent money',
      'passing_criteria.profit_target',
      '3000.001',
      'plans.eval-50k.passing_criteria.profit_target: expected a decimal string greater than zero with at most 2 decimal places',
    ],
    [
      'fractional trading days',
      'passing_criteria.min_trading_days',
      2.5,
      'plans.eval-50k.passing_criteria.min_trading_days: expected an integer of at least 0, got the number 2.5',
    ],
    [
      'zero max contracts',
      'position_limits.max_contracts',
      0,
      'plans.eval-50k.position_limits.max_contracts: expected an integer of at least 1, got the number 0',
    ],
    [
      'a lower-case currency',
      'currency',
      'usd',
      'plans.eval-50k.currency: expected a three-letter currency code like "USD", got "usd"',
    ],
    [
      'an unknown family',
      'enabled_families',
      ['equity_index', 'crypto'],
      'plans.eval-50k.enabled_families[1]: expected one of equity_index, interest_rates, fx, energy, metals, got "crypto"',
    ],
    [
      'an unknown session',
      'trading_sessions',
      ['rth'],
      'plans.eval-50k.trading_sessions[0]: expected one of cme_globex, got "rth"',
    ],
    [
      'an allowance as large as the balance',
      'risk_profile.max_drawdown_value',
      '50000',
      'plans.eval-50k.risk_profile.max_drawdown_value: max_drawdown_value 50000.00 must be below the starting balance 50000.00',
    ],
  ])('refuses %s, naming the field', (_label, path, value, message) => {
    const error = errorOf(() => parsePlanTemplate(withField(path, value), 'plans.eval-50k'));
    expect(error.message).toContain(message);
  });

  it('tells to quote money written as a number', () => {
    expect(errorOf(() => parsePlanTemplate(withField('starting_balance', 50000), 'plans.x')).message).toMatch(
      /got the number 50000 \(quote it: "50000"\)/,
    );
  });

  it.each([
    [
      'at the top',
      'trailing_drawdown',
      'plans.eval-50k.trailing_drawdown: unknown key; expected one of starting_balance, currency',
    ],
    [
      'in the risk profile',
      'risk_profile.trail',
      'plans.eval-50k.risk_profile.trail: unknown key; expected one of max_drawdown_mode',
    ],
    ['in the passing criteria', 'passing_criteria.days', 'plans.eval-50k.passing_criteria.days: unknown key'],
  ])('refuses an unknown key %s', (_label, path, message) => {
    expect(errorOf(() => parsePlanTemplate(withField(path, '1'), 'plans.eval-50k')).message).toContain(message);
  });

  it('names a missing required field', () => {
    const doc = basePlan();
    delete (doc.risk_profile as Record<string, unknown>).max_drawdown_mode;
    expect(errorOf(() => parsePlanTemplate(doc, 'plans.p')).message).toBe(
      'plans.p.risk_profile.max_drawdown_mode: expected one of static, realtime_balance, realtime_equity, eod_balance (required), got nothing',
    );
  });

  it('parses a mapping of plans by name', () => {
    const plans = parsePlanTemplates({ a: basePlan(), b: withField('starting_balance', '100000') }, 'plans');
    expect([...plans.keys()]).toEqual(['a', 'b']);
    expect(plans.get('b')?.startingBalanceCents).toBe(10_000_000);
  });
});
