// The coordinator of `backtest --queue` watches its run (docs/scaling.md#failures): shards that Redis lost (a FLUSHDB,
// a restart of a Redis without persistence, as docs/scaling.md#starting-redis starts it) are queued again and the
// outputs stay byte-identical to the local run; no worker connected, or Redis gone, for --worker-wait seconds stops
// the run with exit 1, said on stderr at once. It used to wait forever, silently. Real redis-servers.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, type CliResult } from '../../cli/run-cli.js';
import { startRedis } from '../../../bench/redis-server.js';
import { stoppedAfterEach } from './stopped-after-each.js';
import { startWorker } from './worker-process.js';

const CONFIG = fileURLToPath(new URL('./fixtures/queue-6e.yaml', import.meta.url));

const outFolder = () => join(mkdtempSync(join(tmpdir(), 'propsim-queue-watch-')), 'out');
const backtest = (out: string, ...flags: string[]) =>
  runCliAsync(['backtest', '--config', CONFIG, '--out', out, ...flags], undefined, {}, { timeout: 170_000 });

function outputs(out: string): Record<string, Buffer> {
  return Object.fromEntries(readdirSync(out).map((name) => [name, readFileSync(join(out, name))]));
}

let local: Record<string, Buffer>;
beforeAll(async () => {
  const out = outFolder();
  const result = await backtest(out, '--workers', '1');
  expect(result.status, result.stderr).toBe(0);
  local = outputs(out);
}, 120_000);

const tracked = stoppedAfterEach();

async function timed(run: Promise<CliResult>): Promise<CliResult & { seconds: number }> {
  const at = performance.now();
  const result = await run;
  return { ...result, seconds: (performance.now() - at) / 1000 };
}

describe('backtest --queue watches its run', () => {
  it('no worker connected: says so at once, and after --worker-wait 3 exits 1, nothing written, its shards removed', async () => {
    const redis = tracked(await startRedis());
    const out = outFolder();
    const result = await timed(backtest(out, '--queue', redis.url, '--worker-wait', '3'));
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      `propsim backtest: no propsim worker is connected to ${redis.url}; waiting up to 3 s for one (--worker-wait)`,
    );
    expect(result.stderr).toContain(
      `propsim backtest: no propsim worker connected to ${redis.url} for 3 s (--worker-wait): 6 of 6 cells not done; start workers with propsim worker --queue ${redis.url}`,
    );
    expect(result.seconds, 'the wait, a check (2 s) and the start').toBeLessThan(15);
    expect(existsSync(out)).toBe(false);
    const queue = new Queue('propsim-shards', { connection: { host: '127.0.0.1', port: redis.port } });
    expect(await queue.getWaitingCount(), 'the run removed its shards').toBe(0);
    await queue.close();
  }, 60_000);

  it('FLUSHDB under a running grid: the lost shards are queued again and the outputs are byte-identical', async () => {
    const redis = tracked(await startRedis());
    const worker = tracked(await startWorker(redis.url));
    const out = outFolder();
    const run = timed(backtest(out, '--queue', redis.url));
    await worker.waitFor(/: done in/); // one cell back, the others waiting or running
    const client = new Redis({ host: '127.0.0.1', port: redis.port });
    await client.flushdb();
    client.disconnect();
    const result = await run;
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /propsim backtest: [1-6] cells? (was|were) no longer on the queue \(Redis restarted or flushed\?\): queued again/,
    );
    expect(outputs(out)).toEqual(local);
  }, 180_000);

  it('Redis restarted without persistence under a running grid: queued again, the outputs are byte-identical', async () => {
    const redis = await startRedis();
    const worker = tracked(await startWorker(redis.url));
    const out = outFolder();
    const run = timed(backtest(out, '--queue', redis.url));
    await worker.waitFor(/: done in/);
    await redis.stop();
    tracked(await startRedis(undefined, redis.port)); // the same port, every key gone
    const result = await run;
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/no longer on the queue \(Redis restarted or flushed\?\): queued again/);
    expect(outputs(out)).toEqual(local);
  }, 180_000);

  it('Redis gone for good mid-run: says so at once, and exits 1 after --worker-wait, nothing written', async () => {
    const redis = await startRedis();
    const worker = tracked(await startWorker(redis.url));
    const out = outFolder();
    const run = timed(backtest(out, '--queue', redis.url, '--worker-wait', '5'));
    await worker.waitFor(/: started/);
    const at = performance.now();
    await redis.stop();
    const result = await run;
    const seconds = (performance.now() - at) / 1000;
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`propsim backtest: Redis at ${redis.url} does not answer .*; waiting up to 5 s for it`),
    );
    expect(result.stderr).toContain(`propsim backtest: Redis at ${redis.url} did not answer for 5 s (--worker-wait)`);
    expect(seconds, 'the wait, a check and its timeout').toBeLessThan(5 + 2 + 4 + 2);
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
