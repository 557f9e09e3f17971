// `propsim worker` stops within 10 s of SIGTERM whatever Redis does (docs/scaling.md#workers-on-n-machines): with
// Redis there it finishes its running shard first and the coordinator gets the result; with Redis gone it does not
// wait for a connection that never comes (BullMQ's close waits to record the running shards). Real redis-servers,
// stopped by the tests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../../cli/run-cli.js';
import { startRedis } from '../../../bench/redis-server.js';
import { stoppedAfterEach } from './stopped-after-each.js';
import { startWorker, type WorkerProcess } from './worker-process.js';

const CONFIG = fileURLToPath(new URL('./fixtures/queue-6e.yaml', import.meta.url));
const STOP_WITHIN_MS = 10_000;

const tracked = stoppedAfterEach();

/** SIGTERM, then the milliseconds until the worker exited and its exit code (null: still running at 15 s, killed). */
async function terminate(worker: WorkerProcess): Promise<{ ms: number; code: number | null }> {
  const at = performance.now();
  const exited = new Promise<number | null>((done) => worker.child.once('exit', (code) => done(code)));
  worker.child.kill('SIGTERM');
  const timeout = new Promise<'running'>((done) => setTimeout(() => done('running'), 15_000));
  const code = await Promise.race([exited, timeout]);
  if (code === 'running') {
    worker.child.kill('SIGKILL');
    return { ms: Number.POSITIVE_INFINITY, code: null };
  }
  return { ms: performance.now() - at, code };
}

describe('propsim worker: SIGTERM', () => {
  it('after Redis died: exits 0 within 10 s, saying Redis is gone', async () => {
    const redis = await startRedis();
    const worker = tracked(await startWorker(redis.url));
    await redis.stop();
    // Gone for 5 s, the worker between two reconnection attempts: BullMQ's close waited forever (1 s often passed).
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const { ms, code } = await terminate(worker);
    expect(ms, `stopped in ${ms} ms:\n${worker.log()}`).toBeLessThan(STOP_WITHIN_MS);
    expect(code).toBe(0);
    expect(worker.log()).toMatch(/worker: Redis at redis:\/\/127\.0\.0\.1:\d+ does not answer: stopping without it/);
  }, 60_000);

  it('while a shard runs, then Redis dies: exits within 10 s of the signal, the shard left to the stall check', async () => {
    const redis = await startRedis();
    const worker = tracked(await startWorker(redis.url));
    const run = runCliAsync([
      'backtest',
      '--config',
      CONFIG,
      '--out',
      outFolder(),
      '--queue',
      redis.url,
      '--worker-wait',
      '2',
    ]);
    await worker.waitFor(/: started/);
    const at = performance.now();
    worker.child.kill('SIGTERM');
    await redis.stop();
    const code = await new Promise<number | null>((done) => worker.child.once('exit', (c) => done(c)));
    const ms = performance.now() - at;
    expect(ms, `stopped in ${ms} ms:\n${worker.log()}`).toBeLessThan(STOP_WITHIN_MS);
    expect(code).toBe(0);
    expect((await run).status, 'the coordinator, its Redis gone for --worker-wait (docs/scaling.md#failures)').toBe(1);
  }, 90_000);

  it('while a shard runs and Redis stays: the shard finishes, its result reaches the coordinator, then exit 0', async () => {
    const redis = tracked(await startRedis());
    const first = tracked(await startWorker(redis.url));
    const out = outFolder();
    const run = runCliAsync(['backtest', '--config', CONFIG, '--out', out, '--queue', redis.url]);
    const [, shard] = await first.waitFor(/shard (\S+) \(cell [^)]*\): started/);
    const { ms, code } = await terminate(first);
    expect(code, first.log()).toBe(0);
    expect(ms).toBeLessThan(STOP_WITHIN_MS + 5000); // the cell's own time, a few seconds
    expect(first.log()).toMatch(new RegExp(`shard ${shard} \\(cell [^)]*\\): done in`));
    const second = tracked(await startWorker(redis.url)); // the other cells
    const result = await run;
    expect(result.status, result.stderr).toBe(0);
    expect(second.log(), 'the stopped worker finished its shard: nobody ran it again').not.toContain(`shard ${shard} `);
  }, 120_000);
});

function outFolder(): string {
  return join(mkdtempSync(join(tmpdir(), 'propsim-worker-stop-')), 'out');
}
