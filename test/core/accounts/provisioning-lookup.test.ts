// Finding provisioned accounts again (docs/risk-rules.md#provisioning): a repeated idempotency_key answers the
// original accounts and creates nothing (keys are per firm), and GET /v1/firm-control/accounts looks accounts up by
// user and by key, never across firms.
import { describe, expect, it } from 'vitest';
import { ANN, ids, NOW_MS, refusal, setup } from './provisioning-registry.js';

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
