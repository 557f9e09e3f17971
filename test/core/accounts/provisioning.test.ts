// docs/risk-rules.md#provisioning in the registry: what one request mints. price_paid split in cents over a bulk
// create, a plan of its own for each account (overlays never reach the shared template), the user created or reused by
// email, and ids drawn from the injected generator. Repeats and lookups: provisioning-lookup.test.ts; replace:
// provisioning-replace.test.ts; refusals: provisioning-validation.test.ts.
import { describe, expect, it } from 'vitest';
import { formatCents } from '../../../src/core/money.js';
import { ANN, ids, NOW_MS, refusal, setup } from './provisioning-registry.js';

describe('price_paid over a bulk create is split in cents, remainder to the first accounts (docs/risk-rules.md#provisioning)', () => {
  it('100.00 over 3 → 33.34, 33.33, 33.33', () => {
    const { reg, newId } = setup();
    const result = reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: ANN, count: 3, price_paid: '100.00' },
      newId,
      NOW_MS,
    );
    expect(
      result.accounts.map((a) => formatCents(a.pricePaidCents)),
      'one remainder cent goes to the first account',
    ).toEqual(['33.34', '33.33', '33.33']);
    expect(
      result.accounts.reduce((sum, a) => sum + a.pricePaidCents, 0),
      'the shares add up to the price, to the cent',
    ).toBe(10_000);
  });

  it('0.02 over 3 → 0.01, 0.01, 0.00', () => {
    const { reg, newId } = setup();
    const result = reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: ANN, count: 3, price_paid: '0.02' },
      newId,
      NOW_MS,
    );
    expect(
      result.accounts.map((a) => formatCents(a.pricePaidCents)),
      'two remainder cents go one each to the first two',
    ).toEqual(['0.01', '0.01', '0.00']);
  });

  it('a single account keeps the whole price; no price_paid stores 0.00', () => {
    const { reg, newId } = setup();
    const one = reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN, price_paid: '149.99' }, newId, NOW_MS);
    const free = reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN }, newId, NOW_MS);
    expect(
      one.accounts.map((a) => a.pricePaidCents),
      'count defaults to 1, which takes the whole amount',
    ).toEqual([14_999]);
    expect(formatCents(free.accounts[0]!.pricePaidCents), 'an absent price_paid is stored as zero').toBe('0.00');
  });
});

describe('overlays clone the plan for one account (docs/risk-rules.md#provisioning)', () => {
  it('an overlay leaves the shared template and the other accounts on the plan unchanged', () => {
    const { reg, shared, newId } = setup();
    const before = structuredClone(shared);
    const plain = reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN }, newId, NOW_MS).accounts[0]!;
    const custom = reg.provision(
      'firm-a',
      {
        plan_reference: 'eval-50k',
        user: ANN,
        initial_balance: '75000',
        risk_profile: { max_drawdown_value: '3000', daily_loss_value: null },
        passing_criteria: { profit_target: '4500' },
      },
      newId,
      NOW_MS,
    ).accounts[0]!;
    expect(custom.plan.startingBalanceCents).toBe(7_500_000);
    expect(custom.plan.riskProfile, 'the overlay is merged over the template; null removes daily_loss_value').toEqual({
      maxDrawdownMode: 'eod_balance',
      maxDrawdownValueCents: 300_000,
      maxDrawdownLimitCents: 0,
    });
    expect(custom.plan.passingCriteria).toEqual({ profitTargetCents: 450_000, minTradingDays: 5 });
    expect(shared, 'the shared template is never edited').toEqual(before);
    expect(plain.plan, 'another account on the same plan keeps the template values').toEqual(before);
  });

  it("two accounts never share a plan or risk profile object, even without overlays, and never the template's", () => {
    const { reg, shared, newId } = setup();
    const [a, b] = reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN, count: 2 }, newId, NOW_MS).accounts;
    expect(a!.plan).not.toBe(shared);
    expect(a!.plan.riskProfile, 'a per-account change must not reach the shared template').not.toBe(shared.riskProfile);
    expect(a!.plan.riskProfile, 'nor another account of the same bulk create').not.toBe(b!.plan.riskProfile);
    expect(a!.plan.passingCriteria).not.toBe(b!.plan.passingCriteria);
    expect(a!.template, 'the record remembers the shared template it was minted from').toBe(shared);
  });

  it('a per-account plan change (as a max-loss PATCH does) leaves the template and other accounts alone', () => {
    const { reg, shared, newId } = setup();
    const [a, b] = reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN, count: 2 }, newId, NOW_MS).accounts;
    a!.plan = { ...a!.plan, riskProfile: { ...a!.plan.riskProfile, maxDrawdownLimitCents: 10_000 } };
    expect(shared.riskProfile.maxDrawdownLimitCents).toBe(0);
    expect(b!.plan.riskProfile.maxDrawdownLimitCents).toBe(0);
  });
});

describe('the user is created if new and reused by email within the firm', () => {
  it('creates the user with a lowercase email, then reuses it by email in any case', () => {
    const { reg, newId } = setup();
    const first = reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN }, newId, NOW_MS);
    const second = reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: { email: 'ANN@example.COM' } },
      newId,
      NOW_MS + 1,
    );
    expect(first.user.email, 'emails are normalised to lowercase').toBe('ann@example.com');
    expect(second.user, 'the same email finds the same user').toBe(first.user);
    expect(first.user).toMatchObject({
      userId: first.user.userId,
      email: 'ann@example.com',
      firstName: 'Ann',
      kind: 'trader',
      createdAtMs: NOW_MS,
    });
  });

  it('user_id names an existing user; an unknown user_id, or one of another firm, is 404 user_not_found', () => {
    const { reg, newId } = setup();
    const { user } = reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN }, newId, NOW_MS);
    const byId = reg.provision('firm-a', { plan_reference: 'eval-50k', user_id: user.userId }, newId, NOW_MS);
    expect(byId.user).toBe(user);
    const unknown = refusal(() =>
      reg.provision(
        'firm-a',
        { plan_reference: 'eval-50k', user_id: '00000000-0000-4000-8000-00000000dead' },
        newId,
        NOW_MS,
      ),
    );
    expect([unknown.status, unknown.code]).toEqual([404, 'user_not_found']);
    const foreign = refusal(() =>
      reg.provision('firm-b', { plan_reference: 'eval-50k', user_id: user.userId }, newId, NOW_MS),
    );
    expect([foreign.status, foreign.code], 'a user of another firm is not visible').toEqual([404, 'user_not_found']);
  });

  it('ids come from the injected generator: the new user first, then the accounts in order', () => {
    const { reg, newId } = setup();
    const result = reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN, count: 2 }, newId, NOW_MS);
    expect(result.user.userId).toBe('00000000-0000-4000-8000-000000000001');
    expect(ids(result)).toEqual(['00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003']);
  });

  it('a refused request stores nothing and draws no id', () => {
    const { reg, newId } = setup();
    refusal(() =>
      reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN, initial_balance: '1000' }, newId, NOW_MS),
    );
    expect(reg.lookup('firm-a')).toEqual([]);
    expect(newId(), 'the generator was not touched').toBe('00000000-0000-4000-8000-000000000001');
  });
});
