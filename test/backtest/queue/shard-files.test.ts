// A queue worker runs a cell only on bytes whose sha256 is the coordinator's (docs/scaling.md#data-files): a data file
// rewritten in place, keeping its size and modification time, is seen before the next shard; one rewritten after the
// check, while the cell reads it, fails the cell naming the file and both hashes instead of running on bytes nobody
// checked. The worker's cache used to be keyed on path, size and mtime, and the pool read the file again after it.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig, type BacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { runCell } from '../../../src/backtest/cells/cell-runner.js';
import { cellsToRun } from '../../../src/backtest/config/cell-subset.js';
import { configOnThisMachine, FileHashes, shardFiles } from '../../../src/backtest/queue/shard-files.js';
import { ShardRefusal } from '../../../src/backtest/queue/shard-refusal.js';
import { readFillsFile } from '../../../src/backtest/fills/trader-fills.js';
import { readRecordsFile } from '../../../src/backtest/validation/records-file.js';
import { MarketDataError } from '../../../src/market/market-data-error.js';

const CONFIG = fileURLToPath(new URL('./fixtures/queue-6e.yaml', import.meta.url));
const MARKET = fileURLToPath(new URL('../../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url));
const FILLS = fileURLToPath(new URL('../fixtures/trader-fills.csv', import.meta.url));

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The queue grid's config reading a copy of its market file, which the test may rewrite. */
function configOnCopy(): { config: BacktestConfig; market: string } {
  const market = join(mkdtempSync(join(tmpdir(), 'propsim-shard-files-')), '6EH4-2024-01.csv.gz');
  copyFileSync(MARKET, market);
  const config = loadBacktestConfig(CONFIG);
  return { config: { ...config, market: config.market.map((spec) => ({ ...spec, path: market })) }, market };
}

/** A modification time in whole seconds, which utimes can put back exactly. */
const MTIME_S = 1_700_000_000;

/** Writes `bytes` over the file in place, then puts its modification time back to MTIME_S. */
function rewriteInPlace(path: string, bytes: Buffer): void {
  writeFileSync(path, bytes);
  utimesSync(path, MTIME_S, MTIME_S);
}

describe('a queue worker: data files by content', () => {
  it('a file rewritten in place with its size and modification time kept: the next shard is refused, naming both hashes', async () => {
    const { config, market } = configOnCopy();
    utimesSync(market, MTIME_S, MTIME_S);
    const files = await shardFiles(config);
    const hashes = new FileHashes();
    await configOnThisMachine(config, files, undefined, hashes); // checked once: the content is the coordinator's
    const original = readFileSync(market);
    const changed = Buffer.from(original);
    changed[changed.length - 100]! ^= 0xff; // same size
    rewriteInPlace(market, changed);
    expect([statSync(market).size, statSync(market).mtimeMs]).toEqual([original.length, MTIME_S * 1000]);
    const refused = await configOnThisMachine(config, files, undefined, hashes).catch((e: unknown) => e);
    expect(refused, 'the second shard sees the new content, not the cached hash').toBeInstanceOf(ShardRefusal);
    expect((refused as Error).message).toContain(
      `${market} differs from the coordinator's ${market}: sha256 ${sha256(changed)} here, ${sha256(original)} there`,
    );
  });

  it('a file rewritten after the check, while its cell runs: the cell fails naming the file and both hashes', async () => {
    const { config, market } = configOnCopy();
    const files = await shardFiles(config);
    const local = await configOnThisMachine(config, files, undefined, new FileHashes());
    // The same bars gzipped again: other bytes, as a file replaced under a running worker would be.
    const original = readFileSync(market);
    const regzipped = gzipSync(gunzipSync(original), { level: 1 });
    expect(regzipped.equals(original)).toBe(false);
    writeFileSync(market, regzipped);
    const [cell] = cellsToRun(local);
    const error = await runCell({ config: local, cell: cell! }).catch((e: unknown) => e);
    expect(error, "the cell reads only bytes whose sha256 is the coordinator's").toBeInstanceOf(MarketDataError);
    expect((error as Error).message).toBe(
      `${market}: expected the content the coordinator hashed, sha256 ${sha256(original)} (docs/scaling.md#data-files), got sha256 ${sha256(regzipped)}: the file changed after this worker checked it`,
    );
  });

  it("a fills file and a records file are checked by the bytes read, as the market's", () => {
    const bytes = readFileSync(FILLS);
    expect(readFillsFile({ path: FILLS, sha256: sha256(bytes) }).length).toBeGreaterThan(0);
    expect(() => readFillsFile({ path: FILLS, sha256: '0'.repeat(64) })).toThrow(
      `${FILLS}: expected the content the coordinator hashed, sha256 ${'0'.repeat(64)} (docs/scaling.md#data-files), got sha256 ${sha256(bytes)}`,
    );
    expect(() => readFillsFile({ path: FILLS, format: 'generic', sha256: '0'.repeat(64) })).toThrow(MarketDataError);
    expect(() => readRecordsFile(FILLS, '0'.repeat(64))).toThrow(`got sha256 ${sha256(bytes)}`);
  });
});
