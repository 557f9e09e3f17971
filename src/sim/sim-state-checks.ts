// The invariants of the state as a whole (docs/api.md#the-simulation), checked every few steps, after a restart and
// at the end: positions are the sum of fills; each balance is its start plus realized P&L, less commissions, plus
// adjustments; and a kernel rebuilt from the journal's inputs (journal-replay.ts) answers every read as the live
// one does, floors and locks included (docs/architecture.md#one-kernel-many-drivers).
import type { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import type { JournalEntry } from '../core/kernel/persistence/journal.js';
import { replayJournal } from '../core/kernel/persistence/journal-replay.js';
import type { Kernel } from '../core/kernel/kernel.js';
import type { SimCast } from './sim-clients.js';
import { digestDifference, kernelDigest } from './sim-digest.js';
import { expectThat } from './sim-failure.js';
import { everyPage } from './sim-ownership.js';
import type { ShadowLine } from './sim-shadow.js';

export function checkPositionsAndBalances(kernel: Kernel): void {
  const read = kernel.read;
  for (const state of read.accountStates()) {
    const account = state.account_id;
    const fills = everyPage((page) => read.fills({}, { account_id: account }, page));
    const net = new Map<string, number>();
    let commissionsCents = 0;
    for (const fill of fills) {
      net.set(fill.instrument_id, (net.get(fill.instrument_id) ?? 0) + (fill.side === 'buy' ? 1 : -1) * fill.quantity);
      commissionsCents += centsOf(fill.commission);
    }
    const positions = everyPage((page) => read.positions({}, { account_id: account }, page));
    let realizedCents = 0;
    for (const position of positions) {
      realizedCents += centsOf(position.realized_pnl);
      const fromFills = net.get(position.instrument_id) ?? 0;
      expectThat(
        fromFills === position.net_quantity,
        'positions-vs-fills',
        () =>
          `account ${account} ${position.instrument_id}: the position is ${position.net_quantity}, its fills sum to ${fromFills}`,
      );
      net.delete(position.instrument_id);
    }
    for (const [instrument, quantity] of net)
      expectThat(
        quantity === 0,
        'positions-vs-fills',
        () => `account ${account} ${instrument}: fills sum to ${quantity}, and there is no position`,
      );
    const adjustmentsCents = everyPage((page) => read.adjustments({}, account, page)).reduce(
      (sum, a) => sum + centsOf(a.amount),
      0,
    );
    const expected = centsOf(state.starting_balance) + realizedCents - commissionsCents + adjustmentsCents;
    expectThat(
      expected === centsOf(state.balance),
      'balance-identity',
      () =>
        `account ${account}: balance ${state.balance}, but starting ${state.starting_balance} + realized ` +
        `${cents(realizedCents)} - commissions ${cents(commissionsCents)} + adjustments ${cents(adjustmentsCents)} ` +
        `= ${cents(expected)}`,
    );
  }
}

/** A kernel rebuilt from the journal since the last reset answers every read as the live kernel does. */
export function checkJournalReplay(
  lines: readonly ShadowLine[],
  live: Kernel,
  calendar: GlobexCalendar,
  cast: SimCast,
): void {
  const entries = lines.filter((l) => l.text.startsWith('{"seq":')).map((l) => JSON.parse(l.text) as JournalEntry);
  const rebuilt = replayJournal(entries, calendar, { journal: false });
  const difference = digestDifference(kernelDigest(rebuilt, cast), kernelDigest(live, cast));
  expectThat(
    difference === undefined,
    'journal-replay-differs',
    () => `a kernel rebuilt from the journal's ${entries.length} lines differs from the live one: ${difference}`,
  );
}

/** "-25.50" -> -2550: the API's money is a decimal string with at most two places. */
export function centsOf(money: string): number {
  const negative = money.startsWith('-');
  const [whole, fraction = ''] = money.replace('-', '').split('.');
  const value = Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  return negative ? -value : value;
}

function cents(value: number): string {
  return (value / 100).toFixed(2);
}
