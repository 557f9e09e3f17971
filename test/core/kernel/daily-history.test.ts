// docs/order-lifecycle.md#daily-position-records, read live (src/core/kernel/daily-history.ts): the records a kernel
// answers, read in several pieces and across the journal letting go of its lines, are the records computed from the
// whole journal at once, as `propsim report daily-positions` computes them.
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../../src/core/kernel/journal-replay.js';
import { dailyPositions, positionHistoryOf } from '../../../src/core/positions/daily.js';
import { ALL, calendar, harness } from './kernel-harness.js';

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
});
