// docs/api.md#the-dashboard: /dashboard in a real headless chromium against a real listening sandbox. It loads,
// connects to the firm stream with a one-time ticket, draws each account, and a fill moves the account's equity
// line: one ES contract bought at 5000.00 into a 5000.00 print costs the 2.10 commission, so equity goes from
// 50,000.00 to 49,997.90.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser/chromium.js';
import { KEYS, marketOrderBody } from './api-harness.js';
import { checkedFetch } from './openapi-responses.js';
import { startListeningSandbox, type ListeningSandbox } from './listening-sandbox.js';
import { runWorkedSession } from './worked-session.js';

let server: ListeningSandbox;
let base: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startListeningSandbox();
  base = `http://${server.address}`;
  browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox'] });
  page = await browser.newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.app.close();
});

const http: ListeningSandbox['http'] = (...args) => server.http(...args);
const operator = { 'X-Service-Api-Key': KEYS.acmeOperator };
const admin = { 'X-Service-Api-Key': KEYS.admin };

/** The page's own state (window.dashboard), as the tests read it. */
interface PageState {
  connected: boolean;
  sequence: number;
  accounts: Record<string, { points: Array<Array<number | null>>; fills: unknown[]; fillCount: number }>;
}
type PageGlobals = typeof globalThis & {
  dashboard: PageState;
  document: { querySelectorAll(selector: string): { length: number } };
};

interface AccountView {
  points: number;
  equities: number[];
  fills: number;
  paths: number;
}

/** The max-loss floor of each point of the account's line. */
const floorsOf = (accountId: string): Promise<number[]> =>
  page.evaluate(
    (id) => (globalThis as PageGlobals).dashboard.accounts[id]!.points.map((p) => p[2] as number),
    accountId,
  );

/** Where a test leaves its screenshots, to look at the page as a reader would. */
const screenshotPath = (name: string) => join(tmpdir(), `propsim-${name}`) as `${string}.png`;

const viewOf = (accountId: string): Promise<AccountView> =>
  page.evaluate((id) => {
    const page = globalThis as PageGlobals;
    const account = page.dashboard.accounts[id]!;
    return {
      points: account.points.length,
      equities: account.points.map((p) => p[1] as number),
      fills: account.fills.length,
      paths: page.document.querySelectorAll(`[data-account="${id}"] svg path`).length,
    };
  }, accountId);

describe('docs/api.md#the-dashboard in a real browser', () => {
  it('loads, connects with a ticket, draws every account, and a fill moves the equity line', async () => {
    const accounts = await http('GET', '/v1/firm-control/accounts', operator);
    const accountId: string = accounts.body.items[0].account_id;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));

    const loaded = await page.goto(`${base}/dashboard`);
    expect(loaded?.status()).toBe(200);
    await page.type('#key', KEYS.acmeOperator);
    await page.click('#connect');
    await page.waitForFunction(() => (globalThis as PageGlobals).dashboard.connected, { timeout: 15_000 });
    const count = accounts.body.items.length;
    expect(await page.$eval('#status', (el) => el.textContent)).toBe(`live: ${count} account${count === 1 ? '' : 's'}`);
    const before = await viewOf(accountId);
    expect(before.equities).toEqual([50_000]);
    expect(before.paths).toBeGreaterThan(0); // the chart is drawn as SVG

    await http('POST', '/v1/sandbox/clock/advance', admin, { by: '1s' }); // past the risk engine's loading window
    const placed = await http('POST', '/v1/orders', operator, marketOrderBody(accountId));
    expect(placed.status).toBe(202);
    await http('POST', '/v1/sandbox/market/prints', admin, { prints: [{ instrument_id: 'ESM6', price: '5000.00' }] });

    await page.waitForFunction(
      (id) => {
        const account = (globalThis as PageGlobals).dashboard.accounts[id]!;
        return account.fills.length === 1 && account.points.at(-1)?.[1] === 49_997.9;
      },
      { timeout: 15_000 },
      accountId,
    );
    const after = await viewOf(accountId);
    expect(after.fills).toBe(1);
    expect(after.equities.at(-1)).toBe(49_997.9);
    expect(await page.$eval(`[data-account="${accountId}"] .figures`, (el) => el.textContent)).toContain(
      'equity 49997.90',
    );
    expect(errors).toEqual([]);
  }, 60_000);

  it('events that come faster than the page reads: the line stays in time order and ends at the live equity, and every fill sits on it', async () => {
    const accounts = await http('GET', '/v1/firm-control/accounts', operator);
    const accountId: string = accounts.body.items[0].account_id;
    const before = await viewOf(accountId);
    // Five round turns' worth of fills and prints, each request sent as soon as the last one is answered: the page
    // gets their events while its own reads of the risk state are still on their way.
    for (let i = 0; i < 5; i++) {
      await http('POST', '/v1/orders', operator, marketOrderBody(accountId, i % 2 === 0 ? 'sell' : 'buy'));
      const price = (5000 + (i % 2 === 0 ? 2 : -3) * (i + 1)).toFixed(2);
      await http('POST', '/v1/sandbox/market/prints', admin, { prints: [{ instrument_id: 'ESM6', price }] });
      await http('POST', '/v1/sandbox/clock/advance', admin, { by: '1m' });
    }
    const live = await http('GET', `/v1/firm-control/accounts/${accountId}/risk-state`, operator);
    const equity = Number(live.body.item.equity);
    await page.waitForFunction(
      (id, fills, equity) => {
        const account = (globalThis as PageGlobals).dashboard.accounts[id]! as unknown as {
          fills: unknown[];
          points: number[][];
          chart: { getOption(): { series: Array<{ data: number[][] }> } };
        };
        // The chart is redrawn after the page's model takes the events: wait for both, then read the chart.
        const drawnFills = account.chart.getOption().series[3]?.data.length;
        return account.fills.length === fills && account.points.at(-1)?.[1] === equity && drawnFills === fills;
      },
      { timeout: 15_000 },
      accountId,
      before.fills + 5,
      equity,
    );
    const drawn = await page.evaluate((id) => {
      const account = (globalThis as PageGlobals).dashboard.accounts[id]! as unknown as {
        points: number[][];
        chart: { getOption(): { series: Array<{ data: number[][] }> } };
      };
      return { points: account.points, fills: account.chart.getOption().series[3]!.data };
    }, accountId);
    const times = drawn.points.map((p) => p[0]!);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // A fill's marker is on the step line: the equity of the last sample at or before its time.
    const lineAt = (t: number) => drawn.points.filter((p) => p[0]! <= t).at(-1)![1];
    expect(drawn.fills).toHaveLength(before.fills + 5);
    for (const [t, y] of drawn.fills) expect(y).toBe(lineAt(t!));
  }, 60_000);

  it("the docs' worked session, run after connecting: the new account appears with its trader and plan, its fills, and its floor moving at the roll", async () => {
    const accountId = await runWorkedSession(http);
    const card = `[data-account="${accountId}"]`;
    // The roll's sample ends the story: the max-loss floor at 49,495.80 (51,495.80 − 2,000.00).
    await page.waitForFunction(
      (id) => {
        const account = (globalThis as PageGlobals).dashboard.accounts[id];
        return account !== undefined && account.fillCount === 2 && account.points.at(-1)?.[2] === 49_495.8;
      },
      { timeout: 15_000 },
      accountId,
    );
    expect(await page.$eval(`${card} h2`, (el) => el.textContent)).toBe('Nia (newcomer@example.com) · eval-50k');
    const view = await viewOf(accountId);
    expect(view.fills).toBe(2);
    expect(view.equities.at(-1)).toBe(51_495.8);
    expect(await floorsOf(accountId)).toContain(48_000);
    // The new day's daily-loss floor is 1,000.00 under the closing balance: 51,495.80 − 1,000.00 = 50,495.80.
    expect(await page.$eval(`${card} .figures`, (el) => el.textContent)).toBe(
      'equity 51495.80 · max-loss floor 49495.80 · daily-loss floor 50495.80 · fills 2',
    );
    // The clock line shows the simulated time: the roll, Monday 17:00:00 CT.
    expect(await page.$eval('#clock', (el) => el.textContent)).toBe('simulated clock: Mon 2026-03-02 17:00:00 CT');
    await page.screenshot({ path: screenshotPath('dashboard-live.png'), fullPage: true });
  }, 60_000);

  it("after a reload the page loads each account's history: the same account, its fills and its chart", async () => {
    const accounts = await http('GET', '/v1/firm-control/accounts?limit=100', operator);
    const accountId: string = accounts.body.items.at(-1).account_id; // the worked session's, the newest
    await page.reload();
    await page.type('#key', KEYS.acmeOperator);
    await page.click('#connect');
    await page.waitForFunction(() => (globalThis as PageGlobals).dashboard.connected, { timeout: 15_000 });
    const view = await viewOf(accountId);
    expect(view.fills).toBe(2);
    expect(view.equities).toEqual([50_000, 51_495.8, 51_495.8]);
    expect(await floorsOf(accountId)).toEqual([48_000, 48_000, 49_495.8]);
    expect(view.paths).toBeGreaterThan(0);
    const drawnFills = await page.evaluate(
      (id) =>
        (
          (globalThis as PageGlobals).dashboard.accounts[id] as unknown as {
            chart: { getOption(): { series: Array<{ data: number[][] }> } };
          }
        ).chart.getOption().series[3]!.data,
      accountId,
    );
    expect(drawnFills.map(([, equity]) => equity)).toEqual([51_495.8, 51_495.8]);
    expect(await page.$eval(`[data-account="${accountId}"] h2`, (el) => el.textContent)).toBe(
      'Nia (newcomer@example.com) · eval-50k',
    );
    await page.screenshot({ path: screenshotPath('dashboard-reloaded.png'), fullPage: true });
  }, 60_000);

  it('a dropped stream reconnects and resumes from the last event it saw', async () => {
    const accounts = await http('GET', '/v1/firm-control/accounts?limit=100', operator);
    const accountId: string = accounts.body.items[0].account_id;
    const before = await viewOf(accountId);
    // The server closes the firm stream's sockets (as a restart would); the page opens a new one with since_sequence.
    for (const client of server.app.websocketServer.clients) client.terminate();
    await page.waitForFunction(() => !(globalThis as PageGlobals).dashboard.connected, { timeout: 5_000 });
    await http('POST', '/v1/orders', operator, marketOrderBody(accountId));
    await http('POST', '/v1/sandbox/market/prints', admin, { prints: [{ instrument_id: 'ESM6', price: '5000.00' }] });
    await page.waitForFunction(
      (id, fills) => {
        const state = (globalThis as PageGlobals).dashboard;
        return state.connected && state.accounts[id]!.fillCount === fills;
      },
      { timeout: 15_000 },
      accountId,
      before.fills + 1,
    );
  }, 60_000);

  it('a firm with more accounts than a page shows the first hundred, and says so', async () => {
    const summit = { 'X-Service-Api-Key': KEYS.summitOperator };
    for (const email of ['many1@example.com', 'many2@example.com']) {
      const made = await http('POST', '/v1/firm-control/accounts', summit, {
        user: { email, first_name: 'Many' },
        plan_reference: 'eval-50k',
        count: 60,
      });
      expect(made.status).toBe(201);
    }
    await page.reload();
    await page.type('#key', KEYS.summitOperator);
    await page.click('#connect');
    await page.waitForFunction(() => (globalThis as PageGlobals).dashboard.connected, { timeout: 30_000 });
    expect(await page.$eval('#status', (el) => el.textContent)).toBe(
      "live: the first 100 of the firm's accounts (it has more)",
    );
    expect(await page.evaluate(() => Object.keys((globalThis as PageGlobals).dashboard.accounts).length)).toBe(100);
  }, 60_000);

  it('a used ticket does not open the stream again (401 invalid_ticket)', async () => {
    const { body } = await http('POST', '/v1/firm-ws/tickets', operator);
    const first = await checkedFetch(`${base}/v1/firm-ws?ticket=${body.ticket}`);
    expect(first.status).toBe(426); // admitted by the ticket; a plain GET is told to upgrade
    const again = await checkedFetch(`${base}/v1/firm-ws?ticket=${body.ticket}`);
    expect(again.status).toBe(401);
    expect(((await again.json()) as { code: string }).code).toBe('invalid_ticket');
  });
});
