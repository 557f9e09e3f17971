// Contract limits over HTTP (docs/api.md#provisioning-overlays, docs/risk-rules.md#position-limits): provisioning takes
// risk_profile.scaling and position_limits as overlays and refuses a bad one with 400 naming the field (nothing is
// stored); the risk-state item shows max_contracts_now and scaling_profit; an order beyond a limit ends REJECTED with
// the rule's code and a message naming it. acme's eval-50k is the bundled eval-50k-eod (max_contracts 5).
import { describe, expect, it } from 'vitest';
import { firmCalls, KEYS, sharedTestApi } from './api-harness.js';

const admin = { 'x-service-api-key': KEYS.admin };

describe('docs/risk-rules.md#position-limits over the API: overlays, the risk state and the rejections', () => {
  const api = sharedTestApi();
  const { call, provision, accountCount } = firmCalls(api, 'limits@example.com');
  /** A market order, and the order as it stands once the venue has seen it. */
  const order = async (accountId: string, instrument: string, quantity: number) => {
    const placed = await call('POST', '/v1/orders', {
      account_id: accountId,
      instrument_id: instrument,
      side: 'buy',
      type: 'market',
      quantity,
      time_in_force: 'day',
    });
    expect(placed.status).toBe(202);
    return (await call('GET', `/v1/orders/${placed.body.order_id}`)).body;
  };

  it('takes scaling and position_limits overlays; the risk state shows the limit now; orders meet each rule', async () => {
    const created = await provision({
      risk_profile: {
        scaling: [
          { from_profit: '0', max_contracts: 2 },
          { from_profit: '1500', max_contracts: 4 },
        ],
      },
      position_limits: { max_contracts_per_root: { NQ: 1 }, micro_ratio: 10 },
    });
    expect(created.status).toBe(201);
    const accountId = created.body.account_ids[0] as string;
    expect(created.body.accounts[0], 'min(max_contracts 5, the tier from 0: 2) = 2').toMatchObject({
      max_contracts_now: 2,
      scaling_profit: '0.00',
    });
    await call('POST', '/v1/sandbox/clock/advance', { by: '1s' }, admin);
    expect((await call('GET', `/v1/firm-control/accounts/${accountId}/risk-state`)).body.item).toMatchObject({
      max_contracts_now: 2,
      scaling_profit: '0.00',
    });

    expect(await order(accountId, 'ESM6', 3), '|0 + 3| = 3 > 2').toMatchObject({
      status: 'REJECTED',
      error: {
        code: 'scaling_limit_exceeded',
        message:
          "3 contracts in minis, 10 micros counting as 1 (ESM6: net 0, same-side working 0, this order 3) would exceed the scaling plan's 2 at $0.00 profit (tier from $0.00)",
      },
    });
    expect(await order(accountId, 'NQM6', 2), 'NQ 2 > 1; the account-wide 2 ≤ 2 holds').toMatchObject({
      status: 'REJECTED',
      error: {
        code: 'root_limit_exceeded',
        message:
          "2 NQ contracts in minis, 10 micros counting as 1 (NQM6: net 0, same-side working 0, this order 2) would exceed the account's limit of 1 for NQ",
      },
    });
    expect((await order(accountId, 'MESM6', 20)).status, '20 micros = 2 minis ≤ 2').toBe('SUBMITTED');
  });

  it('null removes the plan’s max_contracts: no limit now, and the risk state leaves the field out', async () => {
    const created = await provision({ position_limits: { max_contracts: null } });
    expect(created.status).toBe(201);
    expect(created.body.accounts[0]).not.toHaveProperty('max_contracts_now');
  });

  it.each([
    [
      'a root outside the catalog',
      { position_limits: { max_contracts_per_root: { ES: 2, XY: 1 } } },
      'position_limits.max_contracts_per_root.XY',
      /^unknown key; expected one of ES, MES, /,
    ],
    [
      'tiers out of order',
      {
        risk_profile: {
          scaling: [
            { from_profit: '0', max_contracts: 2 },
            { from_profit: '0', max_contracts: 4 },
          ],
        },
      },
      'risk_profile.scaling[1].from_profit',
      /^expected a from_profit above the tier before's "0\.00"/,
    ],
    [
      'a first tier above 0',
      { risk_profile: { scaling: [{ from_profit: '100', max_contracts: 2 }] } },
      'risk_profile.scaling[0].from_profit',
      /^expected the first tier at or below "0"/,
    ],
    [
      'a ratio of 0',
      { position_limits: { micro_ratio: 0 } },
      'position_limits.micro_ratio',
      /^expected an integer from 1 to 1000, or null to remove it, got 0/,
    ],
    ['an unknown key', { position_limits: { max_lots: 3 } }, 'position_limits.max_lots', /^unknown field/],
  ])(
    'refuses %s with 400 invalid_request naming the field, and stores nothing',
    async (_what, overlay, field, words) => {
      const before = await accountCount();
      const refused = await provision(overlay);
      expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      const detail = (refused.body.details as { field: string; message: string }[])[0]!;
      expect(detail.field).toBe(field);
      expect(detail.message).toMatch(words);
      expect(await accountCount(), 'a refused request stores nothing').toBe(before);
    },
  );
});
