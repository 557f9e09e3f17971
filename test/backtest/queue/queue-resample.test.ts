// A resampled tape (market.resample, docs/backtesting.md#long-horizons-a-resampled-tape) on `propsim worker` processes:
// every worker draws the same tape from the run's seed, so the outputs are byte-identical to the local run's.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../../cli/run-cli.js';
import { startRedis, type RunningRedis } from '../../../bench/redis-server.js';
import { startWorker } from './worker-process.js';

const QUEUE_GRID = fileURLToPath(new URL('./fixtures/queue-6e.yaml', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'propsim-queue-resample-'));
// The queue grid over two months resampled from its data, with two cells.
const config = join(folder, 'resampled.yaml');
writeFileSync(
  config,
  readFileSync(QUEUE_GRID, 'utf8')
    .replace('../../../../fixtures/market/', fileURLToPath(new URL('../../../fixtures/market/', import.meta.url)))
    .replace('instrument: 6EH4 } ]', 'instrument: 6EH4 } ]\n  resample: { block_sessions: 3 }')
    .replace('period: { from: 2024-01-02, to: 2024-01-09 }', 'period: { from: 2024-02-01, to: 2024-03-29 }')
    .replace('risk_profile.max_drawdown_value: ["1000", "1500", "2500"]', 'risk_profile.max_drawdown_value: ["1500"]'),
);

const backtest = (out: string, ...flags: string[]) =>
  runCliAsync(['backtest', '--config', config, '--out', join(folder, out), ...flags]);
const outputs = (out: string) =>
  Object.fromEntries(readdirSync(join(folder, out)).map((name) => [name, readFileSync(join(folder, out, name))]));

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 60_000);
afterAll(async () => redis?.stop(), 60_000);

describe('backtest --queue with market.resample', () => {
  it('a queue worker lays the same tape as the local run: byte-identical outputs', async () => {
    const worker = await startWorker(redis.url);
    try {
      const [local, queued] = await Promise.all([
        backtest('local', '--workers', '1'),
        backtest('queued', '--queue', redis.url),
      ]);
      expect(local.status, local.stderr).toBe(0);
      expect(queued.status, queued.stderr).toBe(0);
      expect(outputs('queued')).toEqual(outputs('local'));
      const summary = JSON.parse(outputs('local')['summary.json']!.toString());
      expect(summary.resample).toMatchObject({ block_sessions: 3, source: { from: '2024-01-02', to: '2024-01-31' } });
      expect(summary.period).toEqual({ from: '2024-02-01', to: '2024-03-29' });
    } finally {
      await worker.stop();
    }
  }, 180_000);
});
