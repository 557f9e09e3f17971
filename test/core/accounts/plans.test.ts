import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { FieldError } from '../../../src/core/validation/input-fields.js';
import { applyProvisioningOverlay, parseProvisioningOverlay } from '../../../src/core/accounts/plan-overlay.js';
import { parsePlanTemplate, parsePlanTemplates, type PlanTemplate } from '../../../src/core/accounts/plans.js';
import { PRODUCT_FAMILIES } from '../../../src/core/instruments.js';

const PLAN_DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'plans');

function basePlan(): Record<string, unknown> {
  return {
    starting_balance: '50000',
    risk_profile: {
      max_drawdown_mode: 'eod_balance',
      max_drawdown_value: '2000',
      max_drawdown_limit: '0',
      daily_loss_value: '1000',
    },
    passing_criteria: { profit_target: '3000', min_trading_days: 5 },
  };
}

function withField(path: string, value: unknown): Record<string, unknown> {
  const doc = structuredClone(basePlan());
  const keys = path.split('.');
  let node: Record<string, unknown> = doc;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = value;
  return doc;
}

function errorOf(fn: () => unknown): FieldError {
  try {
    fn();
  } catch (error) {
    if (error instanceof FieldError) return error;
    throw error;
  }
  throw new Error('expected a FieldError');
}

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

describe('provisioning overlays clone the plan for one account (docs/risk-rules.md#provisioning)', () => {
  const template = (): PlanTemplate => parsePlanTemplate(basePlan(), 'plans.eval-50k');

  it('merges a partial risk profile and passing criteria over the template', () => {
    const shared = template();
    const overlay = parseProvisioningOverlay(
      {
        initial_balance: '60000',
        currency: 'EUR',
        risk_profile: { daily_loss_value: '1500' },
        passing_criteria: { profit_target: '4000' },
        price_paid: '150.00',
      },
      'accounts[0]',
    );
    const plan = applyProvisioningOverlay(shared, overlay);
    expect(plan.startingBalanceCents).toBe(6_000_000);
    expect(plan.currency).toBe('EUR');
    expect(plan.riskProfile).toEqual({
      maxDrawdownMode: 'eod_balance',
      maxDrawdownValueCents: 200_000,
      maxDrawdownLimitCents: 0,
      dailyLossValueCents: 150_000,
    });
    expect(plan.passingCriteria).toEqual({ profitTargetCents: 400_000, minTradingDays: 5 });
    expect(overlay.pricePaidCents).toBe(15_000);
  });

  it('leaves the shared template unchanged', () => {
    const shared = template();
    const before = structuredClone(shared);
    applyProvisioningOverlay(
      shared,
      parseProvisioningOverlay(
        { risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '2500' } },
        'accounts[0]',
      ),
    );
    expect(shared).toEqual(before);
    expect(Object.isFrozen(shared.riskProfile), 'a shared template cannot be edited in place').toBe(true);
  });

  it('gives two accounts on one plan their own risk profiles', () => {
    const shared = template();
    const a = applyProvisioningOverlay(
      shared,
      parseProvisioningOverlay({ risk_profile: { daily_loss_value: '500' } }, 'accounts[0]'),
    );
    const b = applyProvisioningOverlay(
      shared,
      parseProvisioningOverlay({ risk_profile: { daily_loss_value: '700' } }, 'accounts[1]'),
    );
    const c = applyProvisioningOverlay(shared, parseProvisioningOverlay({}, 'accounts[2]'));
    expect(a.riskProfile).not.toBe(b.riskProfile);
    expect(c.riskProfile, 'even without an overlay the account gets a copy').not.toBe(shared.riskProfile);
    expect(c.passingCriteria).not.toBe(shared.passingCriteria);
    expect(a.riskProfile.dailyLossValueCents).toBe(50_000);
    expect(b.riskProfile.dailyLossValueCents).toBe(70_000);
    expect(shared.riskProfile.dailyLossValueCents).toBe(100_000);
  });

  it('removes an optional field given as null', () => {
    const plan = applyProvisioningOverlay(
      template(),
      parseProvisioningOverlay({ risk_profile: { daily_loss_value: null, max_drawdown_limit: null } }, 'accounts[0]'),
    );
    expect(plan.riskProfile).toEqual({ maxDrawdownMode: 'eod_balance', maxDrawdownValueCents: 200_000 });
  });

  it.each([
    [
      { risk_profile: { daily_loss_value: '-5' } },
      'accounts[2].risk_profile.daily_loss_value: expected a decimal string greater than zero',
    ],
    [
      { risk_profile: { max_drawdown_mode: 'trailing' } },
      'accounts[2].risk_profile.max_drawdown_mode: expected one of static',
    ],
    [
      { passing_criteria: { consistency_pct: '101' } },
      'accounts[2].passing_criteria.consistency_pct: expected a percentage',
    ],
    [{ price_paid: '-1' }, 'accounts[2].price_paid: expected a decimal string zero or more'],
    [{ initial_balance: 1000 }, 'accounts[2].initial_balance: expected a decimal string greater than zero'],
    [{ risk_profile: { drawdown: '1' } }, 'accounts[2].risk_profile.drawdown: unknown key'],
    [{ nickname: 'x' }, 'accounts[2].nickname: unknown key; expected one of alias, plan, initial_balance'],
  ])('validates overlay %j with the account path', (raw, message) => {
    expect(errorOf(() => parseProvisioningOverlay(raw, 'accounts[2]', ['alias', 'plan'])).message).toContain(message);
  });

  it('blames the overlay field that leaves no room for the floor', () => {
    const overlay = parseProvisioningOverlay({ initial_balance: '1500' }, 'accounts[1]');
    expect(errorOf(() => applyProvisioningOverlay(template(), overlay)).message).toMatch(
      /^accounts\[1\]\.initial_balance: max_drawdown_value 2000\.00 must be below the starting balance 1500\.00/,
    );
  });
});

describe('docs/risk-rules.md#time-limit: passing_criteria.time_limit_days', () => {
  it('reads a whole number of trade dates ≥ 1; absent, no limit', () => {
    expect(
      parsePlanTemplate(withField('passing_criteria.time_limit_days', 20), 'p').passingCriteria.timeLimitDays,
    ).toBe(20);
    expect(parsePlanTemplate(basePlan(), 'p').passingCriteria.timeLimitDays).toBeUndefined();
  });

  it.each([0, 1.5, '20', -3])('refuses %j, naming the field', (value) => {
    expect(errorOf(() => parsePlanTemplate(withField('passing_criteria.time_limit_days', value), 'plans.x')).path).toBe(
      'plans.x.passing_criteria.time_limit_days',
    );
  });

  it('an overlay sets it, and null removes it', () => {
    const limited = parsePlanTemplate(withField('passing_criteria.time_limit_days', 30), 'p');
    const overlaid = (raw: unknown) =>
      applyProvisioningOverlay(limited, parseProvisioningOverlay(raw, 'accounts[0]')).passingCriteria.timeLimitDays;
    expect(overlaid({ passing_criteria: { time_limit_days: 10 } })).toBe(10);
    expect(overlaid({ passing_criteria: { time_limit_days: null } })).toBeUndefined();
    expect(overlaid({})).toBe(30);
    expect(
      errorOf(() => parseProvisioningOverlay({ passing_criteria: { time_limit_days: 0 } }, 'accounts[0]')).path,
    ).toBe('accounts[0].passing_criteria.time_limit_days');
  });
});

describe('docs/risk-rules.md#daily-loss-that-fails: risk_profile.daily_loss_action', () => {
  it('fail is kept; lock, the default, reads as absent (a plan saying lock is the plan saying nothing)', () => {
    expect(
      parsePlanTemplate(withField('risk_profile.daily_loss_action', 'fail'), 'p').riskProfile.dailyLossAction,
    ).toBe('fail');
    expect(parsePlanTemplate(withField('risk_profile.daily_loss_action', 'lock'), 'p')).toEqual(
      parsePlanTemplate(basePlan(), 'p'),
    );
  });

  it('refuses another word, naming the field', () => {
    expect(
      errorOf(() => parsePlanTemplate(withField('risk_profile.daily_loss_action', 'close'), 'plans.x')).message,
    ).toBe('plans.x.risk_profile.daily_loss_action: expected one of lock, fail, got "close"');
  });

  it('fail needs daily_loss_value: refused in a plan, naming daily_loss_action', () => {
    const doc = withField('risk_profile.daily_loss_action', 'fail');
    delete (doc.risk_profile as Record<string, unknown>).daily_loss_value;
    expect(errorOf(() => parsePlanTemplate(doc, 'plans.x')).message).toBe(
      'plans.x.risk_profile.daily_loss_action: daily_loss_action fail needs risk_profile.daily_loss_value: without a daily-loss floor there is no breach to fail on',
    );
  });

  it('an overlay sets it or removes it (null: lock); one that leaves fail without a floor is blamed for what it changed', () => {
    const failing = parsePlanTemplate(withField('risk_profile.daily_loss_action', 'fail'), 'p');
    const locking = parsePlanTemplate(basePlan(), 'p');
    const apply = (template: PlanTemplate, raw: unknown) =>
      applyProvisioningOverlay(template, parseProvisioningOverlay(raw, 'accounts[0]'));
    expect(apply(locking, { risk_profile: { daily_loss_action: 'fail' } }).riskProfile.dailyLossAction).toBe('fail');
    expect(apply(failing, { risk_profile: { daily_loss_action: null } }).riskProfile.dailyLossAction).toBeUndefined();
    expect(apply(failing, { risk_profile: { daily_loss_action: 'lock' } }).riskProfile.dailyLossAction).toBeUndefined();
    expect(errorOf(() => apply(failing, { risk_profile: { daily_loss_value: null } })).path).toBe(
      'accounts[0].risk_profile.daily_loss_value',
    );
    const noDaily = parsePlanTemplate(withField('risk_profile.daily_loss_value', undefined), 'p');
    expect(errorOf(() => apply(noDaily, { risk_profile: { daily_loss_action: 'fail' } })).path).toBe(
      'accounts[0].risk_profile.daily_loss_action',
    );
  });
});
