// `--out DIR` (and the folder of `--db FILE`) is checked before any work: a path that is (or lies under) an existing
// file, or a folder that cannot be made there (no permission, a read-only file system), can never hold the outputs,
// and finding that out after a long run would lose the run.
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliInputError } from './input-error.js';

/**
 * Refuses an output folder path that names a file, lies under one, or cannot be made. A missing folder is fine: it is
 * made here, one level at a time, and removed again, so the check leaves nothing behind (the run makes it for good).
 */
export function checkOutFolder(path: string, flag = '--out'): void {
  if (path.trim() === '') throw new CliInputError(`${flag}: expected a folder path, got ""`);
  const kind = kindOf(path);
  if (kind === 'file')
    throw new CliInputError(`${flag} ${path}: is a file, not a folder; name a folder (it is created when missing)`);
  if (kind === 'folder') return;
  checkMissingFolder(path, `${flag} ${path}`);
}

/** Refuses a file path (`--db FILE`) whose folder lies under a file or is missing and cannot be made. */
export function checkFileFolder(file: string, flag: string): void {
  const folder = dirname(resolve(file));
  const kind = kindOf(folder);
  if (kind === 'file')
    throw new CliInputError(`${flag} ${file}: ${folder} is a file, so no folder can be made under it`);
  if (kind === 'missing') checkMissingFolder(folder, `${flag} ${file}`);
}

/** A folder that does not exist: nothing above it is a file, and it can be made. `label` starts each message. */
function checkMissingFolder(path: string, label: string): void {
  const missing = [resolve(path)];
  for (let above = dirname(missing[0]!); ; above = dirname(above)) {
    const aboveKind = kindOf(above);
    if (aboveKind === 'file')
      throw new CliInputError(`${label}: ${above} is a file, so no folder can be made under it`);
    if (aboveKind === 'folder' || dirname(above) === above) break;
    missing.unshift(above);
  }
  tryToMake(missing, label);
}

/** Refuses a run's own output folder inside DIR when a file already has its name (it would be replaced). */
export function checkRunFolder(path: string, flag = '--out'): void {
  if (kindOf(path) === 'file')
    throw new CliInputError(
      `${flag}: ${path} is a file; the run writes a folder of that name there (move the file or pick another ${flag})`,
    );
}

/**
 * Makes the missing folders, outermost first, then removes those it made. Level by level rather than with
 * `recursive`: Node's recursive mkdir never returns on a file system that answers ENOENT under a folder that exists
 * (/proc does).
 */
function tryToMake(missing: readonly string[], label: string): void {
  const made: string[] = [];
  try {
    for (const folder of missing) {
      try {
        mkdirSync(folder);
      } catch (error) {
        throw new CliInputError(`${label}: cannot make the folder ${folder} (${reason(error)})`);
      }
      made.push(folder);
    }
  } finally {
    for (const folder of made.reverse()) removeQuietly(folder);
  }
}

/** An empty folder the check made; left if something else took it meanwhile (an error here would hide the real one). */
function removeQuietly(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // harmless: an empty folder, or one another process is using
  }
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const plain: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'not permitted',
    EROFS: 'a read-only file system',
    ENOSPC: 'no space left on the device',
  };
  if (code !== undefined && plain[code]) return `${plain[code]}, ${code}`;
  return code ?? (error instanceof Error ? error.message : String(error));
}

function kindOf(path: string): 'file' | 'folder' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}
