// Restart of a durable sandbox: a db holding INPUTS journal lines (market orders filled by the next
// print, half and half, on a bench plan's account that never breaches), built in this process through the same
// sandbox and store that `propsim serve --db` uses; then a real `propsim serve` on that file, timed from spawn to
// its `listening on` line. The bar is <= 5 s for 1,000,000 inputs. The clean stop leaves a snapshot, so the
// restart loads it and the journal's lines instead of applying them again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_START_MS, Sandbox } from '../src/api/sandbox/sandbox.js';
import { loadSeedFile } from '../src/api/sandbox/seed-file.js';
import { openServeStore } from '../src/cli/serve-store.js';
import { GlobexCalendar } from '../src/core/calendar/globex-calendar.js';
import { planJson } from '../src/core/kernel/read/risk-json.js';
import { loadHolidayFile } from '../src/market/holiday-file.js';
import { benchSeedFile, startServer } from './api.bench.js';
import { median, type Bench } from './bench.js';
import { benchPlan } from './bench-plans.js';

const INPUTS = Number(process.env.PROPSIM_BENCH_RESTART_INPUTS ?? 1_000_000);
const RESTARTS = 3;
/** How long the clean stop took that wrote the last snapshot (its share of the build). */
let closeMs = 0;

export const restartBench: Bench = {
  name: 'restart',
  description: `durable sandbox restart: propsim serve --db on a file of ${INPUTS.toLocaleString('en-US')} journaled inputs, spawn to listening`,
  async run(log) {
    const folder = mkdtempSync(join(tmpdir(), 'propsim-bench-restart-'));
    const file = join(folder, 'sandbox.sqlite');
    try {
      const buildMs = await buildDb(file);
      log(
        `  built ${INPUTS.toLocaleString('en-US')} inputs in ${(buildMs / 1000).toFixed(1)} s; the clean stop with its snapshot took ${(closeMs / 1000).toFixed(2)} s`,
      );
      // The build left this process a heap of gigabytes: collected now, not by the GC's background threads on the
      // cores the restarts are timed on (`npm run bench` runs node with --expose-gc).
      globalThis.gc?.();
      const times: number[] = [];
      for (let run = 1; run <= RESTARTS; run++) {
        const started = performance.now();
        const server = await startServer(['--db', file]);
        times.push(Math.round(performance.now() - started));
        await server.stop();
        log(`  restart ${run}: ${(times.at(-1)! / 1000).toFixed(2)} s`);
      }
      const ms = median(times);
      log(
        `  median ${(ms / 1000).toFixed(2)} s for ${INPUTS.toLocaleString('en-US')} inputs: ${Math.round((INPUTS / ms) * 1000).toLocaleString('en-US')} inputs/s (target <= 5 s)`,
      );
      return {
        inputs: INPUTS,
        restartMs: ms,
        restarts: times,
        inputsPerSecond: Math.round((INPUTS / ms) * 1000),
        closeWithSnapshotMs: Math.round(closeMs),
      };
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

/** A db as `serve --db FILE` on the bundled seed would leave it after INPUTS inputs. */
export async function buildDb(file: string): Promise<number> {
  const started = performance.now();
  const market: never[] = [];
  const seedFile = benchSeedFile();
  const { db, startMs } = await openServeStore(
    { db: file, memory: false, seedFile, startMs: undefined, market },
    DEFAULT_START_MS,
  );
  const seed = loadSeedFile(seedFile);
  const calendar = new GlobexCalendar(loadHolidayFile());
  const sandbox = await Sandbox.start({ seed, startMs, calendar, market, clockMode: 'manual' }, db);
  const opened = sandbox.kernel.dispatch({ type: 'open_account', plan: planJson(benchPlan()) });
  const accountId = opened.ok ? (opened.body as { account_id: string }).account_id : '';
  sandbox.kernel.dispatch({ type: 'advance', to_ms: startMs + 1000 });
  for (let i = 0; i < INPUTS / 2; i++) {
    const side = i % 2 === 0 ? 'buy' : 'sell';
    const body = { account_id: accountId, instrument_id: 'ESM6', side, type: 'market', quantity: 1 };
    sandbox.kernel.dispatch({ type: 'place_order', body });
    sandbox.kernel.dispatch({ type: 'tick', instrument_id: 'ESM6', price: '5000.00' });
    if (i % 5_000 === 0) await sandbox.durable(); // lets the writer keep up, as requests would
  }
  const closing = performance.now();
  await sandbox.close(); // a clean stop: with the snapshot a restart starts from
  closeMs = performance.now() - closing;
  return performance.now() - started;
}
