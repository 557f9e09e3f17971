// The replay's fixed costs: a `propsim replay` process of a 1,000-account YAML scenario (each account
// opens one contract with a `fill` step, then the market file plays), run on a file of 0 prints and on one of
// 200,000. The 0-print run is the cost outside the prints (start-up, the YAML, account set-up, the report and its
// charts); the difference, per print, is what each further print costs, set against the bare read of the same CSV
// in this process. Target: at most 0.75 s outside the prints. The per-print figure here is of the process's first
// prints (V8 still compiling the print path); the steady cost per print, against its target of at most 2 x the bare
// read's, is replay.bench.ts's (between 200,000 and 2,000,000 prints).
// Medians of 3 runs, wall and CPU time (the machine may be shared: CPU time moves less with the others' load). The scenario and the CSVs are generated under the OS temp dir (replay.bench.ts writes them).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { median, type Bench } from './bench.js';
import { packageRoot } from '../src/market/holiday-file.js';
import { bareRead, ensureTicks, fmt, replayProcess, scenarioJson, type ReplayRun } from './replay.bench.js';

const ACCOUNTS = 1_000;
const PRINTS = 200_000;
const RUNS = 3;

/** Writes the YAML scenario of `accounts` accounts over `ticks`, its clock run to the end of PRINTS prints. */
export function writeFixedCostScenario(path: string, ticks: string, accounts = ACCOUNTS): void {
  writeFileSync(path, stringifyYaml(JSON.parse(scenarioJson(ticks, accounts, PRINTS))));
}

interface FixedCost {
  fixedSeconds: number;
  fixedCpuSeconds: number;
  wholeSeconds: number;
  perPrintMicros: number;
  perPrintOverBareRead: number;
  /** The same from CPU times: the replay's per print against the bare read's. */
  perPrintCpuMicros: number;
  perPrintCpuOverBareRead: number;
}

/** The runs of one propsim (`bin`): 0 prints and PRINTS prints, RUNS times each, against the bare read's medians. */
function fixedCostOf(
  runs: { zero: ReplayRun[]; full: ReplayRun[] },
  bareMicros: number,
  bareCpuMicros: number,
): FixedCost {
  const fixedSeconds = median(runs.zero.map((r) => r.seconds));
  const wholeSeconds = median(runs.full.map((r) => r.seconds));
  const perPrintMicros = ((wholeSeconds - fixedSeconds) / PRINTS) * 1e6;
  const cpuOf = (list: ReplayRun[]) => median(list.map((r) => r.cpuSeconds));
  const perPrintCpuMicros = ((cpuOf(runs.full) - cpuOf(runs.zero)) / PRINTS) * 1e6;
  return {
    fixedSeconds: round(fixedSeconds),
    fixedCpuSeconds: round(median(runs.zero.map((r) => r.cpuSeconds))),
    wholeSeconds: round(wholeSeconds),
    perPrintMicros: round(perPrintMicros),
    perPrintOverBareRead: round(perPrintMicros / bareMicros),
    perPrintCpuMicros: round(perPrintCpuMicros),
    perPrintCpuOverBareRead: round(perPrintCpuMicros / bareCpuMicros),
  };
}

const round = (n: number) => Number(n.toFixed(2));

export const replayFixedBench: Bench = {
  name: 'replay-fixed',
  description: `propsim replay of a ${fmt(ACCOUNTS)}-account YAML scenario on 0 and on ${fmt(PRINTS)} prints: the cost outside the prints, and each further print against the bare read (PROPSIM_BENCH_REPLAY_BEFORE=<another checkout's bin/propsim.js> runs it too, in turn, to compare)`,
  async run(log) {
    const folder = join(tmpdir(), 'propsim-bench-replay');
    const none = join(folder, 'fixed-0.yaml');
    const some = join(folder, `fixed-${PRINTS}.yaml`);
    const ticks = await ensureTicks(folder, PRINTS, log);
    writeFixedCostScenario(none, await ensureTicks(folder, 0, log));
    writeFixedCostScenario(some, ticks);
    const bins: Record<string, string> = { now: join(packageRoot(), 'bin', 'propsim.js') };
    if (process.env.PROPSIM_BENCH_REPLAY_BEFORE) bins.before = process.env.PROPSIM_BENCH_REPLAY_BEFORE;
    const runs = Object.fromEntries(
      Object.keys(bins).map((name) => [name, { zero: [] as ReplayRun[], full: [] as ReplayRun[] }]),
    );
    const bare: number[] = [];
    const bareCpu: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const cpuBefore = process.cpuUsage();
      bare.push(await bareRead(ticks, PRINTS));
      const cpu = process.cpuUsage(cpuBefore);
      bareCpu.push((cpu.user + cpu.system) / PRINTS);
      for (const [name, bin] of Object.entries(bins)) {
        const zero = replayProcess(none, bin);
        const full = replayProcess(some, bin);
        runs[name]!.zero.push(zero);
        runs[name]!.full.push(full);
        log(
          `  run ${run + 1} (${name}): ${zero.seconds.toFixed(2)} s (cpu ${zero.cpuSeconds.toFixed(2)} s) on 0 prints, ${full.seconds.toFixed(2)} s on ${fmt(PRINTS)}`,
        );
      }
    }
    const bareMicros = 1e6 / median(bare);
    const bareCpuMicros = median(bareCpu);
    const figures: Record<string, unknown> = {
      accounts: ACCOUNTS,
      prints: PRINTS,
      bareReadPerPrintMicros: round(bareMicros),
      bareReadPerPrintCpuMicros: round(bareCpuMicros),
    };
    for (const name of Object.keys(bins)) {
      const cost = fixedCostOf(runs[name]!, bareMicros, bareCpuMicros);
      figures[name] = cost;
      log(
        `${name}: ${cost.fixedSeconds} s outside the prints (cpu ${cost.fixedCpuSeconds} s; target <= 0.75 s); each print ${cost.perPrintMicros} µs = ${cost.perPrintOverBareRead} x the bare read's ${round(bareMicros)} µs (the process's first prints, V8 still compiling: the steady cost per print is the replay bench's); in CPU time ${cost.perPrintCpuMicros} µs = ${cost.perPrintCpuOverBareRead} x the bare read's ${round(bareCpuMicros)} µs`,
      );
    }
    return figures;
  },
};
