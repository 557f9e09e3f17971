// Risk engine throughput: 5,000,000 prints over 5 instruments replayed into a kernel whose
// 1,000 (then 10,000) accounts each hold a position, every account's floors enforced: from the CSV file
// (>= 1 M prints/s) and from memory (>= 2 M prints/s), with the bare CSV read of the same file for the ratio.
// Then the heap per provisioned account at 100,000 accounts (<= 8 KB). Medians of 3 runs.
import { parseSymbol } from '../src/core/instruments.js';
import { GlobexCalendar } from '../src/core/calendar/index.js';
import { Kernel } from '../src/core/kernel/kernel.js';
import { planJson } from '../src/core/kernel/read/risk-json.js';
import { loadHolidayFile } from '../src/market/holiday-file.js';
import { marketPrintBatches } from '../src/market/sources.js';
import { parsePlanTemplate } from '../src/core/accounts/plans.js';
import { median, type Bench } from './bench.js';
import { ensureTickFile, INSTRUMENTS } from './tick-reader.bench.js';

const ROWS = 5_000_000;
const RUNS = 3;
const START_MS = Date.UTC(2026, 2, 2, 14, 30);

export const riskBench: Bench = {
  name: 'risk',
  description: `risk engine: ${ROWS.toLocaleString('en-US')} prints over 5 instruments with 1,000 and 10,000 accounts holding positions; heap per account`,
  async run(log) {
    const path = await ensureTickFile(ROWS, log);
    const calendar = new GlobexCalendar(loadHolidayFile());
    const bareCsv = await repeat('bare CSV read', log, async () => {
      let rows = 0;
      for await (const batch of marketPrintBatches([{ path, format: 'ticks' }])) rows += batch.length;
      return rows;
    });
    const inMemory = await loadPrints(path);
    const figures: Record<string, unknown> = { bareCsvPrintsPerSecond: bareCsv };
    for (const accounts of [1_000, 10_000]) {
      const fromCsv = await repeat(`${accounts} accounts, from CSV`, log, async () => {
        const kernel = kernelWithPositions(calendar, accounts);
        let rows = 0;
        for await (const batch of marketPrintBatches([{ path, format: 'ticks' }])) {
          const symbols = batch.symbols;
          for (let i = 0; i < batch.length; i++)
            kernel.print(
              symbols.symbol(batch.instrumentIndex[i]!),
              batch.priceTicks[i]!,
              batch.size[i]!,
              batch.timeMs[i]!,
            );
          rows += batch.length;
        }
        return rows;
      });
      const fromMemory = await repeat(`${accounts} accounts, from memory`, log, async () => {
        const kernel = kernelWithPositions(calendar, accounts);
        const { symbols, instrument, ticks, size, time } = inMemory;
        for (let i = 0; i < ROWS; i++) kernel.print(symbols[instrument[i]!]!, ticks[i]!, size[i]!, time[i]!);
        return ROWS;
      });
      figures[`accounts${accounts}`] = {
        fromCsv,
        fromMemory,
        csvToBareRatio: +(fromCsv.median / bareCsv.median).toFixed(3),
      };
      log(
        `${accounts} accounts: ${fmt(fromCsv.median)} prints/s from CSV (bare read ${fmt(bareCsv.median)}/s, ratio ${(fromCsv.median / bareCsv.median).toFixed(2)}), ${fmt(fromMemory.median)} from memory`,
      );
    }
    figures.heapBytesPerAccount = heapPerAccount(calendar, 100_000, log);
    return figures;
  },
};

/** Runs `work` (which does not count its setup: that happens before the clock in kernelWithPositions) 3 times. */
async function repeat(label: string, log: (line: string) => void, work: () => Promise<number>) {
  const rates: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const start = performance.now();
    const rows = await work();
    const rate = rows / ((performance.now() - start) / 1000);
    rates.push(rate);
    log(`  ${label} run ${run}: ${fmt(rate)} prints/s`);
  }
  return { runs: rates.map(Math.round), median: Math.round(median(rates)) };
}

/** Accounts spread over the 5 instruments, each long or short 1 contract, mixed drawdown modes and allowances. */
function kernelWithPositions(calendar: GlobexCalendar, accounts: number): Kernel {
  const kernel = new Kernel({ startMs: START_MS - 1, seed: 9, calendar, journal: false });
  const modes = ['static', 'realtime_balance', 'realtime_equity', 'eod_balance'] as const;
  const plans = modes.flatMap((mode) =>
    ['3000', '8000', '20000'].map((value) =>
      parsePlanTemplate(
        {
          starting_balance: '50000',
          risk_profile: { max_drawdown_mode: mode, max_drawdown_value: value, daily_loss_value: '4000' },
          passing_criteria: { profit_target: '30000' },
        },
        'bench',
      ),
    ),
  );
  for (let i = 0; i < accounts; i++) {
    const opened = kernel.dispatch({ type: 'open_account', plan: planJson(plans[i % plans.length]!) });
    const [symbol, startTicks] = INSTRUMENTS[i % INSTRUMENTS.length]!;
    const tickSize = Number(parseSymbol(symbol).spec.tickSize);
    const places = parseSymbol(symbol).spec.priceDecimals;
    kernel.dispatch({
      type: 'record_fill',
      account_id: opened.ok ? opened.body.account_id : '',
      instrument_id: symbol,
      side: i % 2 === 0 ? 'buy' : 'sell',
      quantity: 1,
      price: (startTicks * tickSize).toFixed(places),
    });
  }
  return kernel;
}

async function loadPrints(path: string) {
  const time = new Float64Array(ROWS);
  const ticks = new Float64Array(ROWS);
  const size = new Float64Array(ROWS);
  const instrument = new Uint16Array(ROWS);
  let symbols: string[] = [];
  let n = 0;
  for await (const batch of marketPrintBatches([{ path, format: 'ticks' }])) {
    time.set(batch.timeMs, n);
    ticks.set(batch.priceTicks, n);
    size.set(batch.size, n);
    instrument.set(batch.instrumentIndex, n);
    n += batch.length;
    symbols = Array.from({ length: batch.symbols.size }, (_, i) => batch.symbols.symbol(i));
  }
  return { time, ticks, size, instrument, symbols };
}

function heapPerAccount(calendar: GlobexCalendar, accounts: number, log: (line: string) => void): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) log('  (run node with --expose-gc for an exact heap figure)');
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const kernel = new Kernel({ startMs: START_MS, seed: 4, calendar, journal: false });
  const plan = parsePlanTemplate(
    {
      starting_balance: '50000',
      risk_profile: { max_drawdown_mode: 'eod_balance', max_drawdown_value: '2000', daily_loss_value: '1000' },
      passing_criteria: { profit_target: '3000' },
    },
    'bench',
  );
  const planDoc = planJson(plan);
  for (let i = 0; i < accounts; i++) kernel.dispatch({ type: 'open_account', plan: planDoc });
  gc?.();
  const perAccount = Math.round((process.memoryUsage().heapUsed - before) / accounts);
  log(
    `heap per provisioned account at ${accounts.toLocaleString('en-US')} accounts: ${perAccount.toLocaleString('en-US')} bytes (target 8,192)`,
  );
  if (kernel.read.accountStates().length !== accounts) throw new Error('accounts missing');
  return perAccount;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
