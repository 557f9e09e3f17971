// docs/api.md#streams: the numbering and keeping of stream events (src/api/streams/stream-log.ts), on a kernel of
// its own: events numbered once in publishing order, `after(n)` exclusive, and a reset (a new kernel) empties the
// log while the numbers keep growing, so an old since_sequence is expired rather than silently gapped.
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/api/streams/stream-events.js';
import { StreamLog } from '../../src/api/streams/stream-log.js';
import { GlobexCalendar } from '../../src/core/calendar/globex-calendar.js';
import { Kernel } from '../../src/core/kernel/kernel.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';

const calendar = new GlobexCalendar(loadHolidayFile());
const START_MS = Date.UTC(2026, 2, 10, 14, 30);

function kernelWithAccount(): { kernel: Kernel; accountId: string } {
  const kernel = new Kernel({ startMs: START_MS, seed: 1, calendar });
  const plan = {
    starting_balance: '50000.00',
    risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '2000.00' },
    passing_criteria: { profit_target: '3000.00' },
  };
  const opened = kernel.dispatch({ type: 'open_account', plan });
  if (!opened.ok) throw new Error('the plan was refused');
  kernel.advanceTo(START_MS + 1000); // past the risk engine's loading window
  return { kernel, accountId: opened.body.account_id };
}

function buyAndFill(kernel: Kernel, accountId: string): void {
  const body = { account_id: accountId, instrument_id: 'ESM6', side: 'buy', type: 'market', quantity: 1 };
  kernel.dispatch({ type: 'place_order', body });
  kernel.dispatch({ type: 'tick', instrument_id: 'ESM6', price: '5000.00' });
}

describe('StreamLog', () => {
  it('numbers the events a stream carries from 1, in order, and hands out those after a number', () => {
    const log = new StreamLog();
    const { kernel, accountId } = kernelWithAccount();
    const live: number[] = [];
    log.events$.subscribe((e) => live.push(e.sequence));
    log.follow(kernel);
    // Before any subscriber the events are not numbered: a resting order's SUBMITTED and WORKING.
    const resting = { account_id: accountId, instrument_id: 'ESM6', side: 'buy', type: 'limit', quantity: 1 };
    kernel.dispatch({ type: 'place_order', body: { ...resting, limit_price: '4000.00' } });
    expect(log.sequence).toBe(0);
    log.activate();
    buyAndFill(kernel, accountId);
    // orders.state SUBMITTED and FILLED, fills.created, positions.created, balance.updated.
    expect(log.after(0)!.map((e) => e.type)).toEqual([
      'orders.state',
      'orders.state',
      'fills.created',
      'positions.created',
      'balance.updated',
    ]);
    expect(live).toEqual([1, 2, 3, 4, 5]);
    expect(log.sequence).toBe(5);
    expect(log.after(3)!.map((e) => e.sequence)).toEqual([4, 5]);
    expect(log.after(5)).toEqual([]);
  });

  it('an event of a later batch waits for its own commit, not the one before it: a kill cannot take back what was sent', async () => {
    const commits: Array<() => void> = [];
    const batch = () => new Promise<void>((done) => commits.push(done));
    let durable: Promise<void> = batch();
    const log = new StreamLog({ durable: () => durable });
    const { kernel, accountId } = kernelWithAccount();
    const live: number[] = [];
    log.events$.subscribe((e) => live.push(e.sequence));
    log.follow(kernel);
    log.activate();
    buyAndFill(kernel, accountId); // events 1-5, in the first batch
    durable = batch(); // the first batch went to the writer; what comes now is the next batch
    buyAndFill(kernel, accountId); // events 6-10 (a second position's events), in the second batch
    const numbered = log.lastNumbered;
    expect(numbered).toBeGreaterThan(5);
    commits[0]!();
    await new Promise((next) => setImmediate(next));
    expect(live, 'the first commit sends its own batch only').toEqual([1, 2, 3, 4, 5]);
    expect(log.after(0)!.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5]);
    commits[1]!();
    await new Promise((next) => setImmediate(next));
    expect(live).toEqual(Array.from({ length: numbered }, (_, i) => i + 1));
  });

  it('with a store, events are numbered at once but sent, resumable and counted only once their input is durable', async () => {
    let commit!: () => void;
    let durable: Promise<void> | undefined = new Promise<void>((done) => (commit = done));
    const log = new StreamLog({ durable: () => durable });
    const { kernel, accountId } = kernelWithAccount();
    const live: number[] = [];
    log.events$.subscribe((e) => live.push(e.sequence));
    log.follow(kernel);
    log.activate();
    buyAndFill(kernel, accountId); // five events, waiting for the commit
    expect(live).toEqual([]);
    expect(log.sequence).toBe(0); // what a new subscriber is told
    expect(log.after(0)).toEqual([]);
    expect(log.lastNumbered).toBe(5);
    commit();
    durable = undefined;
    await Promise.resolve();
    await Promise.resolve();
    expect(live).toEqual([1, 2, 3, 4, 5]);
    expect(log.sequence).toBe(5);
    expect(log.after(3)!.map((e) => e.sequence)).toEqual([4, 5]);
  });

  it('after a reset the numbers go on, and a number from before it is expired', () => {
    const log = new StreamLog();
    const first = kernelWithAccount();
    log.activate();
    log.follow(first.kernel);
    buyAndFill(first.kernel, first.accountId);
    const second = kernelWithAccount();
    log.follow(second.kernel);
    expect(log.after(5)).toEqual([]); // nothing missed
    expect(log.after(2)).toBeUndefined(); // 3..5 are gone with the old state
    buyAndFill(second.kernel, second.accountId);
    expect(log.after(5)!.map((e) => e.sequence)).toEqual([6, 7, 8, 9, 10]);
    buyAndFill(first.kernel, first.accountId); // the old kernel is no longer followed
    expect(log.sequence).toBe(10);
  });

  it('keeps the latest 100,000 events (trimmed a tenth at a time): an older since_sequence is expired', () => {
    const log = new StreamLog();
    for (let i = 0; i < 125_000; i++) log.publishFirmEvent('devices.flagged', 'firm-1', START_MS, { n: i });
    expect(log.sequence).toBe(125_000);
    expect(log.after(124_995)!.map((e) => e.sequence)).toEqual([124_996, 124_997, 124_998, 124_999, 125_000]);
    expect(log.after(25_000)).toHaveLength(100_000);
    expect(log.after(1_000)).toBeUndefined();
  });

  it("reads one account's backlog from its own index, across trims, and as after() would (docs/api.md#subscribing)", () => {
    const log = new StreamLog();
    const publish = (log as unknown as { publish(event: StreamEvent): void }).publish.bind(log);
    const accounts = ['busy', 'busy', 'busy', 'quiet', 'other'];
    for (let sequence = 1; sequence <= 125_000; sequence++)
      publish(accountEvent(sequence, accounts[sequence % accounts.length]!));
    for (const since of [24_999, 50_000, 124_990])
      for (const account of ['busy', 'quiet', 'nobody'])
        expect(log.accountAfter(account, since)!.map((e) => e.sequence)).toEqual(
          log
            .after(since)!
            .filter((e) => e.account_id === account)
            .map((e) => e.sequence),
        );
    expect(log.accountAfter('quiet', 1_000)).toBeUndefined();
    // An old since_sequence of a quiet account costs a search of its own events, not a walk of the whole log.
    const startedMs = performance.now();
    for (let i = 0; i < 20_000; i++) log.accountAfter('nobody', 25_000);
    expect(performance.now() - startedMs).toBeLessThan(500);
  });
});

function accountEvent(sequence: number, accountId: string): StreamEvent {
  return {
    sequence,
    type: 'balance.updated',
    occurred_at: START_MS,
    account_id: accountId,
    channel: 'balances',
    firm: true,
    data: {},
  };
}
