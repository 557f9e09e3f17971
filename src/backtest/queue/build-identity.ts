// What a queue worker and its coordinator compare so that a cell gives the same bytes wherever it runs
// (docs/scaling.md#workers-on-n-machines): package.json's version (0.1.0 since the first commit) says nothing of the
// code, so the identity is the version and a hash of what runs, read once when the process starts: every file of the
// CLI's bundle (dist/bundle, emptied by each build), the cell worker and every module it loads (dist/src, followed
// import by import, so a stale compiled file that nothing loads does not count), and package-lock.json (the
// dependencies' versions). A fresh clone built by `npm ci` (whose `prepare` builds) has the identity of any other
// clone of the same commit, wherever it sits. PROPSIM_VERSION_OVERRIDE replaces it, for tests only.
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { packageRoot } from '../../market/holiday-file.js';

/** The module the cell pool's threads start from (cell-pool.ts). */
const CELL_WORKER = join('dist', 'src', 'backtest', 'cell-worker.js');
const HASH_HEX_DIGITS = 16;

let identity: string | undefined;

/** This process's build identity, `0.1.0+1f0c9a7e3b5d2c48`: computed at the first call. */
export function buildIdentity(): string {
  const override = process.env['PROPSIM_VERSION_OVERRIDE'];
  if (override) return override;
  return (identity ??= computeBuildIdentity(packageRoot()));
}

/** The build identity of the built package at `root`. */
export function computeBuildIdentity(root: string): string {
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const hash = createHash('sha256');
  const files = [...filesUnder(join(root, 'dist', 'bundle')), ...moduleGraph(join(root, CELL_WORKER))];
  for (const file of files.sort()) addFile(hash, root, file);
  const lock = join(root, 'package-lock.json');
  if (existsSync(lock)) addFile(hash, root, lock);
  return `${version}+${hash.digest('hex').slice(0, HASH_HEX_DIGITS)}`;
}

/** The file's path from the root (with /) and its bytes, each framed by its length so no two lists hash alike. */
function addFile(hash: Hash, root: string, file: string): void {
  const name = relative(root, file).split(sep).join('/');
  const bytes = readFileSync(file);
  hash.update(`${name.length}:${name}${bytes.length}:`).update(bytes);
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Relative specifiers of compiled ES modules: `from './x.js'`, `import './x.js'`, `import('./x.js')`. */
const RELATIVE_IMPORT = /\b(?:from|import)\s*\(?\s*['"](\.\.?\/[^'"]+)['"]/g;

/** The module and every module it loads by a relative path, transitively (packages are in package-lock.json). */
function moduleGraph(entry: string): string[] {
  if (!existsSync(entry)) return [];
  const seen = new Set<string>([entry]);
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = resolve(dirname(file), specifier!);
      if (seen.has(target) || !existsSync(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return [...seen];
}
