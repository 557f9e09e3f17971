// The product path at scale (issue 11): a whole `propsim replay` process over 2,000,000 prints of 5 instruments
// with 1,000 accounts holding positions, against the bare read of the same CSV (readTickCsv in this process).
// Targets: replay >= 0.5 x the bare read, report.html <= 2 MB. Reports prints/s, the ratio, and the sizes of
// events.jsonl and report.html; medians of 3 runs.
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
import { median, type Bench } from './bench.js';

const PRINTS = 2_000_000;
const ACCOUNTS = 1_000;
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

export const replayBench: Bench = {
  name: 'replay',
  description: `a whole propsim replay: ${PRINTS.toLocaleString('en-US')} prints of ${INSTRUMENTS.length} instruments, ${ACCOUNTS.toLocaleString('en-US')} accounts holding positions, against the bare CSV read`,
  async run(log) {
    const folder = join(tmpdir(), 'propsim-bench-replay');
    const ticks = await ensureTicks(folder, log);
    const scenario = join(folder, 'scenario.yaml');
    writeFileSync(scenario, scenarioText(ticks));
    const bare: number[] = [];
    const replay: number[] = [];
    let sizes = { eventsBytes: 0, reportBytes: 0 };
    for (let run = 0; run < RUNS; run++) {
      const startMs = performance.now();
      let rows = 0;
      for await (const batch of readTickCsv({ path: ticks, format: 'ticks' }, 0, new SymbolTable()))
        rows += batch.length;
      bare.push(PRINTS / ((performance.now() - startMs) / 1000));
      if (rows !== PRINTS) throw new Error(`the bare read found ${rows} rows, not ${PRINTS}`);
      const out = mkdtempSync(join(tmpdir(), 'propsim-bench-replay-out-'));
      const replayStart = performance.now();
      const child = spawnSync(
        process.execPath,
        [join(packageRoot(), 'bin', 'propsim.js'), 'replay', scenario, '--out', out],
        {
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      const seconds = (performance.now() - replayStart) / 1000;
      if (child.status !== 0) throw new Error(`propsim replay exited ${child.status}: ${child.stderr}`);
      replay.push(PRINTS / seconds);
      const result = join(out, 'replay-bench');
      sizes = {
        eventsBytes: statSync(join(result, 'events.jsonl')).size,
        reportBytes: statSync(join(result, 'report.html')).size,
      };
      rmSync(out, { recursive: true, force: true });
      log(
        `  run ${run + 1}: bare read ${fmt(bare[run]!)} prints/s, replay ${fmt(replay[run]!)} prints/s (${seconds.toFixed(1)} s), events.jsonl ${mb(sizes.eventsBytes)}, report.html ${mb(sizes.reportBytes)}`,
      );
    }
    const figures = {
      prints: PRINTS,
      accounts: ACCOUNTS,
      barePrintsPerSecond: Math.round(median(bare)),
      replayPrintsPerSecond: Math.round(median(replay)),
      ratio: Number((median(replay) / median(bare)).toFixed(3)),
      ...sizes,
    };
    log(
      `replay ${fmt(figures.replayPrintsPerSecond)} prints/s = ${figures.ratio} x the bare read (target 0.5); report.html ${mb(sizes.reportBytes)} (target 2 MB)`,
    );
    return figures;
  },
};

/** A random walk per instrument, one print per row in turn, written once and kept between runs. */
async function ensureTicks(folder: string, log: (line: string) => void): Promise<string> {
  const path = join(folder, `ticks-${PRINTS}.csv`);
  if (existsSync(path)) return path;
  log(`  writing ${PRINTS.toLocaleString('en-US')} prints to ${path}`);
  rmSync(folder, { recursive: true, force: true });
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
  for (let p = 0; p < PRINTS; p++) {
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

/** 1,000 accounts, each opening one contract of an instrument in turn at its first price, then the whole file. */
function scenarioText(ticks: string): string {
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => `a${i}`);
  const fills = accounts.map((alias, i) => {
    const instrument = INSTRUMENTS[i % INSTRUMENTS.length]!;
    const side = i % 2 === 0 ? 'buy' : 'sell';
    const price = (instrument.ticks * instrument.tick).toFixed(instrument.places);
    return `  - fill: { account: ${alias}, instrument: ${instrument.symbol}, side: ${side}, quantity: 1, price: "${price}" }`;
  });
  const endIso = new Date(START_MS + PRINTS * 10 + 1000).toISOString();
  return [
    'name: replay-bench',
    `start: ${new Date(START_MS - 60_000).toISOString()}`,
    `market: { files: [ { path: ${JSON.stringify(ticks)}, format: ticks } ] }`,
    'plans:',
    '  p: { starting_balance: "100000", risk_profile: { max_drawdown_mode: static, max_drawdown_value: "5000" }, passing_criteria: { profit_target: "6000" } }',
    `accounts: [ ${accounts.map((a) => `{ alias: ${a}, plan: p }`).join(', ')} ]`,
    'steps:',
    ...fills,
    `  - at: ${endIso}`,
    '',
  ].join('\n');
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
