// The product path at scale: whole `propsim replay` processes over 2,000,000 prints of 5 instruments
// with 1,000 and with 10,000 accounts holding positions, against the bare read of the same CSV (readTickCsv in this
// process). A process pays fixed costs too (start-up, the scenario's YAML, the report): each case also runs on the
// file's first 200,000 prints, and the difference gives the cost of each further print (the marginal rate).
// Targets: 1,000 accounts: replay >= 0.5 x the bare read, report.html <= 2 MB; 10,000 accounts: >= 1 M prints/s.
// The scenarios are JSON, as a script writes them (the same scenario's load time as YAML is logged beside).
// Medians of 3 runs.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/market/holiday-file.js';
import { SymbolTable } from '../src/market/symbol-table.js';
import { readTickCsv } from '../src/market/tick-csv-reader.js';
import { stringify as stringifyYaml } from 'yaml';
import { loadScenarioFile } from '../src/scenario/load-scenario.js';
import { median, type Bench } from './bench.js';

const PRINTS = 2_000_000;
const SHORT_PRINTS = 200_000;
const CASES = [1_000, 10_000];
const RUNS = 3;
/** Tuesday 2026-03-10 08:30 CT; a print every 10 ms (spread over the instruments) stays inside the session. */
const START_MS = Date.parse('2026-03-10T13:30:00Z');
const INSTRUMENTS = [
  { symbol: 'ESM6', ticks: 20_000, tick: 0.25, places: 2 },
  { symbol: 'NQM6', ticks: 72_000, tick: 0.25, places: 2 },
  { symbol: 'CLM6', ticks: 7_000, tick: 0.01, places: 2 },
  { symbol: 'GCM6', ticks: 25_000, tick: 0.1, places: 1 },
  { symbol: '6EM6', ticks: 21_800, tick: 0.00005, places: 5 },
];

export interface ReplayRun {
  seconds: number;
  /** CPU time of the whole process, every thread (the chart and journal threads too). */
  cpuSeconds: number;
  eventsBytes: number;
  reportBytes: number;
}

/**
 * Loaded before the CLI in the child: prints the process's CPU time (every thread's) as it exits. Wall time on a
 * machine shared with other work moves with their load; CPU time much less. The CLI's worker threads load it too, and
 * one that ended before the process (the journal's writer) printed the CPU time so far, which was read as the whole:
 * only the main thread prints.
 */
const CPU_AT_EXIT = `data:text/javascript,import{isMainThread}from'node:worker_threads';if(isMainThread)process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\nbench-cpu-us '+(u.user+u.system)+'\\n')})`;

export const replayBench: Bench = {
  name: 'replay',
  description: `whole propsim replay processes: ${PRINTS.toLocaleString('en-US')} prints of ${INSTRUMENTS.length} instruments, ${CASES.map((n) => n.toLocaleString('en-US')).join(' and ')} accounts holding positions, against the bare CSV read`,
  async run(log) {
    const folder = join(tmpdir(), 'propsim-bench-replay');
    const ticks = await ensureTicks(folder, PRINTS, log);
    const shortTicks = await ensureTicks(folder, SHORT_PRINTS, log);
    const bare: number[] = [];
    for (let run = 0; run < RUNS; run++) bare.push(await bareRead(ticks));
    const bareRate = median(bare);
    log(`  bare read ${fmt(bareRate)} prints/s (runs: ${bare.map(fmt).join(', ')})`);
    const cases: Record<string, unknown>[] = [];
    for (const accounts of CASES) {
      const full = join(folder, `scenario-${accounts}.json`);
      const short = join(folder, `scenario-${accounts}-short.json`);
      writeFileSync(full, scenarioJson(ticks, accounts));
      writeFileSync(short, scenarioJson(shortTicks, accounts));
      const asYaml = join(folder, `scenario-${accounts}.yaml`);
      writeFileSync(asYaml, stringifyYaml(JSON.parse(scenarioJson(ticks, accounts))));
      const loads = { json: loadSeconds(full), yaml: loadSeconds(asYaml) };
      log(
        `  ${fmt(accounts)} accounts: the scenario loads in ${loads.json.toFixed(2)} s as JSON (as below), ${loads.yaml.toFixed(2)} s as YAML`,
      );
      const fulls: ReplayRun[] = [];
      const shorts: ReplayRun[] = [];
      for (let run = 0; run < RUNS; run++) {
        fulls.push(replayProcess(full));
        shorts.push(replayProcess(short));
        log(
          `  ${fmt(accounts)} accounts, run ${run + 1}: ${fulls[run]!.seconds.toFixed(2)} s for ${fmt(PRINTS)} prints, ${shorts[run]!.seconds.toFixed(2)} s for ${fmt(SHORT_PRINTS)}`,
        );
      }
      const fullSeconds = median(fulls.map((r) => r.seconds));
      const shortSeconds = median(shorts.map((r) => r.seconds));
      const whole = PRINTS / fullSeconds;
      const marginal = (PRINTS - SHORT_PRINTS) / (fullSeconds - shortSeconds);
      const figures = {
        accounts,
        prints: PRINTS,
        wholeProcessSeconds: Number(fullSeconds.toFixed(2)),
        wholePrintsPerSecond: Math.round(whole),
        wholeRatio: Number((whole / bareRate).toFixed(3)),
        marginalPrintsPerSecond: Math.round(marginal),
        marginalRatio: Number((marginal / bareRate).toFixed(3)),
        fixedSeconds: Number((fullSeconds - PRINTS / marginal).toFixed(2)),
        scenarioLoadSeconds: { json: Number(loads.json.toFixed(2)), yaml: Number(loads.yaml.toFixed(2)) },
        eventsBytes: fulls[0]!.eventsBytes,
        reportBytes: fulls[0]!.reportBytes,
      };
      log(
        `${fmt(accounts)} accounts: whole process ${fmt(whole)} prints/s = ${figures.wholeRatio} x the bare read; each further print at ${fmt(marginal)} prints/s = ${figures.marginalRatio} x; fixed costs ${figures.fixedSeconds} s; events.jsonl ${mb(figures.eventsBytes)}, report.html ${mb(figures.reportBytes)}`,
      );
      cases.push(figures);
    }
    return { barePrintsPerSecond: Math.round(bareRate), cases };
  },
};

export async function bareRead(ticks: string, prints = PRINTS): Promise<number> {
  const startMs = performance.now();
  let rows = 0;
  for await (const batch of readTickCsv({ path: ticks, format: 'ticks' }, 0, new SymbolTable())) rows += batch.length;
  if (rows !== prints) throw new Error(`the bare read found ${rows} rows, not ${prints}`);
  return prints / ((performance.now() - startMs) / 1000);
}

export function replayProcess(scenario: string, bin = join(packageRoot(), 'bin', 'propsim.js')): ReplayRun {
  const out = mkdtempSync(join(tmpdir(), 'propsim-bench-replay-out-'));
  try {
    const startMs = performance.now();
    const child = spawnSync(process.execPath, ['--import', CPU_AT_EXIT, bin, 'replay', scenario, '--out', out], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = (performance.now() - startMs) / 1000;
    if (child.status !== 0) throw new Error(`propsim replay exited ${child.status}: ${child.stderr}`);
    const cpu = /bench-cpu-us (\d+)/.exec(child.stderr);
    const result = join(out, 'replay-bench');
    return {
      seconds,
      cpuSeconds: cpu ? Number(cpu[1]) / 1e6 : NaN,
      eventsBytes: statSync(join(result, 'events.jsonl')).size,
      reportBytes: statSync(join(result, 'report.html')).size,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** A random walk per instrument, one print per row in turn, written once and kept between runs. */
export async function ensureTicks(folder: string, prints: number, log: (line: string) => void): Promise<string> {
  const path = join(folder, `ticks-${prints}.csv`);
  if (existsSync(path)) return path;
  log(`  writing ${prints.toLocaleString('en-US')} prints to ${path}`);
  const partial = `${path}.partial`;
  mkdirSync(folder, { recursive: true });
  const out = createWriteStream(partial);
  out.write('ts,instrument,price,size\n');
  const walk = INSTRUMENTS.map((i) => i.ticks);
  let seed = 7;
  const step = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return (seed % 3) - 1;
  };
  for (let p = 0; p < prints; p++) {
    const k = p % INSTRUMENTS.length;
    const instrument = INSTRUMENTS[k]!;
    walk[k]! += step();
    const line = `${START_MS + p * 10},${instrument.symbol},${(walk[k]! * instrument.tick).toFixed(instrument.places)},5\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  renameSync(partial, path);
  return path;
}

/**
 * The accounts, each opening one contract of an instrument in turn at its first price, then the whole file. Written
 * as JSON, as a script that generates a scenario would (docs/scenarios.md#large-scenarios-as-json).
 */
export function scenarioJson(ticks: string, count: number, prints = PRINTS): string {
  const accounts = Array.from({ length: count }, (_, i) => `a${i}`);
  const fills = accounts.map((alias, i) => {
    const instrument = INSTRUMENTS[i % INSTRUMENTS.length]!;
    const side = i % 2 === 0 ? 'buy' : 'sell';
    const price = (instrument.ticks * instrument.tick).toFixed(instrument.places);
    return { fill: { account: alias, instrument: instrument.symbol, side, quantity: 1, price } };
  });
  const scenario = {
    name: 'replay-bench',
    start: new Date(START_MS - 60_000).toISOString(),
    market: { files: [{ path: ticks, format: 'ticks' }] },
    plans: {
      p: {
        starting_balance: '100000',
        risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '5000' },
        passing_criteria: { profit_target: '6000' },
      },
    },
    accounts: accounts.map((alias) => ({ alias, plan: 'p' })),
    steps: [...fills, { at: new Date(START_MS + prints * 10 + 1000).toISOString() }],
  };
  return JSON.stringify(scenario, null, 1);
}

/** How long loading (and validating) a scenario file takes in this process. */
function loadSeconds(file: string): number {
  const startMs = performance.now();
  loadScenarioFile(file);
  return (performance.now() - startMs) / 1000;
}

export function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
