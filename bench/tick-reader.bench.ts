// Reader throughput: a 5,000,000-row ticks CSV read by the hand parser (the full readTickCsv) and by the
// csv-parse reader, rows/s as the median of 5 runs each (3 when the first run takes over 20 s).
import { statSync } from 'node:fs';
import { parseSymbol } from '../src/core/instruments.js';
import { PriceGrid } from '../src/market/price-grid.js';
import { SymbolTable } from '../src/market/symbol-table.js';
import type { TickBatch } from '../src/market/tick-batch.js';
import { readTickCsv } from '../src/market/tick-csv-reader.js';
import { ensureGeneratedFile, median, timeMs, type Bench } from './bench.js';
import { readTickCsvWithCsvParse } from './csv-parse-tick-reader.js';

const ROWS = 5_000_000;
const RUNS = 5;
const SLOW_RUNS = 3;
/** A first run slower than this makes it 3 runs. */
const SLOW_RUN_MS = 20_000;

export const tickReaderBench: Bench = {
  name: 'tick-reader',
  description: `rows/s reading a ${ROWS.toLocaleString('en-US')}-row ticks CSV: hand parser vs csv-parse`,
  async run(log) {
    const path = await ensureTickFile(ROWS, log);
    const hand = await measure('hand parser', () => readTickCsv({ path, format: 'ticks' }, 0, new SymbolTable()), log);
    const csvParse = await measure('csv-parse', () => readTickCsvWithCsvParse(path, 0, new SymbolTable()), log);
    if (hand.checksum !== csvParse.checksum)
      throw new Error(`the readers disagree: checksum ${hand.checksum} vs ${csvParse.checksum}`);
    const ratio = hand.rowsPerSecond / csvParse.rowsPerSecond;
    log(
      `hand parser ${format(hand.rowsPerSecond)} rows/s, csv-parse ${format(csvParse.rowsPerSecond)} rows/s: ${ratio.toFixed(2)}x`,
    );
    return { rows: ROWS, fileBytes: statSync(path).size, hand, csvParse, ratio };
  },
};

interface Figures {
  runsMs: number[];
  medianMs: number;
  rowsPerSecond: number;
  checksum: number;
}

async function measure(
  label: string,
  open: () => AsyncIterable<TickBatch>,
  log: (line: string) => void,
): Promise<Figures> {
  const runsMs: number[] = [];
  let checksum = 0;
  for (let run = 0; run < ((runsMs[0] ?? 0) > SLOW_RUN_MS ? SLOW_RUNS : RUNS); run++) {
    let rows = 0;
    let sum = 0;
    runsMs.push(
      await timeMs(async () => {
        for await (const batch of open()) {
          rows += batch.length;
          // Touch the parsed values so the reading cannot be skipped and both readers can be compared.
          for (let i = 0; i < batch.length; i++)
            sum = (sum + batch.priceTicks[i]! * 31 + batch.timeMs[i]!) % 1_000_000_007;
        }
      }),
    );
    if (rows !== ROWS) throw new Error(`${label} read ${rows} rows, expected ${ROWS}`);
    checksum = sum;
    log(`  ${label} run ${run + 1}: ${runsMs.at(-1)!.toFixed(0)} ms`);
  }
  const medianMs = median(runsMs);
  return { runsMs, medianMs, rowsPerSecond: Math.round(ROWS / (medianMs / 1000)), checksum };
}

function format(rowsPerSecond: number): string {
  return rowsPerSecond.toLocaleString('en-US');
}

// Instruments with realistic prices, each on its tick grid: [symbol, starting price in ticks].
export const INSTRUMENTS: readonly [string, number][] = [
  ['ESM6', 20_000], // 5000.00
  ['NQM6', 72_000], // 18000.00
  ['6EH6', 21_600], // 1.08000
  ['CLM6', 7_500], // 75.00
  ['ZNM6', 7_040], // 110.000000
];

/** The benchmark file, written once per row count under the OS temp dir and reused afterwards. */
export async function ensureTickFile(rows: number, log: (line: string) => void): Promise<string> {
  const grids = INSTRUMENTS.map(([symbol]) => new PriceGrid(parseSymbol(symbol).spec));
  const ticks = INSTRUMENTS.map(([, start]) => start);
  const random = xorshift32(20260302);
  let time = Date.UTC(2026, 2, 2, 14, 30);
  return ensureGeneratedFile(
    `propsim-bench-ticks-${rows}.csv`,
    'ts,instrument,price,size',
    rows,
    () => {
      const k = random() % INSTRUMENTS.length;
      time += random() % 4; // 0 to 3 ms apart: increasing, with ties
      ticks[k]! += (random() % 5) - 2;
      return `${time},${INSTRUMENTS[k]![0]},${priceText(ticks[k]!, grids[k]!)},${1 + (random() % 20)}`;
    },
    log,
  );
}

/** A price in ticks written with the grid's decimals, built from integers so it is exact. */
function priceText(ticks: number, grid: PriceGrid): string {
  const digits = String(ticks * grid.tickUnits).padStart(grid.decimals + 1, '0');
  return grid.decimals === 0 ? digits : `${digits.slice(0, -grid.decimals)}.${digits.slice(-grid.decimals)}`;
}

/** A seeded generator of unsigned 32-bit integers, so every machine benchmarks the same file. */
export function xorshift32(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>>= 0);
  };
}
