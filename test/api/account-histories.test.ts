// docs/api.md#the-dashboard: GET /v1/firm-control/account-histories, what the dashboard starts from. The worked
// session's account (test/api/worked-session.ts has the arithmetic), once the histories have started: equity
// 50,000.00 at opening, 51,495.80 after the two fills (+1,500.00 − 2 x 2.10); the max-loss floor stays at 48,000.00
// through the day and trails to 49,495.80 at the roll.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepLatest, MAX_KEPT } from '../../src/api/dashboard/account-histories.js';
import { KEYS } from './api-harness.js';
import { startListeningSandbox, type ListeningSandbox } from './listening-sandbox.js';
import { runWorkedSession } from './worked-session.js';

let server: ListeningSandbox;
beforeAll(async () => {
  server = await startListeningSandbox();
});
afterAll(async () => {
  await server?.app.close();
});

let newcomerAccount = '';
const FIRM = { 'X-Service-Api-Key': KEYS.acmeOperator };
const http: ListeningSandbox['http'] = (...args) => server.http(...args);

interface Point {
  at: number;
  equity: string;
  max_loss_limit_trigger: string;
}

describe('account histories (docs/api.md#the-dashboard)', () => {
  it("the worked session's account: trader and plan, its equity and floor at each move, its fills, and the sequence to follow from", async () => {
    const first = await http('GET', '/v1/firm-control/account-histories', FIRM);
    expect(first.status).toBe(200);
    const accountId = await runWorkedSession(http);
    newcomerAccount = accountId;
    const { status, body } = await http('GET', `/v1/firm-control/account-histories?account_id=${accountId}`, FIRM);
    expect(status).toBe(200);
    const [history] = body.items;
    expect(history).toMatchObject({
      account_id: accountId,
      trader_email: 'newcomer@example.com',
      trader_first_name: 'Nia',
      plan_reference: 'eval-50k',
      fill_count: 2,
      is_locked: false,
    });
    expect(history.fills).toHaveLength(2);
    const points: Point[] = history.points;
    // All three prints come at 08:00:01 CT, so the two fills make one point there (a second sample at one time
    // replaces the first): opened at 08:00:00, traded at 08:00:01, rolled at 17:00:00.
    expect(points.map((p) => p.at)).toEqual([
      Date.UTC(2026, 2, 2, 14, 0, 0),
      Date.UTC(2026, 2, 2, 14, 0, 1),
      Date.UTC(2026, 2, 2, 23, 0, 0),
    ]);
    expect(points.map((p) => p.equity)).toEqual(['50000.00', '51495.80', '51495.80']);
    expect(points.map((p) => p.max_loss_limit_trigger)).toEqual(['48000.00', '48000.00', '49495.80']);
    expect(history.fills).toEqual([Date.UTC(2026, 2, 2, 14, 0, 1), Date.UTC(2026, 2, 2, 14, 0, 1)]);
    // The sequence names the last firm-stream event the histories include: a later read, with nothing new, gives it again.
    const again = await http('GET', '/v1/firm-control/account-histories?limit=1', FIRM);
    expect(again.body.sequence).toBe(body.sequence);
    expect(body.sequence).toBeGreaterThan(first.body.sequence);
  });

  it("a reset starts the histories again: the seed's accounts with one point each, no fills", async () => {
    await http('POST', '/v1/sandbox/reset', { 'X-Service-Api-Key': KEYS.admin });
    const { body } = await http('GET', '/v1/firm-control/account-histories', FIRM);
    expect(body.items.length).toBeGreaterThan(0);
    for (const item of body.items) {
      expect(item.points).toHaveLength(1);
      expect(item.fill_count).toBe(0);
      expect(item.fills).toEqual([]);
    }
    expect(body.items.map((i: { account_id: string }) => i.account_id)).not.toContain(newcomerAccount);
  });

  it('an account of another firm is not found (404 account_not_found)', async () => {
    const accounts = await http('GET', '/v1/firm-control/accounts', FIRM);
    const acmeAccount: string = accounts.body.items[0].account_id;
    const summit = { 'X-Service-Api-Key': KEYS.summitOperator };
    const answer = await http('GET', `/v1/firm-control/account-histories?account_id=${acmeAccount}`, summit);
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('account_not_found');
  });

  it('what an account keeps is bounded: past MAX_KEPT items, the oldest tenth goes and the latest stay', () => {
    const list: number[] = [];
    for (let i = 1; i <= MAX_KEPT; i++) keepLatest(list, i);
    expect(list).toHaveLength(MAX_KEPT);
    keepLatest(list, MAX_KEPT + 1);
    // 501 items > 500: keep floor(500 x 0.9) = 450, the items 52 … 501.
    expect(list).toHaveLength(450);
    expect(list[0]).toBe(MAX_KEPT + 1 - 449);
    expect(list.at(-1)).toBe(MAX_KEPT + 1);
  });
});
