// The replay's fixed costs (issue 40): a `propsim replay` process of a 1,000-account YAML scenario (each account
// opens one contract with a `fill` step, then the market file plays), run on a file of 0 prints and on one of
// 200,000. The 0-print run is the cost outside the prints (start-up, the YAML, account set-up, the report and its
// charts); the difference, per print, is what each further print costs, set against the bare read of the same CSV
// in this process. Targets: at most 0.75 s outside the prints; each further print at most 2 x the bare read's.
// Medians of 3 runs. The scenario and the CSVs are generated under the OS temp dir (replay.bench.ts writes them).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { median, type Bench } from './bench.js';
import { bareRead, ensureTicks, fmt, replayProcess, scenarioJson } from './replay.bench.js';

const ACCOUNTS = 1_000;
const PRINTS = 200_000;
const RUNS = 3;

/** Writes the YAML scenario of `accounts` accounts over `ticks`, its clock run to the end of PRINTS prints. */
export function writeFixedCostScenario(path: string, ticks: string, accounts = ACCOUNTS): void {
  writeFileSync(path, stringifyYaml(JSON.parse(scenarioJson(ticks, accounts, PRINTS))));
}

export const replayFixedBench: Bench = {
  name: 'replay-fixed',
  description: `propsim replay of a ${fmt(ACCOUNTS)}-account YAML scenario on 0 and on ${fmt(PRINTS)} prints: the cost outside the prints, and each further print against the bare read`,
  async run(log) {
    const folder = join(tmpdir(), 'propsim-bench-replay');
    const none = join(folder, 'fixed-0.yaml');
    const some = join(folder, `fixed-${PRINTS}.yaml`);
    const ticks = await ensureTicks(folder, PRINTS, log);
    writeFixedCostScenario(none, await ensureTicks(folder, 0, log));
    writeFixedCostScenario(some, ticks);
    const bare: number[] = [];
    const zero: number[] = [];
    const full: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      bare.push(await bareRead(ticks, PRINTS));
      zero.push(replayProcess(none).seconds);
      full.push(replayProcess(some).seconds);
      log(`  run ${run + 1}: ${zero[run]!.toFixed(2)} s on 0 prints, ${full[run]!.toFixed(2)} s on ${fmt(PRINTS)}`);
    }
    const fixedSeconds = median(zero);
    const fullSeconds = median(full);
    const perPrintMicros = ((fullSeconds - fixedSeconds) / PRINTS) * 1e6;
    const bareMicros = 1e6 / median(bare);
    const figures = {
      accounts: ACCOUNTS,
      prints: PRINTS,
      fixedSeconds: Number(fixedSeconds.toFixed(2)),
      wholeSeconds: Number(fullSeconds.toFixed(2)),
      perPrintMicros: Number(perPrintMicros.toFixed(2)),
      bareReadPerPrintMicros: Number(bareMicros.toFixed(2)),
      perPrintOverBareRead: Number((perPrintMicros / bareMicros).toFixed(2)),
    };
    log(
      `${fmt(ACCOUNTS)} accounts: ${figures.fixedSeconds} s outside the prints (target <= 0.75); each print ${figures.perPrintMicros} µs = ${figures.perPrintOverBareRead} x the bare read's ${figures.bareReadPerPrintMicros} µs (target <= 2)`,
    );
    return figures;
  },
};
