// What a queue worker and its coordinator compare so that a cell gives the same bytes wherever it runs
// (docs/scaling.md#workers-on-n-machines): package.json's version (0.1.0 since the first commit) says nothing of the
// code, so the identity is the version and a hash of what runs, read once when the process starts: every file of the
// CLI's bundle (dist/bundle, emptied by each build), the cell worker and every module it loads (dist/src, followed
// import by import, so a stale compiled file that nothing loads does not count), and package-lock.json (the
// dependencies' versions). A fresh clone built by `npm ci` (whose `prepare` builds) has the identity of any other
// clone of the same commit, wherever it and its node_modules sit. PROPSIM_VERSION_OVERRIDE replaces it, for tests only.
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { packageRoot } from '../../market/holiday-file.js';

/** The module the cell pool's threads start from (cell-pool.ts). */
const CELL_WORKER = join('dist', 'src', 'backtest', 'cells', 'cell-worker.js');
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
  const files = [
    ...filesUnder(join(root, 'dist', 'bundle')).map((file) => bundleFile(root, file)),
    ...moduleGraph(join(root, CELL_WORKER)).map((file) => ({ name: nameOf(root, file), bytes: readFileSync(file) })),
  ];
  const lock = join(root, 'package-lock.json');
  if (existsSync(lock)) files.push({ name: 'package-lock.json', bytes: readFileSync(lock) });
  const hash = createHash('sha256');
  for (const { name, bytes } of files.sort(byNameThenBytes)) addFile(hash, name, bytes);
  return `${version}+${hash.digest('hex').slice(0, HASH_HEX_DIGITS)}`;
}

interface NamedBytes {
  name: string;
  bytes: Buffer;
}

/**
 * A bundle file as it would be wherever node_modules sits: esbuild writes each bundled package's path from the
 * package root into the bundle (`../main/node_modules/yargs/…` where node_modules is a link to another checkout's),
 * and names chunks by a hash of that text. Both are taken out: the code is the same.
 */
function bundleFile(root: string, file: string): NamedBytes {
  const text = readFileSync(file, 'utf8').replace(MODULES_PREFIX, 'node_modules/').replace(CHUNK_HASH, '.js');
  return { name: nameOf(root, file).replace(CHUNK_HASH, '.js'), bytes: Buffer.from(text) };
}

/** `../main/node_modules/`, `../../work/main/node_modules/`: the way up to node_modules. */
const MODULES_PREFIX = /(?:\.\.\/)+(?:[\w.@+-]+\/)*?node_modules\//g;
/** esbuild's content hash in a chunk's name: `chunk-3ECET45G.js`, `backtest-command-BRZBMPA4.js`. */
const CHUNK_HASH = /-[A-Z0-9]{8}\.js\b/g;

function nameOf(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

function byNameThenBytes(a: NamedBytes, b: NamedBytes): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : Buffer.compare(a.bytes, b.bytes);
}

/** The file's name and bytes, each framed by its length so that no two lists hash alike. */
function addFile(hash: Hash, name: string, bytes: Buffer): void {
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
