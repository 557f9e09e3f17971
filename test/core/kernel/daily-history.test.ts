// docs/order-lifecycle.md#daily-position-records, read live (src/core/kernel/read/daily-history.ts): the records a kernel
// answers, read in several pieces and across the journal letting go of its lines, are the records computed from the
// whole journal at once, as `propsim report daily-positions` computes them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProductFamily } from '../../../src/core/instruments.js';
import { DailyHistory } from '../../../src/core/kernel/read/daily-history.js';
import { Journal } from '../../../src/core/kernel/persistence/journal.js';
import { parseJournal } from '../../../src/core/kernel/persistence/journal-replay.js';
import { dailyPositions, positionHistoryOf } from '../../../src/core/kernel/read/daily-positions.js';
import { ALL, calendar, harness } from './kernel-harness.js';
import { testPlan } from './test-plans.js';

const RANGE = { from_date: '2026-03-01', to_date: '2026-03-31' };

describe('daily position records of a live kernel', () => {
  it('equal the records of the whole journal, read piece by piece and after the journal let go of its lines', () => {
    const { kernel, accountId, place, tick } = harness({ latencyMs: 0 });
    const lines: string[] = [];
    kernel.journal.tapLines((line) => lines.push(line));
    lines.push(...kernel.journal.linesSince(0)); // what came before the tap
    const live = () => {
      const outcome = kernel.read.dailyPositions(ALL, accountId, RANGE);
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.body));
      return outcome.body.items;
    };
    const wholeJournal = () => {
      const history = positionHistoryOf(parseJournal(lines.join('\n') + '\n'));
      return dailyPositions({ ...history, endMs: kernel.nowMs }, calendar, {
        accountId,
        fromDate: RANGE.from_date,
        toDate: RANGE.to_date,
      });
    };
    // Tuesday: long 2 at 5000.00, marked at 5002.50 by the close.
    tick('5000.00');
    place({ side: 'buy', type: 'market', quantity: 2 });
    tick('5000.00', 5, 1_000); // both contracts fill on this print
    tick('5002.50', 1, 60_000);
    expect(live(), 'Tuesday, read once').toEqual(wholeJournal());
    // Wednesday: the journal lets go of its lines; then sells 1 at 5010.00, the rest marked at 5008.00.
    kernel.dispatch({ type: 'advance', to_ms: Date.parse('2026-03-11T14:00:00Z') });
    tick('5010.00');
    kernel.letGoOfJournalLines(); // with lines not read yet: the history reads them first
    expect(live(), 'Wednesday morning, after letting go').toEqual(wholeJournal());
    place({ side: 'sell', type: 'market', quantity: 1 });
    tick('5010.00', 1, 1_000);
    tick('5008.00', 1, 60_000);
    const records = live();
    expect(records, 'lines let go of and lines held, together').toEqual(wholeJournal());
    // Hand-computed: ES is $50 a point. Tuesday: 2 long at 5000.00, close 5002.50: unrealized 2 x 2.50 x 50 = 250.00.
    // Wednesday: sold 1 at 5010.00: realized 10.00 x 50 = 500.00; 1 left at 5000.00, close 5008.00: 400.00.
    expect(records.map((r) => [r.trade_date, r.net_quantity, r.realized_pnl, r.unrealized_pnl])).toEqual([
      ['2026-03-10', 2, '0.00', '250.00'],
      ['2026-03-11', 1, '500.00', '400.00'],
    ]);
  });

  it('equal the records of the whole journal when one read takes in thousands of lines (it parses them a slice at a time)', () => {
    const { kernel, accountId, place, tick } = harness({ latencyMs: 0 });
    // Tuesday and Wednesday: 1,500 orders a day, buys and sells of 1 to 3 contracts, each filled at 5000.00 by the
    // next print, with a print at 5001.00 between them that moves the mark: ~12,000 journal lines (orders, their
    // states, fills, prints) read at once, in several slices.
    for (const day of ['2026-03-10T14:00:00Z', '2026-03-11T14:00:00Z']) {
      kernel.dispatch({ type: 'advance', to_ms: Date.parse(day) });
      for (let i = 0; i < 1_500; i++) {
        place({ side: i % 2 === 0 ? 'buy' : 'sell', type: 'market', quantity: 1 + (i % 3) });
        tick('5000.00', 5, 1_000);
        tick('5001.00', 1, 1_000);
      }
    }
    const outcome = kernel.read.dailyPositions(ALL, accountId, RANGE);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.body));
    const history = positionHistoryOf(parseJournal(kernel.journal.text()));
    const whole = dailyPositions({ ...history, endMs: kernel.nowMs }, calendar, {
      accountId,
      fromDate: RANGE.from_date,
      toDate: RANGE.to_date,
    });
    expect(history.fills.length).toBe(3_000);
    expect(kernel.journal.length).toBeGreaterThan(2 * 4096);
    expect(outcome.body.items).toEqual(whole);
    expect(outcome.body.items.map((r) => r.trade_date)).toEqual(['2026-03-10', '2026-03-11']);
  });

  it('equal the records of the whole journal at every read of a random session: several accounts and instruments, closes, weekends, prints at the close', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 60, size: 'max' }), (steps) => {
        const { kernel, accountId } = harness({ latencyMs: 0 });
        const accounts = [accountId];
        for (let i = 0; i < 2; i++) {
          // Far from breaching (the harness's own account breaches soon: its liquidation fills are in the records too).
          const roomy = { max_drawdown_mode: 'static', max_drawdown_value: '400000' };
          const plan = testPlan({ starting_balance: '500000', risk_profile: roomy });
          const opened = kernel.dispatch({ type: 'open_account', plan });
          if (opened.ok) accounts.push(opened.body.account_id);
        }
        const lines = [...kernel.journal.linesSince(0)];
        kernel.journal.tapLines((line) => lines.push(line));
        const ticks = INSTRUMENTS.map((i) => i.startTicks);
        const compare = (when: string) => {
          const history = positionHistoryOf(parseJournal(lines.join('\n') + '\n'));
          for (const account of accounts) {
            const live = kernel.read.dailyPositions(ALL, account, WIDE_RANGE);
            if (!live.ok) throw new Error(JSON.stringify(live.body));
            const query = { accountId: account, fromDate: WIDE_RANGE.from_date, toDate: WIDE_RANGE.to_date };
            expect(live.body.items, when).toEqual(dailyPositions({ ...history, endMs: kernel.nowMs }, calendar, query));
          }
        };
        steps.forEach((s, n) => {
          const instrument = INSTRUMENTS[s.instrument]!;
          if (s.kind === 'print') {
            ticks[s.instrument]! += s.move;
            kernel.dispatch({ type: 'advance', to_ms: kernel.nowMs + s.afterMs });
            kernel.dispatch({
              type: 'tick',
              instrument_id: instrument.symbol,
              price: priceOf(instrument, ticks[s.instrument]!),
            });
          } else if (s.kind === 'order') {
            const body = {
              account_id: accounts[s.account % accounts.length],
              instrument_id: instrument.symbol,
              side: s.side,
              type: 'market',
              quantity: s.quantity,
            };
            kernel.dispatch({ type: 'place_order', body }); // refused when the market is shut: that is fine
            // Filled by the next print of the instrument, this one.
            kernel.dispatch({
              type: 'tick',
              instrument_id: instrument.symbol,
              price: priceOf(instrument, ticks[s.instrument]!),
            });
          } else if (s.kind === 'advance') {
            const session = calendar.sessionAtFamily(kernel.nowMs, instrument.family);
            const to =
              s.to === 'hours'
                ? kernel.nowMs + s.hours * 3_600_000
                : s.to === 'open'
                  ? session.openMs // the next session's, when shut
                  : session.closeMs + (s.to === 'close' ? 0 : 1);
            kernel.dispatch({ type: 'advance', to_ms: Math.max(kernel.nowMs, to) });
          } else if (s.kind === 'let go') kernel.letGoOfJournalLines();
          else compare(`read at step ${n}`);
        });
        compare('at the end');
      }),
      { numRuns: 60 },
    );
  });
});

describe('daily position records: a fill stamped at a session close (a replayed history may have one)', () => {
  it('belongs to the next session, and a print stamped at the close still marks the close it is at', () => {
    const journal = new Journal();
    const at = (iso: string) => Date.parse(iso);
    const close = at('2026-03-10T21:00:00Z'); // Tuesday 16:00 CDT
    const fill = (id: string, timeMs: number, side: string, quantity: number, price: string, tradeDate: string) =>
      journal.record('fills.created', timeMs, {
        execution_id: id,
        account_id: 'a-1',
        instrument_id: 'ESM6',
        side,
        quantity,
        price,
        occurred_at: timeMs,
        trade_date: tradeDate,
        commission: '0.00',
      });
    const tick = (timeMs: number, price: string) =>
      journal.record('input.tick', timeMs, { instrument_id: 'ESM6', price });
    fill('e-1', at('2026-03-10T20:00:00Z'), 'buy', 2, '5000.00', '2026-03-10');
    tick(at('2026-03-10T20:30:00Z'), '5001.00');
    fill('e-2', close, 'sell', 1, '5002.00', '2026-03-11'); // at the close: Wednesday's
    tick(close, '5003.00'); // after it in the journal, but at the close: Tuesday's mark
    const live = new DailyHistory(journal, calendar);
    const query = { accountId: 'a-1', fromDate: '2026-03-01', toDate: '2026-03-31' };
    const wholeJournal = (nowMs: number) =>
      dailyPositions({ ...positionHistoryOf(parseJournal(journal.text())), endMs: nowMs }, calendar, query);
    // Read at the close itself, then the next morning.
    for (const nowMs of [close, at('2026-03-11T15:00:00Z')]) {
      const records = live.records(nowMs, query);
      expect(records).toEqual(wholeJournal(nowMs));
      // ES is $50 a point. Tuesday: 2 long at 5000.00 marked 5003.00: 2 x 3.00 x 50 = 300.00. Wednesday: sold 1 at
      // 5002.00, realized 2.00 x 50 = 100.00; 1 left, marked 5003.00: 150.00.
      expect(records.map((r) => [r.trade_date, r.net_quantity, r.realized_pnl, r.unrealized_pnl])).toEqual([
        ['2026-03-10', 2, '0.00', '300.00'],
        ['2026-03-11', 1, '100.00', '150.00'],
      ]);
    }
  });

  it('a line stamped before a close already recorded is refused, not folded in wrong', () => {
    const journal = new Journal();
    const live = new DailyHistory(journal, calendar);
    const data = {
      account_id: 'a-1',
      instrument_id: 'ESM6',
      side: 'buy',
      quantity: 1,
      price: '5000.00',
      commission: '0.00',
    };
    const tuesday = Date.parse('2026-03-10T20:00:00Z');
    journal.record('fills.created', tuesday, {
      ...data,
      execution_id: 'e-1',
      occurred_at: tuesday,
      trade_date: '2026-03-10',
    });
    const query = { accountId: 'a-1', fromDate: '2026-03-01', toDate: '2026-03-31' };
    expect(live.records(Date.parse('2026-03-11T15:00:00Z'), query)).toHaveLength(2); // Tuesday's close is recorded
    journal.record('fills.created', tuesday, {
      ...data,
      execution_id: 'e-2',
      occurred_at: tuesday,
      trade_date: '2026-03-10',
    });
    expect(() => live.records(Date.parse('2026-03-11T15:00:00Z'), query)).toThrow(
      /before the close at \d+ already recorded/,
    );
  });
});

const WIDE_RANGE = { from_date: '2026-03-01', to_date: '2026-12-31' };

const INSTRUMENTS: { symbol: string; family: ProductFamily; startTicks: number; tick: number; places: number }[] = [
  { symbol: 'ESM6', family: 'equity_index', startTicks: 20_000, tick: 0.25, places: 2 },
  { symbol: 'CLM6', family: 'energy', startTicks: 7_000, tick: 0.01, places: 2 },
];

function priceOf(instrument: (typeof INSTRUMENTS)[number], ticks: number): string {
  return (ticks * instrument.tick).toFixed(instrument.places);
}

const instrument = fc.integer({ min: 0, max: INSTRUMENTS.length - 1 });
/** A print, an order, a move of the clock (to a close, just past one, to the next open, or some hours on), letting go,
 * or a read. */
const step = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('print' as const),
      instrument,
      move: fc.integer({ min: -8, max: 8 }),
      afterMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 900_000 })), // 0: at the close, after a move to it
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      instrument,
      account: fc.nat(),
      side: fc.constantFrom('buy', 'sell'),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      instrument,
      to: fc.constantFrom('close', 'past close', 'open', 'hours'),
      hours: fc.integer({ min: 1, max: 30 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('let go' as const), instrument }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('read' as const), instrument }) },
);
