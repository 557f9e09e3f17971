// Daily position records (docs/order-lifecycle.md#daily-position-records) of replayed scenarios, checked against
// hand-computed numbers: one record per (instrument, trade date) held or traded, state at the session close, marks at
// the last print at or before the close, realized P&L of the trade date.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../../src/core/calendar/globex-calendar.js';
import { parseJournal } from '../../../src/core/kernel/persistence/journal-replay.js';
import {
  dailyPositions,
  positionHistoryOf,
  RunPrints,
  type DailyPositionRecord,
  type PositionHistory,
} from '../../../src/core/kernel/read/daily-positions.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';
import { loadScenarioFile } from '../../../src/scenario/load-scenario.js';
import { runScenario, type ScenarioRun } from '../../../src/scenario/runner.js';

const calendar = new GlobexCalendar(loadHolidayFile());

async function run(yaml: string): Promise<ScenarioRun> {
  const file = join(mkdtempSync(join(tmpdir(), 'propsim-daily-')), 'scenario.yaml');
  writeFileSync(file, yaml);
  const result = await runScenario(loadScenarioFile(file), { calendar });
  expect(result.expectations.filter((e) => !e.passed)).toEqual([]);
  return result;
}

function accountId(history: PositionHistory, alias: string): string {
  const account = history.accounts.find((a) => a.alias === alias);
  if (!account) throw new Error(`no account ${alias}`);
  return account.accountId;
}

/** [trade_date, instrument_id, net_quantity, average_price, realized_pnl, unrealized_pnl] */
type Row = [string, string, number, string | null, string, string];
const record = ([
  trade_date,
  instrument_id,
  net_quantity,
  average_price,
  realized_pnl,
  unrealized_pnl,
]: Row): DailyPositionRecord => ({
  trade_date,
  instrument_id,
  net_quantity,
  ...(average_price === null ? {} : { average_price }), // flat: no average price (docs/api.md#shapes)
  realized_pnl,
  unrealized_pnl,
});

const PLAN = `plans:
  p:
    starting_balance: "50000"
    risk_profile: { max_drawdown_mode: static, max_drawdown_value: "5000" }
    passing_criteria: { profit_target: "100000" }
`;

// ES $50 a point, CL $1000 a point; commission 0. CT is UTC-5 (DST began 2026-03-08). Sessions close 16:00 CT.
const WEEK = `name: daily positions across rolls
start: 2026-03-10T08:00:00-05:00
${PLAN}accounts:
  - { alias: alice, plan: p }
  - { alias: bob, plan: p }
steps:
  # Tue 03-10: buy 2 at 5000, sell 1 at 5010 (+500.00); CL round trip 70.00 -> 70.50 (+500.00), flat
  - tick: { instrument: ESM6, price: "5000.00" }
  - fill: { account: alice, instrument: ESM6, side: buy, quantity: 2, price: "5000.00" }
  - at: 2026-03-10T10:00:00-05:00
  - fill: { account: alice, instrument: ESM6, side: sell, quantity: 1, price: "5010.00" }
  - at: 2026-03-10T11:00:00-05:00
  - fill: { account: alice, instrument: CLK6, side: buy, quantity: 1, price: "70.00" }
  - at: 2026-03-10T12:00:00-05:00
  - fill: { account: alice, instrument: CLK6, side: sell, quantity: 1, price: "70.50" }
  - at: 2026-03-10T15:00:00-05:00
  - tick: { instrument: ESM6, price: "5012.00" }          # Tue close mark: 1 x 12 x 50 = 600.00
  - at: 2026-03-10T16:30:00-05:00
  - tick: { instrument: ESM6, price: "5030.00" }          # after the close: Wednesday's session
  # Wed 03-11: no fills of alice; held overnight
  - at: 2026-03-11T09:00:00-05:00
  - tick: { instrument: ESM6, price: "5005.00" }          # Wed close mark: 250.00
  - at: 2026-03-11T10:00:00-05:00
  - fill: { account: bob, instrument: ESM6, side: buy, quantity: 1, price: "5001.00" }
  # Thu 03-12: a print exactly at the close counts; a fill exactly at the close is Friday's
  - at: 2026-03-12T16:00:00-05:00
  - tick: { instrument: ESM6, price: "5030.00" }          # Thu: 30 x 50 = 1500.00
  - fill: { account: alice, instrument: ESM6, side: buy, quantity: 1, price: "5030.00" }
  # Fri 03-13: sell 1 closes the 5000 lot FIFO (+1000.00); left long 1 at 5030
  - at: 2026-03-13T09:00:00-05:00
  - fill: { account: alice, instrument: ESM6, side: sell, quantity: 1, price: "5020.00" }
  - at: 2026-03-13T15:59:00-05:00
  - tick: { instrument: ESM6, price: "5018.00" }          # Fri: -12 x 50 = -600.00
  # Mon 03-16: its session opens Sunday 17:00; the run ends Monday 10:00, mid-session
  - at: 2026-03-15T17:30:00-05:00
  - tick: { instrument: ESM6, price: "5000.00" }          # Mon: -30 x 50 = -1500.00
  - at: 2026-03-16T10:00:00-05:00
  - expect: { position: { account: alice, instrument: ESM6 }, net_quantity: 1, average_price: "5030.00", realized_pnl: "1500.00", unrealized_pnl: "-1500.00" }
`;

describe('daily position records (docs/order-lifecycle.md#daily-position-records)', () => {
  it('one record per instrument and trade date held or traded: overnight holds, a flat day, the weekend skipped', async () => {
    const history = positionHistoryOf(parseJournal((await run(WEEK)).journal));
    const alice = accountId(history, 'alice');
    const records = dailyPositions(history, calendar, {
      accountId: alice,
      fromDate: '2026-03-01',
      toDate: '2026-03-31',
    });
    expect(records).toEqual(
      (
        [
          ['2026-03-10', 'CLK6', 0, null, '500.00', '0.00'],
          ['2026-03-10', 'ESM6', 1, '5000.00', '500.00', '600.00'],
          ['2026-03-11', 'ESM6', 1, '5000.00', '0.00', '250.00'],
          ['2026-03-12', 'ESM6', 1, '5000.00', '0.00', '1500.00'],
          ['2026-03-13', 'ESM6', 1, '5030.00', '1000.00', '-600.00'],
          ['2026-03-16', 'ESM6', 1, '5030.00', '0.00', '-1500.00'],
        ] satisfies Row[]
      ).map(record),
    );
  });

  it("another account's records are its own; the marks are the instrument's prints", async () => {
    const history = positionHistoryOf(parseJournal((await run(WEEK)).journal));
    const bob = accountId(history, 'bob');
    expect(dailyPositions(history, calendar, { accountId: bob, fromDate: '2026-03-01', toDate: '2026-03-31' })).toEqual(
      (
        [
          ['2026-03-11', 'ESM6', 1, '5001.00', '0.00', '200.00'],
          ['2026-03-12', 'ESM6', 1, '5001.00', '0.00', '1450.00'],
          ['2026-03-13', 'ESM6', 1, '5001.00', '0.00', '850.00'],
          ['2026-03-16', 'ESM6', 1, '5001.00', '0.00', '-50.00'],
        ] satisfies Row[]
      ).map(record),
    );
  });

  it('the last record agrees with the final position; realized by trade date sums to the total', async () => {
    const result = await run(WEEK);
    const history = positionHistoryOf(parseJournal(result.journal));
    const alice = accountId(history, 'alice');
    const records = dailyPositions(history, calendar, {
      accountId: alice,
      fromDate: '2026-03-01',
      toDate: '2026-03-31',
    });
    for (const position of result.final.positions.filter((p) => p.account_id === alice)) {
      const own = records.filter((r) => r.instrument_id === position.instrument_id);
      const last = own.at(-1)!;
      expect([last.net_quantity, last.average_price, last.unrealized_pnl]).toEqual([
        position.net_quantity,
        position.average_price,
        position.unrealized_pnl,
      ]);
      const cents = own.reduce((sum, r) => sum + Math.round(Number(r.realized_pnl) * 100), 0);
      expect((cents / 100).toFixed(2)).toBe(position.realized_pnl);
    }
  });

  it('the range, the instrument filter and trade dates after the run', async () => {
    const history = positionHistoryOf(parseJournal((await run(WEEK)).journal));
    const alice = accountId(history, 'alice');
    const query = (fromDate: string, toDate: string, instrumentId?: string) =>
      dailyPositions(history, calendar, {
        accountId: alice,
        fromDate,
        toDate,
        ...(instrumentId === undefined ? {} : { instrumentId }),
      }).map((r) => `${r.trade_date} ${r.instrument_id}`);
    expect(query('2026-03-11', '2026-03-12')).toEqual(['2026-03-11 ESM6', '2026-03-12 ESM6']);
    expect(query('2026-03-01', '2026-03-31', 'CLK6')).toEqual(['2026-03-10 CLK6']);
    expect(query('2026-03-01', '2026-03-31', 'NQM6')).toEqual([]);
    expect(query('2026-03-14', '2026-03-15')).toEqual([]); // a weekend has no trade dates
    expect(query('2026-03-17', '2026-03-31')).toEqual([]); // sessions the run never reached
    expect(query('2026-03-12', '2026-03-11')).toEqual([]);
  });

  it('a historical fill journaled a day late counts at the close of the day it occurred; no record after the run', async () => {
    const history = positionHistoryOf(
      parseJournal(
        (
          await run(`name: late fill
start: 2026-03-10T14:30:00-05:00
${PLAN}accounts: [ { alias: alice, plan: p } ]
steps:
  - tick: { instrument: ESM6, price: "5010.00" }
  - at: 2026-03-11T09:00:00-05:00
  - fill: { account: alice, instrument: ESM6, side: buy, quantity: 1, price: "5000.00", at: 2026-03-10T14:00:00-05:00 }
  - tick: { instrument: ESM6, price: "5020.00" }
  - at: 2026-03-11T16:30:00-05:00                         # ends after Wednesday's close, before Thursday opens
`)
        ).journal,
      ),
    );
    expect(
      dailyPositions(history, calendar, {
        accountId: accountId(history, 'alice'),
        fromDate: '2026-03-10',
        toDate: '2026-03-12',
      }),
    ).toEqual(
      (
        [
          ['2026-03-10', 'ESM6', 1, '5000.00', '0.00', '500.00'],
          ['2026-03-11', 'ESM6', 1, '5000.00', '0.00', '1000.00'],
        ] satisfies Row[]
      ).map(record),
    );
  });

  it("holiday sessions: Good Friday 2026 closes ES at 08:15 CT and has no CL session (each instrument's own calendar)", async () => {
    const history = positionHistoryOf(
      parseJournal(
        (
          await run(`name: good friday
start: 2026-04-02T09:00:00-05:00
${PLAN}accounts: [ { alias: alice, plan: p } ]
steps:
  - tick: { instrument: ESM6, price: "5000.00" }
  - tick: { instrument: CLK6, price: "70.00" }
  - fill: { account: alice, instrument: ESM6, side: buy, quantity: 1, price: "5000.00" }
  - fill: { account: alice, instrument: CLK6, side: buy, quantity: 1, price: "70.00" }
  - at: 2026-04-03T08:00:00-05:00
  - tick: { instrument: ESM6, price: "5004.00" }
  - at: 2026-04-03T09:00:00-05:00
  - tick: { instrument: ESM6, price: "5008.00" }
  - at: 2026-04-06T09:00:00-05:00
  - tick: { instrument: CLK6, price: "70.10" }
`)
        ).journal,
      ),
    );
    expect(
      dailyPositions(history, calendar, {
        accountId: accountId(history, 'alice'),
        fromDate: '2026-04-01',
        toDate: '2026-04-30',
      }),
    ).toEqual(
      (
        [
          ['2026-04-02', 'CLK6', 1, '70.00', '0.00', '0.00'],
          ['2026-04-02', 'ESM6', 1, '5000.00', '0.00', '0.00'],
          ['2026-04-03', 'ESM6', 1, '5000.00', '0.00', '200.00'],
          ['2026-04-06', 'CLK6', 1, '70.00', '0.00', '100.00'],
          ['2026-04-06', 'ESM6', 1, '5000.00', '0.00', '400.00'],
        ] satisfies Row[]
      ).map(record),
    );
  });

  it('without a print, positions are marked at the last fill of any account, as live', () => {
    const tue = Date.parse('2026-03-10T10:00:00-05:00');
    const fill = (seq: number, accountId: string, price: number, atMs: number) => ({
      seq,
      executionId: `e${seq}`,
      accountId,
      symbol: 'ESM6',
      side: 'buy' as const,
      quantity: 1,
      priceTicks: price * 4,
      occurredAtMs: atMs,
      tradeDate: '2026-03-10',
      commissionCents: 0,
    });
    const history: PositionHistory = {
      accounts: [
        { accountId: 'a', alias: 'alice' },
        { accountId: 'b', alias: 'bob' },
      ],
      fills: [fill(2, 'a', 5000, tue), fill(3, 'b', 5004, tue + 60_000)],
      prints: new RunPrints(),
      endMs: tue + 120_000,
    };
    expect(dailyPositions(history, calendar, { accountId: 'a', fromDate: '2026-03-10', toDate: '2026-03-10' })).toEqual(
      [record(['2026-03-10', 'ESM6', 1, '5000.00', '0.00', '200.00'])],
    );
  });
});
