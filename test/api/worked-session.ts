// docs/api.md#a-worked-session, step by step, for the tests that watch it: provision Nia on acme's eval-50k plan
// (50,000.00, max-loss floor 48,000.00), wait out the risk engine's loading window, buy one ES at 5000.00, sell it at
// 5030.00, and advance to the 17:00 CT session roll. Balance: 50,000.00 + 30 points x $50 − 2 x 2.10 = 51,495.80; at
// the roll the eod_balance floor trails it by the 2,000.00 allowance: 51,495.80 − 2,000.00 = 49,495.80.
import { expect } from 'vitest';
import { KEYS } from './api-harness.js';
import type { ListeningSandbox } from './listening-sandbox.js';

const FIRM = { 'X-Service-Api-Key': KEYS.acmeOperator };
const ADMIN = { 'X-Service-Api-Key': KEYS.admin };

const order = (accountId: string, side: 'buy' | 'sell') => ({
  account_id: accountId,
  instrument_id: 'ESM6',
  side,
  type: 'market',
  quantity: 1,
  time_in_force: 'day',
});
const print = (price: string) => ({ prints: [{ instrument_id: 'ESM6', price }] });

/** Runs the session; answers the new account's id. */
export async function runWorkedSession(http: ListeningSandbox['http']): Promise<string> {
  const made = await http('POST', '/v1/firm-control/accounts', FIRM, {
    user: { email: 'newcomer@example.com', first_name: 'Nia' },
    plan_reference: 'eval-50k',
  });
  expect(made.status).toBe(201);
  const accountId: string = made.body.account_ids[0];
  await http('POST', '/v1/sandbox/clock/advance', ADMIN, { by: '1s' });
  expect((await http('POST', '/v1/orders', FIRM, order(accountId, 'buy'))).status).toBe(202);
  await http('POST', '/v1/sandbox/market/prints', ADMIN, print('5000.00'));
  await http('POST', '/v1/sandbox/market/prints', ADMIN, print('5030.00'));
  expect((await http('POST', '/v1/orders', FIRM, order(accountId, 'sell'))).status).toBe(202);
  await http('POST', '/v1/sandbox/market/prints', ADMIN, print('5030.00'));
  await http('POST', '/v1/sandbox/clock/advance', ADMIN, { to_next: 'session_roll' });
  const risk = await http('GET', `/v1/firm-control/accounts/${accountId}/risk-state`, FIRM);
  expect(risk.body.item.balance).toBe('51495.80');
  expect(risk.body.item.max_loss_limit_trigger).toBe('49495.80');
  return accountId;
}
