// The reference cell's traders against the firm's records (docs/backtesting.md#validation-against-the-firms-records):
// what each recorded trader's simulation came to (its evaluation outcome and date, resets, payouts, every failure of
// its evaluation accounts), compared with its record. Only the reference cell, the plan the traders traded, is.
import type { Session } from '../../core/calendar/index.js';
import type { TraderOutcome } from '../cells/outcomes.js';
import { compareWithRecords, type SimulatedTrader, type TraderValidation } from './compare-records.js';
import type { TraderRecord } from './records-file.js';

export function validateCell(
  records: readonly TraderRecord[],
  traders: readonly TraderOutcome[],
  failuresOf: (trader: string) => SimulatedTrader['failures'],
  sessions: readonly Session[],
  options: { resets: boolean },
): TraderValidation[] {
  const recorded = new Map(records.map((r) => [r.trader, r]));
  return traders.flatMap((t) => {
    const record = recorded.get(t.trader);
    if (!record) return [];
    const simulated: SimulatedTrader = {
      trader: t.trader,
      outcome: t.outcome === 'active' ? 'open' : t.outcome,
      date: t.outcome === 'active' ? null : sessions[t.days - 1]!.tradeDate,
      resets: t.funnel?.resets ?? 0,
      payoutsCents: t.payoutsCents,
      failures: failuresOf(t.trader),
      ...(t.outcome === 'active' ? { unmet: t.cause } : {}),
    };
    return [compareWithRecords(record, simulated, options)];
  });
}
