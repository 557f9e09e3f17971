// Sandbox API throughput: a real `propsim serve` process on loopback, loaded by
// autocannon. POST /v1/orders with a firm key and a valid resting limit order (market open): >= 10,000 requests/s
// with p99 <= 10 ms, both in memory (--memory) and durable (--db: every answer waits for its group commit);
// GET .../risk-state: >= 20,000 requests/s. The seed lifts the rate limit (it would otherwise answer 429 after 100
// requests). Reports requests/s, p50/p99 latency and the server's CPU (user + system time over wall time, from
// /proc), medians of 3 runs; after each durable run, the time a restart on its file takes to listen again, with
// the number of journal lines it applied.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SEED_FILE } from '../src/api/sandbox/seed-file.js';
import { packageRoot } from '../src/market/holiday-file.js';
import { SandboxDb } from '../src/store/sandbox-db.js';
import { median, type Bench } from './bench.js';

const RUNS = Number(process.env.PROPSIM_BENCH_API_RUNS ?? 3);
/** e.g. PROPSIM_BENCH_API_CASES=postOrdersDurable runs that case alone. */
const ONLY_CASES = (process.env.PROPSIM_BENCH_API_CASES ?? 'postOrders,postOrdersDurable,getRiskState,getHealth').split(
  ',',
);
const DURATION_S = 8;
const WARMUP_S = 2;
const CONNECTIONS = 32;
const KEY = 'svc_live_acme_operator_demo';
const ADMIN = 'svc_live_platform_admin_demo';

interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuPercent: number;
  non2xx: number;
  /** Durable runs: the journal lines a restart applied, and how long it took to listen again. */
  restart?: { journalLines: number; ms: number };
}

export const apiBench: Bench = {
  name: 'api',
  description: `sandbox API: autocannon (${CONNECTIONS} connections, ${DURATION_S} s) against a real propsim serve: POST /v1/orders, GET risk-state, and GET /health for reference`,
  async run(log) {
    const figures: Record<string, unknown> = {};
    for (const [name, request, durable] of [
      ['postOrders', postOrder, false] as const,
      ['postOrdersDurable', postOrder, true] as const,
      ['getRiskState', getRiskState, false] as const,
      // The floor of this machine: Fastify answering a route with no work, for comparing the two above.
      ['getHealth', getHealth, false] as const,
    ]) {
      if (!ONLY_CASES.includes(name)) continue;
      const runs: LoadFigures[] = [];
      for (let run = 0; run < RUNS; run++) {
        const folder = mkdtempSync(join(tmpdir(), 'propsim-bench-db-'));
        const store = durable ? ['--db', join(folder, 'sandbox.sqlite')] : ['--memory'];
        const server = await startServer(store);
        try {
          const accountId = await prepare(server.url);
          runs.push(await load(server, request(server.url, accountId)));
        } finally {
          await server.stop();
        }
        if (durable) runs[runs.length - 1]!.restart = await timeRestart(store, join(folder, 'sandbox.sqlite'));
        rmSync(folder, { recursive: true, force: true });
        const last = runs[runs.length - 1]!;
        log(
          `  ${name} run ${run + 1}: ${Math.round(last.requestsPerSecond).toLocaleString('en-US')} req/s, p50 ${last.p50Ms} ms, p99 ${last.p99Ms} ms, server CPU ${last.serverCpuPercent.toFixed(0)} %, non-2xx ${last.non2xx}${last.restart ? `; restart on ${last.restart.journalLines.toLocaleString('en-US')} journal lines: ${last.restart.ms} ms` : ''}`,
        );
      }
      const summary = {
        requestsPerSecond: Math.round(median(runs.map((r) => r.requestsPerSecond))),
        p50Ms: median(runs.map((r) => r.p50Ms)),
        p99Ms: median(runs.map((r) => r.p99Ms)),
        serverCpuPercent: Math.round(median(runs.map((r) => r.serverCpuPercent))),
        non2xx: Math.max(...runs.map((r) => r.non2xx)),
        ...(durable
          ? {
              restartMs: median(runs.map((r) => r.restart!.ms)),
              restartJournalLines: median(runs.map((r) => r.restart!.journalLines)),
              restartLinesPerSecond: Math.round(
                median(runs.map((r) => (r.restart!.journalLines / r.restart!.ms) * 1000)),
              ),
            }
          : {}),
      };
      log(
        `  ${name} median: ${summary.requestsPerSecond.toLocaleString('en-US')} req/s, p50 ${summary.p50Ms} ms, p99 ${summary.p99Ms} ms, server CPU ${summary.serverCpuPercent} %`,
      );
      figures[name] = summary;
    }
    return figures;
  },
};

function postOrder(url: string, accountId: string): autocannon.Options {
  const body = JSON.stringify({
    account_id: accountId,
    instrument_id: 'ESH6',
    side: 'buy',
    type: 'limit',
    quantity: 1,
    limit_price: '4000.00',
  });
  return {
    url: `${url}/v1/orders`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': KEY },
    body,
  };
}

function getHealth(url: string): autocannon.Options {
  return { url: `${url}/health` };
}

function getRiskState(url: string, accountId: string): autocannon.Options {
  return { url: `${url}/v1/firm-control/accounts/${accountId}/risk-state`, headers: { 'x-service-api-key': KEY } };
}

async function load(server: Server, options: autocannon.Options): Promise<LoadFigures> {
  // Warm up first (JIT, the route's first thousands of requests): the measured window is the steady state.
  await autocannon({ ...options, connections: CONNECTIONS, duration: WARMUP_S });
  const before = cpuMs(server.pid);
  const startedMs = performance.now();
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_S });
  const wallMs = performance.now() - startedMs;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    serverCpuPercent: ((cpuMs(server.pid) - before) / wallMs) * 100,
    non2xx: result.non2xx + result.errors,
  };
}

/** The acme demo account, past its risk-loading window. */
async function prepare(url: string): Promise<string> {
  const accounts = (await (
    await fetch(`${url}/v1/firm-control/accounts`, { headers: { 'x-service-api-key': KEY } })
  ).json()) as {
    items: { account_id: string }[];
  };
  await fetch(`${url}/v1/sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': ADMIN },
    body: JSON.stringify({ by: '1s' }),
  });
  return accounts.items[0]!.account_id;
}

export interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts serve again on a durable run's file: how long until it listens, and how many lines it applied. */
async function timeRestart(store: readonly string[], file: string): Promise<{ journalLines: number; ms: number }> {
  const peek = SandboxDb.open(file);
  const journalLines = peek.lineCount;
  await peek.close();
  const startedMs = performance.now();
  const server = await startServer(store);
  const ms = Math.round(performance.now() - startedMs);
  await server.stop();
  return { journalLines, ms };
}

/** The bundled seed with the rate limit lifted, written to a temporary file (the same bytes each time). */
export function benchSeedFile(edit?: { name: string; change: (seed: string) => string }): string {
  const seed = join(tmpdir(), `propsim-bench-seed${edit ? `-${edit.name}` : ''}.yaml`);
  // The bundled seed names bundled plans, which a copy elsewhere still finds (propsim's fixtures/plans).
  writeFileSync(
    seed,
    `${(edit?.change ?? String)(readFileSync(DEFAULT_SEED_FILE, 'utf8'))}\nrate_limit: { per_second: 100000000, burst: 100000000 }\n`,
  );
  return seed;
}

/** `propsim serve` on a free port, with the bench seed; state in memory unless `store` names a --db. */
export async function startServer(store: readonly string[] = ['--memory'], seed = benchSeedFile()): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      // e.g. PROPSIM_BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp" to profile the server
      ...(process.env.PROPSIM_BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      join(packageRoot(), 'bin', 'propsim.js'),
      'serve',
      '--port',
      '0',
      '--seed',
      seed,
      ...store,
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`propsim serve exited ${code}: ${text}`)));
  });
  return { url, pid: child.pid!, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** User + system CPU time of a process in ms (Linux /proc; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const { userMs, systemMs } = cpuSplitMs(pid);
  return userMs + systemMs;
}

/** A process's CPU time so far, in its own code (user) and in the kernel on its behalf (system: sockets, files). */
export function cpuSplitMs(pid: number): { userMs: number; systemMs: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { userMs: Number(fields[11]) * 10, systemMs: Number(fields[12]) * 10 };
}
