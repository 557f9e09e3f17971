// `optimize --queue`: every stage and the confirmation run as shards on `propsim worker` processes through a real
// redis-server, and the outputs are byte-identical to the local run (docs/scaling.md, docs/optimizing.md).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, type CliResult } from '../../cli/run-cli.js';
import { startRedis, type RunningRedis } from '../../../bench/redis-server.js';
import { startWorker, type WorkerProcess } from './worker-process.js';

const CONFIG = fileURLToPath(new URL('../optimize/fixtures/search-6e.yaml', import.meta.url));

const outFolder = () => join(mkdtempSync(join(tmpdir(), 'propsim-optimize-queue-')), 'out');
const optimize = (out: string, ...flags: string[]) =>
  runCliAsync(['optimize', '--config', CONFIG, '--out', out, ...flags]);
const outputs = (out: string) =>
  Object.fromEntries(readdirSync(out).map((name) => [name, readFileSync(join(out, name))]));
const succeeded = (result: CliResult) => expect(result.status, result.stderr).toBe(0);

let redis: RunningRedis;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  redis = await startRedis();
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  await redis?.stop();
}, 60_000);

describe('optimize --queue', () => {
  it('runs its stages and confirmation on two queue workers, with outputs byte-identical to the local run', async () => {
    const localOut = outFolder();
    succeeded(await optimize(localOut, '--workers', '2'));
    workers.push(...(await Promise.all([startWorker(redis.url), startWorker(redis.url)])));
    const queuedOut = outFolder();
    const queued = await optimize(queuedOut, '--queue', redis.url);
    succeeded(queued);
    expect(Object.keys(outputs(queuedOut)).sort()).toEqual([
      'candidates.csv',
      'chosen-plan.yaml',
      'front.csv',
      'report.html',
      'summary.json',
    ]);
    expect(outputs(queuedOut)).toEqual(outputs(localOut));
    // The shards really went through the queue: the workers ran every stage's cells.
    expect(
      workers
        .map((w) => w.log())
        .join('')
        .match(/: done in/g)?.length,
    ).toBeGreaterThanOrEqual(6);
  }, 240_000);
});
