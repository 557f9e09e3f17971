// A resampled tape costs what real data costs (account-session-days/s within a tenth), and a six-month resampled
// grid's memory. `backtest-resampled` runs two cells of the one-month sweep over the real January and over January
// resampled (market.resample, blocks of 5: the same trade dates, the same traders), alternately, on one worker, and
// compares their rates of CPU time per account-session-day by the median of the paired ratios. `backtest-six-months`
// runs the six-month demo grid with 240 traders a cell in a process of its own and reads its peak RSS.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBacktestConfig, type BacktestConfig } from '../src/backtest/config/backtest-config.js';
import { defaultWorkers, runBacktest } from '../src/backtest/run-backtest.js';
import { packageRoot } from '../src/market/holiday-file.js';
import { median, type Bench } from './bench.js';

/** Measured pairs, after one round of each that is not measured (V8 compiles the hot paths in it). */
const PAIRS = 5;

const config = (file: string) => loadBacktestConfig(join(packageRoot(), 'fixtures', 'backtest', file));

export const resampledBench: Bench = {
  name: 'backtest-resampled',
  description: 'cells 0 and 5 of the January sweep (240 traders) on the real month and on it resampled, one worker',
  run: async (log) => {
    const real: BacktestConfig = { ...config('6e-january-2024.yaml'), cells: [0, 5] };
    const resampled: BacktestConfig = { ...real, resample: { blockSessions: 5 } };
    const kinds = [
      { name: 'real January', config: real },
      { name: 'January resampled', config: resampled },
    ];
    for (const kind of kinds) await runBacktest(kind.config, { workers: 1 });
    const rates: number[][] = [[], []];
    for (let pair = 0; pair < PAIRS; pair++)
      for (const [k, kind] of kinds.entries()) {
        const cpu = process.cpuUsage();
        const run = await runBacktest(kind.config, { workers: 1 });
        const used = process.cpuUsage(cpu);
        const accountDays = run.cells.reduce((n, c) => n + c.accountSessionDays, 0);
        rates[k]!.push(accountDays / ((used.user + used.system) / 1e6));
      }
    const ratios = rates[1]!.map((rate, i) => rate / rates[0]![i]!);
    const [realRate, resampledRate] = rates.map((r) => Math.round(median(r)));
    const ratio = +median(ratios).toFixed(3);
    log(
      `real January ${realRate!.toLocaleString('en-US')}, resampled ${resampledRate!.toLocaleString('en-US')} account-session-days per CPU-s (medians of ${PAIRS}); resampled / real: median ${ratio} (pairs ${ratios.map((r) => r.toFixed(3)).join(', ')}; target 0.9 to 1.1)`,
    );
    return { pairs: PAIRS, realPerCpuSecond: realRate, resampledPerCpuSecond: resampledRate, ratio, ratios };
  },
};

export const sixMonthsBench: Bench = {
  name: 'backtest-six-months',
  description:
    'the six-month resampled demo grid with 240 traders a cell (12 × 240 × 128 trade dates) on every core, in a process of its own: time and peak RSS',
  run: async (log) => {
    const figures = await inChildProcess();
    log(
      `${figures.accountSessionDays.toLocaleString('en-US')} account-session-days in ${figures.seconds} s on ${figures.workers} workers (${Math.round(figures.accountSessionDays / figures.seconds).toLocaleString('en-US')}/s); peak RSS ${figures.peakRssMiB} MiB`,
    );
    return figures;
  },
};

type SixMonths = {
  workers: number;
  seconds: number;
  accountSessionDays: number;
  peakRssMiB: number;
};

/** This file run as a script in a fresh process, so that the peak RSS is the run's own. */
function inChildProcess(): Promise<SixMonths> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--six-months'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as SixMonths) : reject(new Error(`six-month run exited ${code}`)),
    );
  });
}

async function sixMonthsHere(): Promise<SixMonths> {
  const demo = config('6e-six-months-resampled.yaml');
  // 240 a cell, as the one-month sweep: 80 per strategy.
  const grid = { ...demo, synthetic: demo.synthetic.map((block) => ({ ...block, count: 80 })) };
  const workers = defaultWorkers();
  const start = performance.now();
  const run = await runBacktest(grid, { workers });
  const seconds = +((performance.now() - start) / 1000).toFixed(1);
  const accountSessionDays = run.cells.reduce((n, c) => n + c.accountSessionDays, 0);
  // maxRSS covers the process and its worker threads.
  return { workers, seconds, accountSessionDays, peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) };
}

if (process.argv[2] === '--six-months') process.stdout.write(JSON.stringify(await sixMonthsHere()));
