// Snapshots of the kernel's state (docs/architecture.md#snapshots): a kernel restored from a snapshot taken after any
// input k, then given the remaining inputs, writes exactly the journal of the uninterrupted run and answers every read
// the same (every example scenario, ~25 points each), through the codec the sandbox writes them with. What a snapshot
// cannot restore is refused by name.
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../../src/core/calendar/index.js';
import { applyInput, replayJournal, startedKernel } from '../../../src/core/kernel/journal-replay.js';
import type { Kernel } from '../../../src/core/kernel/kernel.js';
import { MarketPrintCursor } from '../../../src/core/kernel/market-prints.js';
import { restoreSnapshot, SnapshotError, takeSnapshot } from '../../../src/core/kernel/state-snapshot.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';
import { decodeSnapshot, encodeSnapshot } from '../../../src/store/snapshot-codec.js';
import { SCENARIO_FILES, scenarioJournal } from '../../sim/scenario-journals.js';

const calendar = new GlobexCalendar(loadHolidayFile());

/** Every read a client can make of every account, as one string. */
function reads(kernel: Kernel): string {
  const read = kernel.read;
  const all = {};
  const page = { limit: 500 };
  const accounts = read.accountStates();
  return JSON.stringify({
    clock: read.clock(),
    accounts,
    orders: read.orders(all, {}, page),
    fills: read.fills(all, {}, page),
    trades: read.trades(all, {}, page),
    positions: read.positions(all, {}, page),
    balances: read.balances(all, {}, page),
  });
}

describe('kernel state snapshots', () => {
  it.each(SCENARIO_FILES)(
    '%s: a snapshot after input k, restored and continued, gives the uninterrupted journal and reads, for every k',
    async (file) => {
      const { journal, entries, prints, inputAt } = await scenarioJournal(file, calendar);
      const uninterrupted = replayJournal(entries, calendar, { market: new MarketPrintCursor(prints) });
      const step = Math.max(1, Math.floor(inputAt.length / 25));
      for (let k = 1; k < inputAt.length; k += step) {
        const at = inputAt[k]!;
        const market = new MarketPrintCursor(prints);
        const before = replayJournal(entries.slice(0, at), calendar, { market });
        const bytes = takeSnapshot({ kernel: before }, encodeSnapshot);
        const kernel = startedKernel(entries[0], calendar, true);
        restoreSnapshot(decodeSnapshot(bytes), { kernel });
        for (const entry of entries.slice(at)) if (entry.type.startsWith('input.')) applyInput(kernel, entry, market);
        expect(kernel.journal.text(), `snapshot after input ${k} of ${inputAt.length}`).toBe(journal);
        expect(reads(kernel), `reads after a snapshot at input ${k}`).toBe(reads(uninterrupted));
      }
    },
  );

  it('leaves the snapshotted kernel as it was (its decimals are back in place)', () => {
    const kernel = startedKernel(
      { seq: 1, time_ms: 0, type: 'input.kernel_started', data: { start_ms: Date.UTC(2026, 2, 2, 14), seed: 7 } },
      calendar,
      true,
    );
    const before = reads(kernel);
    takeSnapshot({ kernel }, encodeSnapshot);
    expect(reads(kernel)).toBe(before);
  });

  it('refuses state it cannot restore, naming where it is', () => {
    const part = {
      kernel: new (class Holder {
        data = [{ callback: () => 1 }];
      })(),
    };
    expect(() => takeSnapshot(part, encodeSnapshot)).toThrow(SnapshotError);
    expect(() => takeSnapshot(part, encodeSnapshot)).toThrow(/a function at kernel\.data\[0\]\.callback/);
    const foreign = {
      kernel: new (class Holder {
        data = [new (class Stranger {})()];
      })(),
    };
    expect(() => takeSnapshot(foreign, encodeSnapshot)).toThrow(/a Stranger at kernel\.data\[0\]/);
  });
});
