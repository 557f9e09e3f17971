// `backtest --queue` with `propsim worker` processes on a real redis-server (docs/scaling.md): outputs byte-identical
// to the local run, a worker killed mid-shard loses nothing, and the clear refusals (an unreachable Redis, a data
// file whose content differs, a shard or a worker of another propsim build, before the run or mid-run).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCliAsync, type CliResult } from '../../cli/run-cli.js';
import { freePort, startRedis, type RunningRedis } from '../../../bench/redis-server.js';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import type { CellResult } from '../../../src/backtest/cells/cell-runner.js';
import { cellsToRun } from '../../../src/backtest/config/cell-subset.js';
import { buildIdentity, computeBuildIdentity } from '../../../src/backtest/queue/build-identity.js';
import { shardFiles } from '../../../src/backtest/queue/shard-files.js';
import type { Shard, ShardResult } from '../../../src/backtest/queue/shard.js';
import { workerName } from '../../../src/backtest/queue/worker-versions.js';
import { loadHolidayDocument } from '../../../src/market/holiday-file.js';
import { startWorker, type WorkerProcess } from './worker-process.js';

const CONFIG = fileURLToPath(new URL('./fixtures/queue-6e.yaml', import.meta.url));
const MARKET = fileURLToPath(new URL('../../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url));
/** This checkout's build identity (docs/scaling.md#workers-on-n-machines): what the CLI the tests run announces. */
const BUILD = buildIdentity();
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const outFolder = () => join(mkdtempSync(join(tmpdir(), 'propsim-queue-')), 'out');
const backtest = (out: string, ...flags: string[]) =>
  runCliAsync(['backtest', '--config', CONFIG, '--out', out, ...flags]);

/** Every output file of `out`, by name: what a byte comparison needs. */
function outputs(out: string): Record<string, Buffer> {
  return Object.fromEntries(readdirSync(out).map((name) => [name, readFileSync(join(out, name))]));
}

function expectSucceeded(result: CliResult): void {
  expect(result.status, result.stderr).toBe(0);
}

let redis: RunningRedis;
let local: Record<string, Buffer>;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  const out = outFolder();
  [redis] = await Promise.all([startRedis(), backtest(out, '--workers', '2').then(expectSucceeded)]);
  local = outputs(out);
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  await redis?.stop();
}, 60_000);

async function worker(...extra: string[]): Promise<WorkerProcess> {
  return tracked(await startWorker(redis.url, extra));
}

function tracked(started: WorkerProcess): WorkerProcess {
  workers.push(started);
  return started;
}

describe('backtest --queue', () => {
  it('two queue workers: the outputs are byte-identical to the local run with worker threads', async () => {
    const [a, b] = await Promise.all([worker(), worker()]);
    const out = outFolder();
    const result = await backtest(out, '--queue', redis.url);
    expectSucceeded(result);
    expect(Object.keys(local).sort()).toEqual(['cells.csv', 'report.html', 'summary.json', 'traders.csv']);
    expect(outputs(out)).toEqual(local);
    expect(result.stderr).toMatch(/cell 6\/6 done \([\d.]+ s\): [\d,]+ account-session-days\/s, [12] workers? seen/);
    // Every cell ran on a worker (once, unless a loaded machine made a lock lapse and a cell ran twice).
    expect(`${a.log()}${b.log()}`.match(/: done in/g)?.length).toBeGreaterThanOrEqual(6);
    await Promise.all([a.stop(), b.stop()]);
  }, 180_000);

  it('a worker killed mid-shard (SIGKILL): another worker runs its shard and the outputs stay identical', async () => {
    const doomed = await worker();
    const out = outFolder();
    const run = backtest(out, '--queue', redis.url);
    const [, shard] = await doomed.waitFor(/shard (\S+) \(cell [^)]*\): started/);
    doomed.child.kill('SIGKILL');
    const survivor = await worker();
    const result = await run;
    expectSucceeded(result);
    expect(outputs(out)).toEqual(local);
    expect(doomed.log()).not.toMatch(new RegExp(`shard ${shard} \\(cell [^)]*\\): done`));
    expect(survivor.log()).toMatch(new RegExp(`shard ${shard} \\(cell [^)]*\\): done in`));
    await survivor.stop();
  }, 180_000);

  it('Ctrl-C on the coordinator: exit 130, nothing written, and its shards waiting for a worker are removed', async () => {
    const queue = new Queue('propsim-shards', { connection: connectionOf(redis.url) });
    try {
      const out = outFolder();
      const { child, exited } = coordinator(out);
      while ((await queue.getWaitingCount()) < 6) await new Promise((resolve) => setTimeout(resolve, 100));
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(await queue.getWaitingCount()).toBe(0);
      expect(existsSync(out)).toBe(false);
    } finally {
      await queue.close();
    }
  }, 60_000);

  it('an unreachable Redis: exit 2 naming the URL (password hidden) before any work, nothing written', async () => {
    const port = await freePort();
    const out = outFolder();
    const result = await backtest(out, '--queue', `redis://:hunter2@127.0.0.1:${port}`);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`propsim backtest: cannot reach Redis at redis://:***@127.0.0.1:${port}`);
    expect(result.stderr).not.toContain('hunter2');
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it("a worker whose --data file differs from the coordinator's: exit 2 naming the file and both hashes", async () => {
    const data = mkdtempSync(join(tmpdir(), 'propsim-queue-data-'));
    const changed = Buffer.concat([readFileSync(MARKET), Buffer.from('\n')]);
    writeFileSync(join(data, '6EH4-2024-01.csv.gz'), changed);
    const mismatched = await worker('--data', data);
    const out = outFolder();
    const result = await backtest(out, '--queue', redis.url);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(`${join(data, '6EH4-2024-01.csv.gz')} differs from the coordinator's ${MARKET}`);
    expect(result.stderr).toContain(`sha256 ${sha256(changed)} here, ${sha256(readFileSync(MARKET))} there`);
    expect(existsSync(out)).toBe(false);
    await mismatched.stop();
  }, 120_000);

  it('a --data file rewritten in place between two runs, its size and modification time kept: the second run is refused', async () => {
    // docs/scaling.md#data-files: the worker's hashes were cached by path, size and modification time.
    const data = mkdtempSync(join(tmpdir(), 'propsim-queue-data-'));
    const copy = join(data, '6EH4-2024-01.csv.gz');
    writeFileSync(copy, readFileSync(MARKET));
    utimesSync(copy, 1_700_000_000, 1_700_000_000);
    const one = await worker('--data', data);
    expectSucceeded(await backtest(outFolder(), '--queue', redis.url));
    const changed = readFileSync(MARKET);
    changed[changed.length - 100]! ^= 0xff;
    writeFileSync(copy, changed);
    utimesSync(copy, 1_700_000_000, 1_700_000_000);
    const out = outFolder();
    const result = await backtest(out, '--queue', redis.url);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(`sha256 ${sha256(changed)} here, ${sha256(readFileSync(MARKET))} there`);
    expect(existsSync(out)).toBe(false);
    await one.stop();
  }, 180_000);

  it('a shard that fails three times fails the run: exit 1 with its error, nothing written', async () => {
    // A folder where the worker's --data should hold the market file: reading it fails (EISDIR) on every attempt.
    const data = mkdtempSync(join(tmpdir(), 'propsim-queue-data-'));
    mkdirSync(join(data, '6EH4-2024-01.csv.gz'));
    const failing = await worker('--data', data);
    const out = outFolder();
    const result = await backtest(out, '--queue', redis.url);
    expect(result.status, result.stderr).toBe(1);
    const [, label] = result.stderr.match(/propsim backtest: grid cell (.*) failed on the queue: .*EISDIR/) ?? [];
    expect(label, result.stderr).toBeDefined();
    expect(failing.log().split(`(cell ${label}): failed: `)).toHaveLength(1 + 3);
    expect(existsSync(out)).toBe(false);
    await failing.stop();
  }, 120_000);

  it('a shard of another propsim build is refused once, not retried, naming both builds', async () => {
    const current = await worker();
    const queue = new Queue('propsim-shards', { connection: connectionOf(redis.url) });
    try {
      // An old coordinator's shard names package.json's version only (0.1.0): another build all the same.
      const shard = { version: '0.1.0', runId: 'other-version', config: {}, cell: { index: 0, label: '#0' } };
      const job = await queue.add('cell 0', shard, { jobId: 'other-version-cell-0', attempts: 3 });
      while (!(await job.isFailed())) await new Promise((resolve) => setTimeout(resolve, 100));
      const failed = (await queue.getJob('other-version-cell-0'))!;
      expect(failed.failedReason).toMatch(
        new RegExp(
          `^a worker refused the shard: it is from propsim build 0\\.1\\.0, this worker \\(\\S+\\) is propsim build ${BUILD.replaceAll('.', '\\.').replace('+', '\\+')}; run the same commit, built by npm ci, everywhere$`,
        ),
      );
      expect(failed.attemptsMade).toBe(1);
    } finally {
      await queue.close();
      await current.stop();
    }
  }, 60_000);

  it('a worker of another propsim build: the coordinator refuses the run before any shard, naming both builds', async () => {
    // PROPSIM_VERSION_OVERRIDE (test-only) makes this build announce another build identity in its Redis client name.
    const other = tracked(await startWorker(redis.url, [], { PROPSIM_VERSION_OVERRIDE: '9.9.9-other' }));
    const out = outFolder();
    const result = await backtest(out, '--queue', redis.url);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `propsim backtest: worker ${hostname()}:${other.child.pid} runs propsim build 9.9.9-other, this coordinator build ${BUILD}; run the same commit, built by npm ci, everywhere`,
    );
    expect(other.log()).not.toMatch(/: started/); // refused by the coordinator, not by the worker
    expect(existsSync(out)).toBe(false);
    await other.stop();
  }, 60_000);

  it('a worker built from other code (one comment added to a module a cell runs): refused before any shard, naming both builds', async () => {
    // package.json's version is the same: only the build identity tells them apart (a worker 50 commits back).
    const other = otherBuild();
    const stale = tracked(await startWorker(redis.url, [], {}, join(other, 'bin', 'propsim.js')));
    const out = outFolder();
    const result = await backtest(out, '--queue', redis.url);
    expect(result.status, result.stderr).toBe(2);
    const theirs = computeBuildIdentity(other);
    expect(theirs).not.toBe(BUILD);
    expect(result.stderr).toContain(
      `propsim backtest: worker ${hostname()}:${stale.child.pid} runs propsim build ${theirs}, this coordinator build ${BUILD}`,
    );
    expect(stale.log()).not.toMatch(/: started/);
    expect(existsSync(out)).toBe(false);
    await stale.stop();
  }, 60_000);

  it("a shard carries the coordinator's build and holiday calendar: the worker runs the cell on that calendar, not its own", async () => {
    const one = await worker();
    const queue = new Queue<Shard, ShardResult>('propsim-shards', { connection: connectionOf(redis.url) });
    const events = new QueueEvents('propsim-shards', { connection: connectionOf(redis.url) });
    try {
      await events.waitUntilReady();
      const config = loadBacktestConfig(CONFIG);
      const [cell] = cellsToRun(config);
      const files = await shardFiles(config);
      const calendar = loadHolidayDocument() as { holidays: Array<{ date: string }> };
      // 2024-01-03, a Wednesday of the period, closed for every market in this calendar only.
      const closure = { date: '2024-01-03', name: 'closed for the test', groups: { all: 'closed' } };
      const closed = {
        ...calendar,
        holidays: [...calendar.holidays, closure].sort((a, b) => a.date.localeCompare(b.date)),
      };
      const run = async (id: string, holidays: unknown): Promise<CellResult> => {
        const shard = { version: BUILD, runId: id, config, cell: cell!, files, holidays };
        const job = await queue.add('cell 0', shard, { jobId: `${id}-cell-0` });
        const { answer } = (await job.waitUntilFinished(events, 60_000)) as ShardResult;
        if (!('result' in answer)) throw new Error(answer.inputError);
        return answer.result;
      };
      const usual = await run('usual-calendar', calendar);
      const withClosure = await run('closed-calendar', closed);
      expect(withClosure.periodDays, 'one trade date fewer: the closure came in the shard').toBe(usual.periodDays - 1);
    } finally {
      await events.close();
      await queue.close();
      await one.stop();
    }
  }, 120_000);

  it("a queued shard holds the coordinator's build identity and its holiday calendar", async () => {
    const queue = new Queue<Shard>('propsim-shards', { connection: connectionOf(redis.url) });
    const { child, exited } = coordinator(outFolder());
    try {
      while ((await queue.getWaitingCount()) < 6) await new Promise((resolve) => setTimeout(resolve, 100));
      const [job] = await queue.getWaiting(0, 0);
      expect(job!.data.version).toBe(BUILD);
      expect(job!.data.holidays).toEqual(loadHolidayDocument());
    } finally {
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      await queue.close();
    }
  }, 60_000);

  it('a worker of another propsim build joining mid-run: the coordinator stops within its check, naming both builds, and removes its waiting shards', async () => {
    const queue = new Queue('propsim-shards', { connection: connectionOf(redis.url) });
    let impostor: Worker | undefined;
    try {
      const out = outFolder();
      const run = backtest(out, '--queue', redis.url);
      // No worker runs them: the shards wait, so the run is past its check before any shard.
      while ((await queue.getWaitingCount()) < 6) await new Promise((resolve) => setTimeout(resolve, 100));
      // Announces another version the way a propsim worker does (its BullMQ worker name), but takes no shard: only the
      // coordinator's watch while the run lasts can refuse it, not the worker's own refusal of a shard.
      impostor = new Worker('propsim-shards', null, {
        connection: connectionOf(redis.url),
        name: workerName('impostor:1', '9.9.9-other'),
        autorun: false,
      });
      await impostor.waitUntilReady();
      expect(await queue.getWorkers()).toHaveLength(1);
      const result = await run;
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toContain(
        `propsim backtest: worker impostor:1 runs propsim build 9.9.9-other, this coordinator build ${BUILD}; run the same commit, built by npm ci, everywhere`,
      );
      expect(await queue.getWaitingCount()).toBe(0);
      expect(existsSync(out)).toBe(false);
    } finally {
      await impostor?.close();
      await queue.close();
    }
  }, 60_000);
});

describe('propsim worker', () => {
  it('an unreachable Redis: exit 2 naming the URL', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [CLI, 'worker', '--queue', `redis://127.0.0.1:${port}`]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    expect(code).toBe(2);
    expect(stderr).toContain(`propsim worker: cannot reach Redis at redis://127.0.0.1:${port}`);
  }, 30_000);
});

/** `backtest --queue` as a child process, to signal while it runs. */
function coordinator(out: string): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, 'backtest', '--config', CONFIG, '--out', out, '--queue', redis.url]);
  return { child, exited: new Promise((done) => child.on('exit', (code) => done(code))) };
}

/** This checkout's built CLI copied elsewhere with one comment added to a module the cell worker loads. */
function otherBuild(): string {
  const root = mkdtempSync(join(tmpdir(), 'propsim-other-build-'));
  for (const path of [
    'bin',
    'dist/bundle',
    'dist/src',
    'dist/calendar',
    'fixtures/calendar',
    'package.json',
    'package-lock.json',
  ])
    cpSync(join(ROOT, path), join(root, path), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  appendFileSync(join(root, 'dist', 'src', 'core', 'kernel', 'kernel.js'), '\n// built from another commit\n');
  return root;
}

function connectionOf(url: string): { host: string; port: number } {
  return { host: '127.0.0.1', port: Number(new URL(url).port) };
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
