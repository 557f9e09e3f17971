// Snapshots of the kernel's state (docs/architecture.md#snapshots): a kernel restored from a snapshot taken after any
// input k, then given the remaining inputs, writes exactly the journal of the uninterrupted run and answers every read
// the same (every example scenario, ~25 points each), through the codec the sandbox writes them with. What a snapshot
// cannot restore is refused by name, and so is a part's field its class does not declare kept or skipped.
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../../src/core/calendar/index.js';
import { applyInput, replayJournal, startedKernel } from '../../../src/core/kernel/persistence/journal-replay.js';
import type { Kernel } from '../../../src/core/kernel/kernel.js';
import { MarketPrintCursor } from '../../../src/core/kernel/persistence/market-prints.js';
import { declareSnapshot } from '../../../src/core/snapshot/snapshot-fields.js';
import { restoreSnapshot, SnapshotError, takeSnapshot } from '../../../src/core/kernel/persistence/state-snapshot.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';
import { decodeSnapshot } from '../../../src/store/snapshot-reader.js';
import { encodeSnapshot } from '../../../src/store/snapshot-writer.js';
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
    class Holder {
      data: unknown[] = [{ callback: () => 1 }];
    }
    declareSnapshot(Holder, { kept: ['data'], skipped: [] });
    const part = { kernel: new Holder() };
    expect(() => takeSnapshot(part, encodeSnapshot)).toThrow(SnapshotError);
    expect(() => takeSnapshot(part, encodeSnapshot)).toThrow(/a function at kernel\.data\[0\]\.callback/);
    const foreign = { kernel: new Holder() };
    foreign.kernel.data = [new (class Stranger {})()];
    expect(() => takeSnapshot(foreign, encodeSnapshot)).toThrow(/a Stranger at kernel\.data\[0\]/);
  });
});

// docs/architecture.md#snapshots: each part's class declares its fields kept or skipped (snapshot-fields.ts).
describe('snapshot fields declared by each part', () => {
  class Counter {
    count = 0;
    onChange = (): void => {};
    constructor(readonly inner = new Tally()) {}
  }
  class Tally {
    total = 0;
  }
  declareSnapshot(Counter, { kept: ['count', 'inner'], skipped: ['onChange'] });
  declareSnapshot(Tally, { kept: ['total'], skipped: [] });

  it('keeps the fields declared kept, parts below included, and leaves the skipped ones as the fresh part has them', () => {
    const counter = new Counter();
    counter.count = 3;
    counter.inner.total = 12;
    const fresh = new Counter();
    const wiring = fresh.onChange;
    restoreSnapshot(decodeSnapshot(takeSnapshot({ counter }, encodeSnapshot)), { counter: fresh });
    expect([fresh.count, fresh.inner.total]).toEqual([3, 12]);
    expect(fresh.onChange, "the skipped field is the fresh part's own").toBe(wiring);
  });

  it('refuses a part with a field declared neither kept nor skipped, naming its class and the field', () => {
    const counter = new Counter();
    Object.assign(counter.inner, { lastAdded: 5 }); // a field added to Tally but not to its declaration
    expect(() => takeSnapshot({ counter }, encodeSnapshot)).toThrow(SnapshotError);
    expect(() => takeSnapshot({ counter }, encodeSnapshot)).toThrow(
      'Tally.lastAdded (at counter.inner.lastAdded) is declared neither kept nor skipped',
    );
  });

  it('refuses a part whose class declares no snapshot fields, naming the class and where it is', () => {
    class Undeclared {
      n = 1;
    }
    const counter = Object.assign(new Counter(), { inner: new Undeclared() });
    expect(() => takeSnapshot({ counter }, encodeSnapshot)).toThrow(
      'a Undeclared (at counter.inner) declares no snapshot fields',
    );
  });

  it('refuses a declaration naming a field the part does not have (a field renamed or removed)', () => {
    class Renamed {
      sum = 0;
    }
    declareSnapshot(Renamed, { kept: ['total'], skipped: [] });
    expect(() => takeSnapshot({ part: new Renamed() }, encodeSnapshot)).toThrow(
      'Renamed declares total, a field it does not have (at part)',
    );
  });

  it('refuses a field declared both kept and skipped', () => {
    class Both {
      x = 0;
    }
    expect(() => declareSnapshot(Both, { kept: ['x'], skipped: ['x'] })).toThrow(
      'Both declares x both kept and skipped',
    );
  });
});
