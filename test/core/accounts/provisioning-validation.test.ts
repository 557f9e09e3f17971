// A provisioning request the registry refuses: 400 invalid_request naming the field in its details, for each field
// that can be wrong, a body that is not an object, and a malformed body whose idempotency key repeats.
import { describe, expect, it } from 'vitest';
import { ANN, NOW_MS, refusal, setup } from './provisioning-registry.js';

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
