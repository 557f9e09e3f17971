// The rules of the clock over HTTP (docs/api.md#provisioning-overlays, docs/risk-rules.md#rules-of-the-clock):
// provisioning takes risk_profile.flat_by, flat_by_action, hold_over_weekend and news (events inline: the API reads no
// file) as overlays and refuses a bad one with 400 naming the field; a news blackout refuses an entry with its code
// and flattens at its start; the flat time locks the account (lockout_reason flat_by in the risk-state item). The
// sandbox starts Mon 2026-03-02 08:00 CST (UTC-6): CPI at 09:30 CST on ES, window [09:28, 09:32); flat_by 15:59 CST.
import { describe, expect, it } from 'vitest';
import { streamEventOf } from '../../src/api/streams/stream-events.js';
import { firmCalls, KEYS, sharedTestApi } from './api-harness.js';

const admin = { 'x-service-api-key': KEYS.admin };
const CPI = { time: '2026-03-02T09:30:00-06:00', roots: ['ES'], name: 'CPI' };

describe('docs/risk-rules.md#rules-of-the-clock over the API: overlays, refusals, the risk state', () => {
  const api = sharedTestApi();
  const { call, provision, accountCount } = firmCalls(api, 'clock@example.com');
  const advance = (to: string) => call('POST', '/v1/sandbox/clock/advance', { to }, admin);
  const print = (price: string) =>
    call('POST', '/v1/sandbox/market/prints', { prints: [{ instrument_id: 'ESM6', price }] }, admin);
  const buy = async (accountId: string) => {
    const placed = await call('POST', '/v1/orders', {
      account_id: accountId,
      instrument_id: 'ESM6',
      side: 'buy',
      type: 'market',
      quantity: 1,
      time_in_force: 'day',
    });
    expect(placed.status).toBe(202);
    return placed.body.order_id as string;
  };
  const orderOf = async (id: string) => (await call('GET', `/v1/orders/${id}`)).body;
  const riskState = async (id: string) => (await call('GET', `/v1/firm-control/accounts/${id}/risk-state`)).body.item;

  it('news flatten at 09:28, an entry refused in the window, and flat_by 15:59 locking the account', async () => {
    const created = await provision({
      risk_profile: { flat_by: '15:59', news: { events: [CPI], action: 'flatten' } },
      passing_criteria: { time_limit_days: 30 },
    });
    expect(created.status).toBe(201);
    const accountId = created.body.account_ids[0] as string;
    await print('5000.00');
    const entry = await buy(accountId);
    await print('5000.00');
    expect((await orderOf(entry)).status).toBe('FILLED');
    await advance('2026-03-02T09:28:00-06:00');
    await print('5002.00');
    expect(
      (await riskState(accountId)).balance,
      'flattened at 09:28, sold at 5002.00: +2 x 50 - 2 x $2.10 commission = +95.80',
    ).toBe('50095.80');
    await advance('2026-03-02T09:29:00-06:00');
    expect(await orderOf(await buy(accountId))).toMatchObject({
      status: 'REJECTED',
      error: {
        code: 'news_blackout',
        message:
          'orders that open or add to a position in ES are refused in the news blackout from 09:28:00 to 09:32:00 CT around CPI at 2026-03-02T09:30:00.000-06:00',
      },
    });
    await advance('2026-03-02T15:59:00-06:00');
    expect(await riskState(accountId)).toMatchObject({
      is_locked: true,
      lockout_reason: 'flat_by',
      account_status: 'active',
    });
    expect(await orderOf(await buy(accountId))).toMatchObject({
      status: 'REJECTED',
      error: { code: 'account_locked' },
    });
  });

  it.each([
    [
      'a news file: the API reads none',
      { risk_profile: { news: { file: 'news.csv' } } },
      'risk_profile.news.file',
      /unknown/,
    ],
    ['a flat_by after 15:59', { risk_profile: { flat_by: '16:30' } }, 'risk_profile.flat_by', /HH:MM/],
    [
      'flat_by_action fail without a flat time',
      { risk_profile: { flat_by_action: 'fail' } },
      'risk_profile.flat_by_action',
      /^flat_by_action fail needs risk_profile.flat_by or hold_over_weekend false/,
    ],
    [
      'news without events on a plan that has none',
      { risk_profile: { news: { action: 'fail' } } },
      'risk_profile.news.events',
      /^expected the events/,
    ],
    [
      'an unknown root',
      { risk_profile: { news: { events: [{ time: CPI.time, roots: ['XX'] }] } } },
      'risk_profile.news.events[0].roots[0]',
      /^expected one of ES, MES/,
    ],
  ])('refuses %s with 400 naming the field, and stores nothing', async (_what, overlay, field, words) => {
    const before = await accountCount();
    const refused = await provision(overlay);
    expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    const detail = (refused.body.details as { field: string; message: string }[])[0]!;
    expect(detail.field).toBe(field);
    expect(detail.message).toMatch(words);
    expect(await accountCount()).toBe(before);
  });

  it('the firm stream carries accounts.flattened as account.flattened', () => {
    const data = { account_id: 'a', rule: 'flat_by', reason: 'r', cancelled_orders: 0, closing_orders: 1 };
    expect(streamEventOf({ type: 'accounts.flattened', timeMs: 1, data }, 7)).toMatchObject({
      type: 'account.flattened',
      firm: true,
      channel: undefined,
      data,
    });
  });
});
