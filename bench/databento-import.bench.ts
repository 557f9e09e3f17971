// `propsim import market` throughput (docs/market-data.md#databento): a generated 2,000,000-row Databento trades CSV
// (integer ns times, 1e-9 prices, 14 columns, ES and NQ with 1 % spread rows) read three ways, median of 5 runs each:
// the bare read (the file's bytes in lines, nothing parsed), the decode (every row parsed into a print, nothing
// written) and the whole import (parsed and written as a ticks CSV). The issue asks for >= 1 M rows/s.
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importDatabento } from '../src/import/databento.js';
import { decodeDatabentoFile } from '../src/market/databento-rows.js';
import { openByteStream, readLineBlocks } from '../src/market/line-blocks.js';
import { SymbolTable } from '../src/market/symbol-table.js';
import { AtomicFile } from '../src/reports/atomic-file.js';
import { ensureGeneratedFile, median, timeMs, type Bench } from './bench.js';
import { xorshift32 } from './tick-reader.bench.js';

const ROWS = 2_000_000;
const RUNS = 5;
const NEWLINE = 10;

export const databentoImportBench: Bench = {
  name: 'databento-import',
  description: `rows/s importing a ${ROWS.toLocaleString('en-US')}-row Databento trades CSV: bare read, decode, import`,
  async run(log) {
    const path = await ensureDatabentoFile(ROWS, log);
    const out = join(tmpdir(), `propsim-bench-databento-ticks-${process.pid}.csv`);
    const bare = await measure('bare read', log, async () => {
      let lines = 0;
      for await (const block of readLineBlocks(openByteStream(path)))
        for (let i = block.indexOf(NEWLINE); i >= 0; i = block.indexOf(NEWLINE, i + 1)) lines++;
      return lines - 1; // the header
    });
    const decode = await measure('decode', log, async () => {
      const counts = await decodeDatabentoFile(path, new SymbolTable(), { trade: () => {}, bar: () => {} });
      return counts.rows;
    });
    const whole = await measure(
      'import',
      log,
      async () => (await importDatabento([path], () => new AtomicFile(out), {})).rows,
    );
    rmSync(out, { force: true });
    log(
      `bare read ${rate(bare)} rows/s, decode ${rate(decode)} rows/s, import ${rate(whole)} rows/s (${(whole.rowsPerSecond / bare.rowsPerSecond).toFixed(2)} of the bare read)`,
    );
    log(`per CPU-second: bare read ${cpuRate(bare)}, decode ${cpuRate(decode)}, import ${cpuRate(whole)} rows`);
    return { rows: ROWS, fileBytes: statSync(path).size, bare, decode, import: whole };
  },
};

interface Figures {
  runsMs: number[];
  medianMs: number;
  rowsPerSecond: number;
  /** Rows per second of this process's CPU time (user + system): what a machine shared with others still says. */
  rowsPerCpuSecond: number;
}

async function measure(label: string, log: (line: string) => void, task: () => Promise<number>): Promise<Figures> {
  const runsMs: number[] = [];
  const cpuMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    let rows = 0;
    const cpuBefore = process.cpuUsage();
    runsMs.push(await timeMs(async () => (rows = await task())));
    const cpu = process.cpuUsage(cpuBefore);
    cpuMs.push((cpu.user + cpu.system) / 1000);
    if (rows !== ROWS) throw new Error(`${label} read ${rows} rows, expected ${ROWS}`);
    log(`  ${label} run ${run + 1}: ${runsMs.at(-1)!.toFixed(0)} ms (${cpuMs.at(-1)!.toFixed(0)} ms of CPU)`);
  }
  const medianMs = median(runsMs);
  return {
    runsMs,
    medianMs,
    rowsPerSecond: Math.round(ROWS / (medianMs / 1000)),
    rowsPerCpuSecond: Math.round(ROWS / (median(cpuMs) / 1000)),
  };
}

function rate(figures: Figures): string {
  return figures.rowsPerSecond.toLocaleString('en-US');
}

function cpuRate(figures: Figures): string {
  return figures.rowsPerCpuSecond.toLocaleString('en-US');
}

/** ES and NQ trades in Databento's CSV layout, with a spread row now and then; written once, reused afterwards. */
function ensureDatabentoFile(rows: number, log: (line: string) => void): Promise<string> {
  // Prices in 1e-9 units: ES 4770.00 and NQ 16810.00, moved a tick (0.25 = 250,000,000 units) at a time.
  const prices = [4_770_000_000_000, 16_810_000_000_000];
  const random = xorshift32(20240102);
  // Nanoseconds as a BigInt: 19 digits are past a double's exact integers.
  let ns = 1_704_205_800_000_000_000n;
  return ensureGeneratedFile(
    `propsim-bench-databento-trades-${rows}.csv`,
    'ts_recv,ts_event,rtype,publisher_id,instrument_id,action,side,depth,price,size,flags,ts_in_delta,sequence,symbol',
    rows,
    (row) => {
      ns += BigInt(random() % 400_000); // 0 to 0.4 ms apart
      const k = random() % 2;
      const spread = random() % 100 === 0;
      prices[k]! += ((random() % 3) - 1) * 250_000_000;
      const price = spread ? -4_250_000_000 : prices[k]!;
      const symbol = spread ? 'ESH4-ESM4' : k === 0 ? 'ESH4' : 'NQH4';
      const side = random() % 2 === 0 ? 'A' : 'B';
      return `${ns + 18_000n},${ns},0,1,${4916 + k},T,${side},0,${price},${1 + (random() % 10)},0,18000,${51_730_211 + row},${symbol}`;
    },
    log,
  );
}
