// docs/risk-rules.md#replace in the registry: a replacement is linked to the account it replaces both ways, minted
// from the template and overlays (not the original's changed plan), and refused for an account already replaced or of
// another firm.
import { describe, expect, it } from 'vitest';
import { ANN, NOW_MS, refusal, setup } from './provisioning-registry.js';

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
