// Market, fills and records files go to workers by content (docs/scaling.md#data-files): a shard names each file by its
// sha256 and its path on the coordinator; a worker takes the file of that name under its --data folder, else the
// same path, and refuses one whose content differs. The check before the cell gives a clear refusal at once; the
// cell's readers then hash the bytes they read against the same sha256 (market/content-check.ts), so a file
// rewritten after the check, or while the cell reads it, fails the cell instead of running on unchecked bytes.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { BacktestConfig } from '../config/backtest-config.js';
import { ShardRefusal } from './shard-refusal.js';

export interface ShardFile {
  /** The coordinator's absolute path. */
  path: string;
  sha256: string;
}

/** The config's data files, market files first in order, then the fills file and its records. */
export interface ShardFiles {
  market: ShardFile[];
  fills?: ShardFile;
  records?: ShardFile;
}

export async function shardFiles(config: BacktestConfig): Promise<ShardFiles> {
  const named = async (path: string): Promise<ShardFile> => ({ path: resolve(path), sha256: await sha256Of(path) });
  const market = await Promise.all(config.market.map((spec) => named(spec.path)));
  if (!config.fills) return { market };
  const records = config.fills.records;
  return {
    market,
    fills: await named(config.fills.path),
    ...(records === undefined ? {} : { records: await named(records) }),
  };
}

/** The config with each data file's path on this machine, once its content is checked. */
export async function configOnThisMachine(
  config: BacktestConfig,
  files: ShardFiles,
  dataDir: string | undefined,
  hashes: FileHashes,
): Promise<BacktestConfig> {
  const market = await Promise.all(
    config.market.map(async (spec, i) => {
      const file = files.market[i]!;
      return { ...spec, path: await localFile(file, dataDir, hashes), sha256: file.sha256 };
    }),
  );
  const fills = config.fills &&
    files.fills && {
      ...config.fills,
      path: await localFile(files.fills, dataDir, hashes),
      sha256: files.fills.sha256,
      ...(files.records
        ? { records: await localFile(files.records, dataDir, hashes), recordsSha256: files.records.sha256 }
        : {}),
    };
  return fills ? { ...config, market, fills } : { ...config, market };
}

async function localFile(file: ShardFile, dataDir: string | undefined, hashes: FileHashes): Promise<string> {
  const candidates = dataDir === undefined ? [file.path] : [join(dataDir, basename(file.path)), file.path];
  const found = candidates.find((path) => existsSync(path));
  if (found === undefined)
    throw new ShardRefusal(
      `cannot find ${basename(file.path)} (${file.path} on the coordinator) at ${candidates.join(' nor at ')}`,
    );
  const sha256 = await hashes.of(found);
  if (sha256 !== file.sha256)
    throw new ShardRefusal(
      `${found} differs from the coordinator's ${file.path}: sha256 ${sha256} here, ${file.sha256} there`,
    );
  return found;
}

/**
 * A worker hashes a file again whenever it may have been written since: the key holds the file's identity (device,
 * inode), size, modification time and change time to the nanosecond. The change time moves at every write and
 * cannot be set back (utimes sets the modification time only), so a file rewritten in place with its size and
 * modification time kept is hashed again. What the cell reads is checked by its readers in any case.
 */
export class FileHashes {
  private readonly known = new Map<string, string>();

  async of(path: string): Promise<string> {
    const stat = statSync(path, { bigint: true });
    const key = [resolve(path), stat.dev, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].join('\n');
    let sha256 = this.known.get(key);
    if (sha256 === undefined) this.known.set(key, (sha256 = await sha256Of(path)));
    return sha256;
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
