import { describe, expect, it } from 'vitest';
import { parsePlanTemplate, type PlanTemplate } from '../../../src/core/accounts/plans.js';
import { Provisioning, type ProvisionResult } from '../../../src/core/accounts/provisioning.js';
import { formatCents } from '../../../src/core/money.js';
import { CommandRefusal } from '../../../src/core/outcome.js';

const NOW_MS = 1_772_460_000_000;

function template(): PlanTemplate {
  return parsePlanTemplate(
    {
      starting_balance: '50000',
      risk_profile: {
        max_drawdown_mode: 'eod_balance',
        max_drawdown_value: '2000',
        max_drawdown_limit: '0',
        daily_loss_value: '1000',
      },
      passing_criteria: { profit_target: '3000', min_trading_days: 5 },
    },
    'plans.eval-50k',
  );
}

/** Readable deterministic ids: 00000000-0000-4000-8000-000000000001, …002, … */
function counterIds(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
}

function setup(): { reg: Provisioning; shared: PlanTemplate; newId: () => string } {
  const reg = new Provisioning();
  const shared = template();
  reg.registerFirm({ firmId: 'firm-a', slug: 'acme-prop', name: 'Acme Prop' }, new Map([['eval-50k', shared]]));
  reg.registerFirm({ firmId: 'firm-b', slug: 'beta-prop', name: 'Beta Prop' }, new Map([['eval-50k', template()]]));
  return { reg, shared, newId: counterIds() };
}

const ANN = { email: 'Ann@Example.com', first_name: 'Ann' };

function refusal(fn: () => unknown): CommandRefusal {
  try {
    fn();
  } catch (error) {
    if (error instanceof CommandRefusal) return error;
    throw error;
  }
  throw new Error('expected a CommandRefusal');
}

function ids(result: ProvisionResult): string[] {
  return result.accounts.map((a) => a.accountId);
}

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

describe('idempotency_key is unique per firm (docs/risk-rules.md#provisioning)', () => {
  it('the same key in the same firm answers 200 with the original account and creates nothing', () => {
    const { reg, newId } = setup();
    const first = reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: ANN, idempotency_key: 'purchase-1', price_paid: '150' },
      newId,
      NOW_MS,
    );
    const again = reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: ANN, idempotency_key: 'purchase-1', price_paid: '150' },
      newId,
      NOW_MS + 5,
    );
    expect(first.status, 'a new account answers 201').toBe(201);
    expect(again.status, 'a repeated key answers 200').toBe(200);
    expect(ids(again), 'the original account is returned').toEqual(ids(first));
    expect(again.user.userId).toBe(first.user.userId);
    expect(reg.lookup('firm-a'), 'no second account was created').toHaveLength(1);
  });

  it('a repeat returns the original even when the rest of the body differs', () => {
    const { reg, newId } = setup();
    const first = reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: ANN, idempotency_key: 'k' },
      newId,
      NOW_MS,
    );
    const again = reg.provision(
      'firm-a',
      { plan_reference: 'no-such-plan', user: { email: 'bob@example.com' }, count: 4, idempotency_key: 'k' },
      newId,
      NOW_MS,
    );
    expect(again.status).toBe(200);
    expect(ids(again)).toEqual(ids(first));
    expect(reg.lookup('firm-a')).toHaveLength(1);
  });

  it('a repeated key of a bulk create returns all of its accounts', () => {
    const { reg, newId } = setup();
    const first = reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: ANN, count: 3, idempotency_key: 'bulk-7' },
      newId,
      NOW_MS,
    );
    const again = reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: ANN, count: 3, idempotency_key: 'bulk-7' },
      newId,
      NOW_MS,
    );
    expect(again.status).toBe(200);
    expect(ids(again), 'the key maps to every account the purchase created').toEqual(ids(first));
    expect(ids(first)).toHaveLength(3);
  });

  it('the same key in another firm creates a new account', () => {
    const { reg, newId } = setup();
    const a = reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: ANN, idempotency_key: 'purchase-1' },
      newId,
      NOW_MS,
    );
    const b = reg.provision(
      'firm-b',
      { plan_reference: 'eval-50k', user: ANN, idempotency_key: 'purchase-1' },
      newId,
      NOW_MS,
    );
    expect(b.status, 'keys are scoped per firm').toBe(201);
    expect(ids(b)).not.toEqual(ids(a));
    expect(b.user.userId, 'users belong to one firm').not.toBe(a.user.userId);
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

describe('GET /v1/firm-control/accounts: lookup by user and by key, firm isolation', () => {
  function populated() {
    const s = setup();
    const ann = s.reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: ANN, count: 2, idempotency_key: 'p-1' },
      s.newId,
      NOW_MS,
    );
    const bob = s.reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: { email: 'bob@example.com' }, idempotency_key: 'p-2' },
      s.newId,
      NOW_MS,
    );
    const other = s.reg.provision(
      'firm-b',
      { plan_reference: 'eval-50k', user: ANN, idempotency_key: 'p-1' },
      s.newId,
      NOW_MS,
    );
    return { ...s, ann, bob, other };
  }

  it('without a filter answers every account of the firm, in creation order', () => {
    const { reg, ann, bob } = populated();
    expect(reg.lookup('firm-a').map((a) => a.accountId)).toEqual([...ids(ann), ...ids(bob)]);
  });

  it("by user_id answers that trader's accounts; by idempotency_key the purchase's accounts", () => {
    const { reg, ann, bob } = populated();
    expect(reg.lookup('firm-a', { user_id: ann.user.userId }).map((a) => a.accountId)).toEqual(ids(ann));
    expect(reg.lookup('firm-a', { idempotency_key: 'p-2' }).map((a) => a.accountId)).toEqual(ids(bob));
    expect(
      reg.lookup('firm-a', { idempotency_key: 'p-2', user_id: ann.user.userId }),
      'both filters must match',
    ).toEqual([]);
    expect(reg.lookup('firm-a', { idempotency_key: 'nope' })).toEqual([]);
  });

  it('an account of another firm is never visible', () => {
    const { reg, ann, other } = populated();
    expect(
      reg.lookup('firm-a', { idempotency_key: 'p-1' }).map((a) => a.accountId),
      'firm-b used the same key',
    ).toEqual(ids(ann));
    expect(reg.lookup('firm-b', { user_id: ann.user.userId }), "firm-a's user has no accounts in firm-b").toEqual([]);
    const hidden = refusal(() => reg.account('firm-a', other.accounts[0]!.accountId));
    expect([hidden.status, hidden.code], 'outside the firm reads as unknown').toEqual([404, 'account_not_found']);
    expect(reg.account(undefined, other.accounts[0]!.accountId).firmId, 'a platform admin sees any firm').toBe(
      'firm-b',
    );
    expect(reg.lookup(undefined)).toHaveLength(4);
  });

  it('the record carries the mapping the firm needs (its JSON form: test/core/risk/provisioning.test.ts)', () => {
    const { reg, bob } = populated();
    const record = reg.account('firm-a', bob.accounts[0]!.accountId);
    expect(record).toMatchObject({
      accountId: bob.accounts[0]!.accountId,
      userId: bob.user.userId,
      planReference: 'eval-50k',
      pricePaidCents: 0,
      idempotencyKey: 'p-2',
      createdAtMs: NOW_MS,
    });
  });
});

describe('replace mints a linked account from the same template and overlays (docs/risk-rules.md#replace)', () => {
  it('links both ways, same user and plan reference, price share 0, no purchase key', () => {
    const { reg, newId } = setup();
    const original = reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: ANN, price_paid: '99', idempotency_key: 'p-1' },
      newId,
      NOW_MS,
    ).accounts[0]!;
    const { replacement } = reg.replace('firm-a', original.accountId, newId, NOW_MS + 60_000);
    expect(replacement.accountId).not.toBe(original.accountId);
    expect(replacement.replacesAccountId).toBe(original.accountId);
    expect(original.replacedByAccountId).toBe(replacement.accountId);
    expect([replacement.userId, replacement.planReference, replacement.pricePaidCents]).toEqual([
      original.userId,
      'eval-50k',
      0,
    ]);
    expect(replacement).toMatchObject({ replacesAccountId: original.accountId, createdAtMs: NOW_MS + 60_000 });
    expect(replacement.idempotencyKey, 'no purchase key').toBeUndefined();
    expect(reg.lookup('firm-a', { user_id: original.userId }).map((a) => a.accountId)).toEqual([
      original.accountId,
      replacement.accountId,
    ]);
  });

  it("mints from the template and overlays, not from the original's changed plan", () => {
    const { reg, newId } = setup();
    const original = reg.provision(
      'firm-a',
      { plan_reference: 'eval-50k', user: ANN, risk_profile: { max_drawdown_value: '2500' } },
      newId,
      NOW_MS,
    ).accounts[0]!;
    original.plan = { ...original.plan, riskProfile: { ...original.plan.riskProfile, maxDrawdownLimitCents: 10_000 } };
    const { replacement } = reg.replace('firm-a', original.accountId, newId, NOW_MS);
    expect(replacement.plan.riskProfile, 'the overlay is kept; the per-account PATCH is not').toEqual({
      maxDrawdownMode: 'eod_balance',
      maxDrawdownValueCents: 250_000,
      maxDrawdownLimitCents: 0,
      dailyLossValueCents: 100_000,
    });
    expect(replacement.plan.riskProfile).not.toBe(original.plan.riskProfile);
  });

  it('refuses an account already replaced with 409 account_closed, and one of another firm with 404', () => {
    const { reg, newId } = setup();
    const original = reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN }, newId, NOW_MS).accounts[0]!;
    reg.replace('firm-a', original.accountId, newId, NOW_MS);
    const again = refusal(() => reg.replace('firm-a', original.accountId, newId, NOW_MS));
    expect([again.status, again.code]).toEqual([409, 'account_closed']);
    const foreign = refusal(() => reg.replace('firm-b', original.accountId, newId, NOW_MS));
    expect([foreign.status, foreign.code]).toEqual([404, 'account_not_found']);
    expect(reg.lookup('firm-a'), 'refusals mint nothing').toHaveLength(2);
  });
});

describe('validation errors are 400 invalid_request naming the field', () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['plan_reference missing', { user: ANN }, 'plan_reference', /^plan_reference: expected .*\(required\)/],
    [
      'plan_reference unknown',
      { plan_reference: 'eval-1m', user: ANN },
      'plan_reference',
      /^plan_reference: no plan "eval-1m" in this firm; expected one of eval-50k/,
    ],
    [
      'count 0',
      { plan_reference: 'eval-50k', user: ANN, count: 0 },
      'count',
      /^count: expected an integer from 1 to 100, got 0/,
    ],
    [
      'count 101',
      { plan_reference: 'eval-50k', user: ANN, count: 101 },
      'count',
      /^count: expected an integer from 1 to 100/,
    ],
    [
      'price_paid as a number',
      { plan_reference: 'eval-50k', user: ANN, price_paid: 100 },
      'price_paid',
      /^price_paid: expected a decimal string with at most 2 places, like "49500.00", got 100$/,
    ],
    [
      'price_paid negative',
      { plan_reference: 'eval-50k', user: ANN, price_paid: '-1.00' },
      'price_paid',
      /^price_paid: expected a decimal string zero or more/,
    ],
    [
      'an overlay error',
      { plan_reference: 'eval-50k', user: ANN, risk_profile: { max_drawdown_mode: 'weekly' } },
      'risk_profile.max_drawdown_mode',
      /^risk_profile\.max_drawdown_mode: expected one of static, realtime_balance/,
    ],
    [
      'an inconsistent overlay',
      { plan_reference: 'eval-50k', user: ANN, initial_balance: '1500' },
      'initial_balance',
      /^initial_balance: max_drawdown_value 2000\.00 must be below/,
    ],
    ['no trader', { plan_reference: 'eval-50k' }, 'user', /^user: expected a mapping with email, or user_id/],
    [
      'both user and user_id',
      { plan_reference: 'eval-50k', user: ANN, user_id: '00000000-0000-4000-8000-000000000001' },
      'user_id',
      /^user_id: give either user .* not both/,
    ],
    [
      'user without email',
      { plan_reference: 'eval-50k', user: { first_name: 'Ann' } },
      'user.email',
      /^user\.email: expected an email address.*\(required\)/,
    ],
    [
      'a bad email',
      { plan_reference: 'eval-50k', user: { email: 'ann at example' } },
      'user.email',
      /^user\.email: expected an email address/,
    ],
    [
      'idempotency_key too long',
      { plan_reference: 'eval-50k', user: ANN, idempotency_key: 'k'.repeat(129) },
      'idempotency_key',
      /^idempotency_key: expected a string of 1 to 128/,
    ],
    [
      'idempotency_key empty',
      { plan_reference: 'eval-50k', user: ANN, idempotency_key: '' },
      'idempotency_key',
      /^idempotency_key: expected a string of 1 to 128/,
    ],
    [
      'an unknown field',
      { plan_reference: 'eval-50k', user: ANN, plan: 'x' },
      'plan',
      /^plan: unknown field; expected one of user, user_id, plan_reference/,
    ],
  ];

  it.each(cases)('%s', (_label, body, field, message) => {
    const { reg, newId } = setup();
    const error = refusal(() => reg.provision('firm-a', body, newId, NOW_MS));
    expect([error.status, error.code]).toEqual([400, 'invalid_request']);
    expect(
      error.details?.map((d) => d.field),
      'details name the field',
    ).toEqual([field]);
    expect(error.message).toMatch(message);
  });

  it('a body that is not an object is refused as the body', () => {
    const { reg, newId } = setup();
    const error = refusal(() => reg.provision('firm-a', [1], newId, NOW_MS));
    expect([error.status, error.details?.map((d) => d.field)]).toEqual([400, ['body']]);
    expect(error.message).toMatch(/^body: expected a JSON object/);
  });

  it('a malformed body is refused even when its idempotency key repeats', () => {
    const { reg, newId } = setup();
    reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN, idempotency_key: 'k' }, newId, NOW_MS);
    const error = refusal(() =>
      reg.provision('firm-a', { plan_reference: 'eval-50k', user: ANN, idempotency_key: 'k', count: 0 }, newId, NOW_MS),
    );
    expect(error.status).toBe(400);
  });
});
