// Plan fields of the rules that end an evaluation, in a plan and in an overlay: passing_criteria.time_limit_days
// (docs/risk-rules.md#time-limit) and risk_profile.daily_loss_action (docs/risk-rules.md#daily-loss-that-fails).
import { describe, expect, it } from 'vitest';
import { applyProvisioningOverlay, parseProvisioningOverlay } from '../../../src/core/accounts/plan-overlay.js';
import { parsePlanTemplate, type PlanTemplate } from '../../../src/core/accounts/plans.js';
import { basePlan, errorOf, withField } from './plan-documents.js';

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
