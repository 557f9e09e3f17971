// Kernel throughput: (1) 1,000,000 trade prints from memory against 10,000 resting GTC orders
// over 5 instruments, >= 1 M prints/s; (2) orders through the full XState lifecycle (placed, arrived, filled),
// >= 50,000 orders/s with the journal on. Medians of 5 runs.
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { GlobexCalendar } from '../src/core/calendar/index.js';
import { Kernel } from '../src/core/kernel/kernel.js';
import { planJson } from '../src/core/kernel/read/risk-json.js';
import { orderMachine } from '../src/core/orders/order.machine.js';
import { createActor } from 'xstate';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventsFile } from '../src/reports/events-file.js';
import { loadHolidayFile } from '../src/market/holiday-file.js';
import { median, type Bench } from './bench.js';
import { benchPlan } from './bench-plans.js';

const RUNS = 5;
const PRINTS = 1_000_000;
const RESTING = 10_000;
const ORDERS = 100_000;
/** Tuesday 2026-03-10 09:00 CDT. */
const START_MS = Date.parse('2026-03-10T14:00:00Z');
const INSTRUMENTS = [
  { symbol: 'ESM6', ticks: 20_000 },
  { symbol: 'NQM6', ticks: 80_000 },
  { symbol: 'CLM6', ticks: 7_000 },
  { symbol: 'GCM6', ticks: 25_000 },
  { symbol: '6EM6', ticks: 21_800 },
];

export const kernelBench: Bench = {
  name: 'kernel',
  description: `kernel: ${PRINTS.toLocaleString('en-US')} prints vs ${RESTING.toLocaleString('en-US')} resting orders; ${ORDERS.toLocaleString('en-US')} orders through their lifecycle`,
  async run(log) {
    const calendar = new GlobexCalendar(loadHolidayFile());
    const prints = await repeat(
      'prints vs resting orders (journal off, as in back-tests)',
      () => printsAgainstBook(calendar, false),
      log,
    );
    const orders = await repeat(
      'orders placed and filled (journal on: written to events.jsonl as it goes, as a replay does)',
      () => ordersThroughLifecycle(calendar, 'file'),
      log,
    );
    const ordersKeptJournal = await repeat(
      'orders placed and filled (journal kept in memory, as scenario runs in tests)',
      () => ordersThroughLifecycle(calendar, true),
      log,
    );
    const ordersNoJournal = await repeat(
      'orders placed and filled (journal off)',
      () => ordersThroughLifecycle(calendar, false),
      log,
    );
    const machineOnly = await repeat('order machine alone: actor created, started, FILL', machineLifecycle, log);
    log(`prints/s ${fmt(prints.median)} (target 1,000,000)`);
    log(
      `orders/s through the kernel ${fmt(orders.median)} with the journal written out, ${fmt(ordersKeptJournal.median)} kept, ${fmt(ordersNoJournal.median)} without; the XState machine alone ${fmt(machineOnly.median)} (target 50,000 with the journal)`,
    );
    return {
      printsPerSecond: prints,
      ordersPerSecond: orders,
      ordersPerSecondJournalKept: ordersKeptJournal,
      ordersPerSecondWithoutJournal: ordersNoJournal,
      orderMachineAlonePerSecond: machineOnly,
    };
  },
};

async function repeat(label: string, once: () => { rate: number; detail: string }, log: (line: string) => void) {
  const rates: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const { rate, detail } = once();
    rates.push(rate);
    log(`  ${label} run ${run}: ${fmt(rate)}/s (${detail})`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { runs: rates.map(Math.round), median: Math.round(median(rates)) };
}

function printsAgainstBook(calendar: GlobexCalendar, journal: boolean): { rate: number; detail: string } {
  const kernel = new Kernel({ startMs: START_MS, seed: 3, calendar, journal });
  const plan = planJson(benchPlan());
  const accounts = Array.from({ length: 100 }, () => kernel.dispatch({ type: 'open_account', plan }));
  const rng = xoroshiro128plus(42);
  for (let i = 0; i < RESTING; i++) {
    const instrument = INSTRUMENTS[i % INSTRUMENTS.length]!;
    const account = accounts[i % accounts.length]!;
    const offset = uniformInt(rng, 5, 400);
    const above = i % 2 === 0;
    const isStop = i % 4 < 2;
    const priceTicks = instrument.ticks + (above ? offset : -offset);
    const side = above === isStop ? 'buy' : 'sell'; // limits rest on the passive side, stops beyond the market
    kernel.dispatch({
      type: 'place_order',
      body: {
        account_id: account.ok ? account.body.account_id : '',
        instrument_id: instrument.symbol,
        side,
        type: isStop ? 'stop' : 'limit',
        quantity: 1,
        time_in_force: 'gtc',
        [isStop ? 'stop_price' : 'limit_price']: priceOf(instrument.symbol, priceTicks),
      },
    });
  }
  kernel.advanceTo(START_MS);
  // A random walk per instrument, prepared before the clock starts.
  const symbolOf = new Array<string>(PRINTS);
  const ticksOf = new Float64Array(PRINTS);
  const walk = INSTRUMENTS.map((i) => i.ticks);
  for (let p = 0; p < PRINTS; p++) {
    const k = p % INSTRUMENTS.length;
    walk[k]! += uniformInt(rng, -1, 1);
    symbolOf[p] = INSTRUMENTS[k]!.symbol;
    ticksOf[p] = walk[k]!;
  }
  const start = performance.now();
  for (let p = 0; p < PRINTS; p++) kernel.print(symbolOf[p]!, ticksOf[p]!, 5, START_MS + p);
  const seconds = (performance.now() - start) / 1000;
  const filled =
    RESTING - accounts.reduce((n, a) => n + (a.ok ? kernel.read.workingOrderIds(a.body.account_id).length : 0), 0);
  return { rate: PRINTS / seconds, detail: `${filled} of ${RESTING} orders filled` };
}

/** `journal`: 'file' sends it to an events.jsonl as a replay does (the file's write and sha256 timed too). */
function ordersThroughLifecycle(calendar: GlobexCalendar, journal: boolean | 'file'): { rate: number; detail: string } {
  const folder = mkdtempSync(join(tmpdir(), 'propsim-bench-kernel-'));
  const events = journal === 'file' ? new EventsFile(join(folder, 'events.jsonl')) : undefined;
  const kernel = new Kernel({ startMs: START_MS, seed: 5, calendar, journal: events ?? journal === true });
  const opened = kernel.dispatch({ type: 'open_account', plan: planJson(benchPlan()) });
  const accountId = opened.ok ? opened.body.account_id : '';
  const start = performance.now();
  for (let i = 0; i < ORDERS; i++) {
    kernel.dispatch({
      type: 'place_order',
      body: {
        account_id: accountId,
        instrument_id: 'ESM6',
        side: i % 2 === 0 ? 'buy' : 'sell',
        type: 'market',
        quantity: 1,
      },
    });
    kernel.print('ESM6', 20_000 + (i % 7), 1, START_MS + i);
  }
  kernel.journal.flush();
  events?.close();
  const seconds = (performance.now() - start) / 1000;
  const bytes = events ? statSync(events.path).size : 0;
  rmSync(folder, { recursive: true, force: true });
  const written = events ? `, ${(bytes / 1e6).toFixed(0)} MB written` : '';
  return { rate: ORDERS / seconds, detail: `${kernel.journal.length} journal lines${written}` };
}

/** The floor XState itself sets: one actor per order, created, started and sent its fill. */
function machineLifecycle(): { rate: number; detail: string } {
  const start = performance.now();
  let filled = 0;
  for (let i = 0; i < ORDERS; i++) {
    const actor = createActor(orderMachine, { input: { quantity: 1, occurredAtMs: i } }).start();
    actor.send({ type: 'FILL', quantity: 1, occurredAtMs: i });
    if (actor.getSnapshot().value === 'FILLED') filled++;
  }
  const seconds = (performance.now() - start) / 1000;
  return { rate: ORDERS / seconds, detail: `${filled} FILLED` };
}

function priceOf(symbol: string, ticks: number): string {
  const tick = symbol.startsWith('6E')
    ? 0.00005
    : symbol.startsWith('CL')
      ? 0.01
      : symbol.startsWith('GC')
        ? 0.1
        : 0.25;
  const places = symbol.startsWith('6E') ? 5 : 2;
  return (ticks * tick).toFixed(places);
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
