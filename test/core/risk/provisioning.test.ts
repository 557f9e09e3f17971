// Provisioning (docs/risk-rules.md#provisioning, POST/GET /v1/firm-control/accounts) and the risk-state read with its
// loading window (docs/risk-rules.md#the-loading-window): provisioning through the kernel, so the accounts the
// registry mints are the accounts the risk engine guards. Plan eval-50k: 50,000 start, static $2,000 max loss, $1,000
// daily loss, $3,000 target.
import { describe, expect, it } from 'vitest';
import { riskHarness, testPlan } from './risk-harness.js';

let FIRM = 'acme-prop';
const ANN = { email: 'Ann@Example.com', first_name: 'Ann' };

function provisioned(options: Parameters<typeof riskHarness>[0] = {}) {
  const h = riskHarness(options);
  const register = (slug: string, plan: Record<string, unknown>) => {
    const firm = h.kernel.dispatch({ type: 'register_firm', slug, plans: { 'eval-50k': plan } });
    if (!firm.ok) throw new Error(JSON.stringify(firm.body));
    return firm.body.firm_id;
  };
  FIRM = register(
    'acme-prop',
    testPlan({ risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '2000', daily_loss_value: '1000' } }),
  );
  const firmB = register('beta-prop', testPlan());
  /** The firm's account records (GET /v1/firm-control/accounts), in creation order. */
  const listAccounts = (firm: string, filter: { user_id?: string; idempotency_key?: string } = {}) =>
    h.kernel.read.accounts({ firmId: firm }, filter, {});
  const provision = (body: Record<string, unknown>, firm = FIRM) =>
    h.kernel.dispatch({ type: 'provision_accounts', firm_id: firm, body: { plan_reference: 'eval-50k', ...body } });
  return { ...h, provision, listAccounts, firmB };
}

describe('docs/risk-rules.md#provisioning through the kernel: price_paid split in cents', () => {
  it('a bulk create of 3 with price_paid "100.00" gives 33.34, 33.33, 33.33 (the remainder cent to the first)', () => {
    const h = provisioned();
    const outcome = h.provision({ user: ANN, count: 3, price_paid: '100.00' });
    expect(outcome.status, 'new accounts: 201').toBe(201);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.body));
    const body = outcome.body;
    expect(body.account_ids).toHaveLength(3);
    expect(
      body.account_ids.map((id) => h.kernel.internals().accounts.get(id).pricePaidCents),
      'the risk accounts carry the same shares in cents',
    ).toEqual([3334, 3333, 3333]);
    for (const id of body.account_ids) {
      expect(
        h.item(id),
        'each account starts on the plan: 50,000, trigger 50,000 - 2,000, daily 50,000 - 1,000',
      ).toMatchObject({
        starting_balance: '50000.00',
        balance: '50000.00',
        max_loss_limit_trigger: '48000.00',
        daily_loss_limit_trigger: '49000.00',
        account_status: 'active',
      });
    }
    const listed = h.listAccounts(FIRM);
    expect(
      listed.ok && (listed.body.items as Array<{ price_paid: string }>).map((r) => r.price_paid),
      'the account list shows the shares: 10,000 cents / 3 = 3,333 r 1',
    ).toEqual(['33.34', '33.33', '33.33']);
  });
});

describe('docs/risk-rules.md#provisioning: idempotency_key', () => {
  it('a repeated key answers 200 with the original account ids and creates no account', () => {
    const h = provisioned();
    const first = h.provision({ user: ANN, count: 2, price_paid: '50.00', idempotency_key: 'purchase-1' });
    expect(first.status).toBe(201);
    const originalIds = first.ok ? (first.body.account_ids as string[]) : [];
    const accountsBefore = h.kernel.internals().accounts.size;
    const again = h.provision({ user: ANN, count: 2, price_paid: '50.00', idempotency_key: 'purchase-1' });
    expect(again.status, 'the repeat answers 200').toBe(200);
    expect(again.ok && again.body.account_ids, 'the original ids, in order').toEqual(originalIds);
    expect(h.kernel.internals().accounts.size, 'no new risk account').toBe(accountsBefore);
    const differentBody = h.provision({ user: { email: 'bob@example.com' }, count: 5, idempotency_key: 'purchase-1' });
    expect(
      [differentBody.status, differentBody.ok && differentBody.body.account_ids],
      'even with another body: the originals',
    ).toEqual([200, originalIds]);
    expect(h.kernel.internals().accounts.size).toBe(accountsBefore);
    const otherFirm = h.provision({ user: ANN, idempotency_key: 'purchase-1' }, h.firmB);
    expect(otherFirm.status, 'the same key in another firm is a new purchase').toBe(201);
  });
});

describe('docs/risk-rules.md#provisioning: an overlay clones the profile for that account only', () => {
  it('risk_profile {max_drawdown_value "2500"} on one account leaves another on the same plan at 2,000', () => {
    const h = provisioned();
    const plain = h.provision({ user: ANN });
    const overlaid = h.provision({ user: ANN, risk_profile: { max_drawdown_value: '2500', daily_loss_value: null } });
    const later = h.provision({ user: ANN });
    const [plainId, overlaidId, laterId] = [plain, overlaid, later].map((o) =>
      o.ok ? (o.body.account_ids as string[])[0]! : '',
    );
    expect(h.item(overlaidId!), 'overlay: trigger 50,000 - 2,500; daily-loss limit removed by null').toMatchObject({
      max_drawdown_value: '2500.00',
      max_loss_limit_trigger: '47500.00',
    });
    expect(h.item(overlaidId!).daily_loss_limit_trigger, 'no daily-loss limit on the overlaid account').toBeUndefined();
    for (const id of [plainId!, laterId!]) {
      expect(h.item(id), 'the template is unchanged: 50,000 - 2,000 and daily 49,000').toMatchObject({
        max_drawdown_value: '2000.00',
        max_loss_limit_trigger: '48000.00',
        daily_loss_limit_trigger: '49000.00',
      });
    }
    expect(h.kernel.internals().accounts.get(plainId!).plan.riskProfile, 'never the same profile object').not.toBe(
      h.kernel.internals().accounts.get(laterId!).plan.riskProfile,
    );
  });

  it('initial_balance overlay "100000": the floors are computed from 100,000', () => {
    const h = provisioned();
    const outcome = h.provision({ user: ANN, initial_balance: '100000' });
    const id = outcome.ok ? (outcome.body.account_ids as string[])[0]! : '';
    expect(h.item(id), '100,000 - 2,000 and 100,000 - 1,000').toMatchObject({
      starting_balance: '100000.00',
      max_loss_limit_trigger: '98000.00',
      daily_loss_limit_trigger: '99000.00',
    });
  });
});

describe('docs/risk-rules.md#provisioning GET /v1/firm-control/accounts: lookup by user_id and idempotency_key', () => {
  it('user_id returns that trader’s accounts; idempotency_key the accounts of one purchase', () => {
    const h = provisioned();
    const ann = h.provision({ user: ANN, count: 2, idempotency_key: 'p-ann' });
    const bob = h.provision({ user: { email: 'bob@example.com' }, idempotency_key: 'p-bob' });
    const annUser = ann.ok ? (ann.body.user_id as string) : '';
    const more = h.provision({ user_id: annUser });
    const annIds = [
      ...(ann.ok ? (ann.body.account_ids as string[]) : []),
      ...(more.ok ? (more.body.account_ids as string[]) : []),
    ];
    const byUser = h.listAccounts(FIRM, { user_id: annUser });
    expect(
      byUser.ok && (byUser.body.items as Array<{ account_id: string }>).map((r) => r.account_id),
      'Ann: 2 + 1 accounts in creation order',
    ).toEqual(annIds);
    const byKey = h.listAccounts(FIRM, { idempotency_key: 'p-bob' });
    expect(byKey.ok && (byKey.body.items as Array<{ account_id: string }>).map((r) => r.account_id)).toEqual(
      bob.ok ? bob.body.account_ids : [],
    );
    const unknown = h.listAccounts(FIRM, { idempotency_key: 'nope' });
    expect(unknown.ok && unknown.body.items, 'an unknown key matches nothing').toEqual([]);
    const otherFirm = h.listAccounts(h.firmB, { idempotency_key: 'p-bob' });
    expect(otherFirm.ok && otherFirm.body.items, 'another firm never sees them').toEqual([]);
  });
});

describe('docs/risk-rules.md#the-loading-window: risk-state answers 503 while the risk engine loads the account', () => {
  it('503 right after create, 200 once riskLoadDelayMs (default 250 ms) has passed', () => {
    const h = provisioned();
    const outcome = h.provision({ user: ANN });
    const id = outcome.ok ? (outcome.body.account_ids as string[])[0]! : '';
    const loading = h.kernel.read.riskState({}, id);
    expect(loading.status, 'right after create').toBe(503);
    expect(!loading.ok && loading.body.code).toBe('risk_loading');
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 249 });
    expect(h.kernel.read.riskState({}, id).status, 'at +249 ms: still loading').toBe(503);
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 1 });
    const ready = h.kernel.read.riskState({}, id);
    expect(ready.status, 'at +250 ms').toBe(200);
    expect(
      ready.ok && (ready.body.item as Record<string, unknown>).account_id,
      'one member item holding the risk state item',
    ).toBe(id);
  });

  it('the window follows the kernel option risk_load_delay_ms (1,000 ms)', () => {
    const h = provisioned({ kernel: { riskLoadDelayMs: 1000 } });
    const outcome = h.provision({ user: ANN });
    const id = outcome.ok ? (outcome.body.account_ids as string[])[0]! : '';
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 999 });
    expect(h.kernel.read.riskState({}, id).status).toBe(503);
    h.kernel.dispatch({ type: 'advance', to_ms: h.kernel.nowMs + 1 });
    expect(h.kernel.read.riskState({}, id).status).toBe(200);
  });

  it('an unknown account answers 404, not 503', () => {
    const h = provisioned();
    expect(h.kernel.read.riskState({}, '00000000-0000-4000-8000-000000000000').status).toBe(404);
  });

  it('expect-style reads (accountJson) are not subject to the loading window', () => {
    const h = provisioned();
    const outcome = h.provision({ user: ANN });
    const id = outcome.ok ? (outcome.body.account_ids as string[])[0]! : '';
    expect(h.item(id).balance).toBe('50000.00');
  });
});

describe('register_firm: a firm as written in a scenario input step', () => {
  it('malformed data is a 400 naming the field, never a crash, and registers nothing', () => {
    const h = riskHarness();
    const refused = (data: Record<string, unknown>) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- malformed on purpose: what a file may hold
      const outcome = h.kernel.dispatch({ type: 'register_firm', ...data } as any);
      expect(outcome.ok, JSON.stringify(data)).toBe(false);
      return outcome.ok ? undefined : { status: outcome.status, error: outcome.body.error };
    };
    expect(refused({})).toEqual({ status: 400, error: 'slug: expected a non-empty string, got nothing' });
    expect(refused({ slug: 'f', plans: 5 })).toEqual({
      status: 400,
      error: 'plans: expected a mapping of plan_reference to plan template, got the number 5',
    });
    expect(refused({ slug: 'f', plans: {}, staff: [{ email: 'bad' }] })).toMatchObject({
      status: 400,
      error: expect.stringMatching(/^staff\[0\]\.email: expected an email address/),
    });
    const firm = h.kernel.dispatch({ type: 'register_firm', slug: 'f', plans: {} });
    expect(firm.ok && firm.body.slug, 'the slug is free: nothing was registered by the refusals').toBe('f');
  });
});
