// docs/risk-rules.md#provisioning: a provisioning overlay over a plan template makes one account's plan: merged field
// by field, null removing an optional one, the shared template never edited, and a bad overlay refused with the
// account's path.
import { describe, expect, it } from 'vitest';
import { applyProvisioningOverlay, parseProvisioningOverlay } from '../../../src/core/accounts/plan-overlay.js';
import { parsePlanTemplate, type PlanTemplate } from '../../../src/core/accounts/plans.js';
import { basePlan, errorOf } from './plan-documents.js';

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
