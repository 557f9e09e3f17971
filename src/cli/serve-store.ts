// Which store `propsim serve` keeps its state in (docs/api.md#persistence): `--memory` none, else `--db FILE`
// (default .propsim/sandbox.sqlite). A file that already holds a sandbox must have been made from the same seed file
// and market files; its clock start is the one the sandbox restarts from (a different --start is refused).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { MarketFileSpec } from '../market/market-file-spec.js';
import { StoreFileError, storeFileError } from '../store/store-file-error.js';
import { SandboxDb } from '../store/sandbox-db.js';
import { chicagoIso } from '../core/calendar/dates.js';
import { checkFileFolder } from './out-folder.js';
import { seedMismatchMessage } from './seed-mismatch.js';

export const DEFAULT_DB_FILE = '.propsim/sandbox.sqlite';

export interface StoreChoice {
  db: string | undefined;
  memory: boolean;
  seedFile: string;
  /** --start when given. */
  startMs: number | undefined;
  market: readonly MarketFileSpec[];
}

/** The opened store (none with --memory) and the clock start to use. */
export async function openServeStore(
  choice: StoreChoice,
  defaultStartMs: number,
): Promise<{ db: SandboxDb | undefined; startMs: number; created: boolean }> {
  if (choice.memory) return { db: undefined, startMs: choice.startMs ?? defaultStartMs, created: false };
  const file = resolve(choice.db ?? DEFAULT_DB_FILE);
  checkFileFolder(file, '--db');
  const created = !existsSync(file);
  const db = SandboxDb.open(file);
  try {
    const seedBytes = readFileSync(choice.seedFile);
    const seedText = seedBytes.toString('utf8');
    const made = {
      seed_sha256: createHash('sha256').update(seedBytes).digest('hex'),
      market: JSON.stringify(choice.market.map((m) => m.path)),
    };
    if (db.lineCount === 0) {
      const startMs = choice.startMs ?? defaultStartMs;
      // The seed's path and text, for naming it and its first difference should another seed be given later.
      db.setMeta({ ...made, seed_file: resolve(choice.seedFile), seed_text: seedText, start_ms: String(startMs) });
      return { db, startMs, created };
    }
    const madeSha = db.meta('seed_sha256') ?? '';
    if (madeSha !== made.seed_sha256) {
      const recorded = { sha256: madeSha, file: db.meta('seed_file'), text: db.meta('seed_text') };
      throw new StoreFileError(file, seedMismatchMessage(file, recorded, choice.seedFile, seedText));
    }
    if (db.meta('market') !== made.market)
      throw new StoreFileError(
        file,
        `holds a sandbox made with other --market files (${db.meta('market')}): give the same ones, or use another --db`,
      );
    const storedStartMs = Number(db.meta('start_ms'));
    if (choice.startMs !== undefined && choice.startMs !== storedStartMs)
      throw new StoreFileError(
        file,
        `holds a sandbox started at ${chicagoIso(storedStartMs)}: leave out --start to go on with it, or use another --db`,
      );
    return { db, startMs: storedStartMs, created };
  } catch (error) {
    await db.close();
    throw storeFileError(file, error);
  }
}

/** A db file and its WAL companions. */
export function removeDbFile(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}
