// A multi-instrument grid costs no more per print than a single-instrument one: the same generated ES and
// NQ ticks of both March and June 2024 contracts (scripts/multi-instrument-ticks.ts), the same traders and grid,
// once trading ESH4 alone (the first file's instrument) and once `instruments: [ES, NQ]` with the 2024-03-07 roll.
// Every kind replays every print of the four contracts; runs alternate, on one worker, and the medians of their CPU
// time are compared ([ES, NQ] trades more: its accounts fail less, so it makes about 36 % more fills).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBacktestConfig, type BacktestConfig } from '../src/backtest/config/backtest-config.js';
import { runBacktest } from '../src/backtest/run-backtest.js';
import { ES_NQ_ROLL, writeTickData } from '../scripts/multi-instrument-ticks.js';
import { median, timeMs, type Bench } from './bench.js';

/** Measured runs of each kind, after one round that is not measured (V8 compiles the hot paths in it). */
const RUNS = 7;

/** The three ways to trade the same files: ESH4 alone (no instruments), [ES] rolled, [ES, NQ] rolled. */
const KINDS = [
  { name: 'ESH4 alone', roots: undefined },
  { name: '[ES] rolled', roots: ['ES'] },
  { name: '[ES, NQ] rolled', roots: ['ES', 'NQ'] },
] as const;

export const multiInstrumentBench: Bench = {
  name: 'backtest-multi-instrument',
  description: 'a 2-cell × 150-trader grid over ES and NQ ticks (H4 and M4): ESH4 alone, [ES] and [ES, NQ] rolled',
  run: async (log) => {
    const folder = mkdtempSync(join(tmpdir(), 'propsim-bench-multi-'));
    try {
      const files = writeTickData(folder, ES_NQ_ROLL);
      const trading = await measure(
        KINDS.map((kind) => grid(files, folder, kind.roots, false)),
        log,
        'trading',
      );
      // The same grid with traders that check every 5 minutes but never find a signal: no orders, so every kind
      // does the same work but for the multi-instrument machinery (bars per contract, a root drawn at each check).
      const quiet = await measure(
        KINDS.map((kind) => grid(files, folder, kind.roots, true)),
        log,
        'never signalling',
      );
      return { trading, quiet };
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

/** Runs the kinds' configs alternately, RUNS times each, and logs and returns their medians and ratios. */
async function measure(configs: BacktestConfig[], log: (line: string) => void, what: string) {
  const cpuMs: number[][] = KINDS.map(() => []);
  const wallMs: number[][] = KINDS.map(() => []);
  let figures = { prints: 0, accountSessionDays: 0 };
  for (const config of configs) await runBacktest(config, { workers: 1 });
  // Alternated, so a busy spell of the machine falls on every kind; CPU time, since the machine is shared.
  for (let run = 0; run < RUNS; run++)
    for (const [k, config] of configs.entries()) {
      const cpu = process.cpuUsage();
      wallMs[k]!.push(
        await timeMs(async () => {
          const { cells } = await runBacktest(config, { workers: 1 });
          figures = {
            prints: cells.reduce((n, c) => n + c.prints, 0),
            accountSessionDays: cells.reduce((n, c) => n + c.accountSessionDays, 0),
          };
        }),
      );
      const used = process.cpuUsage(cpu);
      cpuMs[k]!.push((used.user + used.system) / 1000);
    }
  const rates = KINDS.map((kind, k) => {
    const cpuSeconds = median(cpuMs[k]!) / 1000;
    return {
      kind: kind.name,
      wallSeconds: +(median(wallMs[k]!) / 1000).toFixed(2),
      cpuSeconds: +cpuSeconds.toFixed(2),
      printsPerCpuSecond: Math.round(figures.prints / cpuSeconds),
      accountSessionDaysPerCpuSecond: Math.round(figures.accountSessionDays / cpuSeconds),
    };
  });
  log(
    `${what}: ${figures.prints.toLocaleString('en-US')} prints and ${figures.accountSessionDays} account-session-days a run, medians of ${RUNS} after a warm-up round, on one worker`,
  );
  for (const r of rates)
    log(
      `  ${r.kind}: ${r.cpuSeconds} CPU-s (${r.wallSeconds} s wall), ${r.printsPerCpuSecond.toLocaleString('en-US')} prints/CPU-s, ${r.accountSessionDaysPerCpuSecond.toLocaleString('en-US')} account-session-days/CPU-s`,
    );
  const ratio = (k: number) => +(rates[k]!.printsPerCpuSecond / rates[0]!.printsPerCpuSecond).toFixed(3);
  log(`  against ESH4 alone: [ES] rolled ${ratio(1)}, [ES, NQ] rolled ${ratio(2)}`);
  log('  (target >= 1; what remains, and why trading runs are not like for like: docs/backtesting.md, Cost)');
  return {
    prints: figures.prints,
    accountSessionDays: figures.accountSessionDays,
    runs: RUNS,
    rates,
    esRolledRatio: ratio(1),
    esNqRolledRatio: ratio(2),
  };
}

/** The grid over the four files: ESH4 alone without `roots`, else the blocks trade those roots. */
function grid(files: string[], folder: string, roots: readonly string[] | undefined, quiet: boolean): BacktestConfig {
  const instruments = roots === undefined ? {} : { instruments: [...roots] };
  return parseBacktestConfig(
    {
      name: `${roots === undefined ? 'ESH4 alone' : `${roots.join(', ')} rolled`}${quiet ? ', never signalling' : ''}`,
      seed: 5,
      market: {
        files: files.map((path, i) => ({ path, format: 'ticks', ...(i === 0 ? { instrument: 'ESH4' } : {}) })),
      },
      period: { from: ES_NQ_ROLL.from, to: ES_NQ_ROLL.to },
      traders: {
        synthetic: quiet
          ? [{ count: 150, strategy: 'mean_reversion', ...instruments, params: { threshold_ticks: 1_000_000 } }]
          : [
              { count: 50, strategy: 'random_bracket', ...instruments, params: { trades_per_day: 4 } },
              { count: 50, strategy: 'momentum_breakout', ...instruments, params: { trades_per_day: 3 } },
              {
                count: 50,
                strategy: 'mean_reversion',
                ...instruments,
                params: { trades_per_day: 3, threshold_ticks: 12 },
              },
            ],
      },
      base_plan: 'eval-50k-eod',
      grid: { 'risk_profile.max_drawdown_value': ['2000', '3000'] },
    },
    join(folder, 'config.yaml'),
  );
}
