// `--out DIR` is checked before any work: a path that is (or lies under) an existing file can never hold the
// outputs, and finding that out after a long run would lose the run.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliInputError } from './input-error.js';

/** Refuses an output folder path that names a file, or lies under one; a missing folder is fine (it is made). */
export function checkOutFolder(path: string, flag = '--out'): void {
  if (path.trim() === '') throw new CliInputError(`${flag}: expected a folder path, got ""`);
  const kind = kindOf(path);
  if (kind === 'file')
    throw new CliInputError(`${flag} ${path}: is a file, not a folder; name a folder (it is created when missing)`);
  if (kind === 'folder') return;
  for (let above = dirname(resolve(path)); ; above = dirname(above)) {
    const aboveKind = kindOf(above);
    if (aboveKind === 'file')
      throw new CliInputError(`${flag} ${path}: ${above} is a file, so no folder can be made under it`);
    if (aboveKind === 'folder' || dirname(above) === above) return;
  }
}

/** Refuses a run's own output folder inside DIR when a file already has its name (it would be replaced). */
export function checkRunFolder(path: string, flag = '--out'): void {
  if (kindOf(path) === 'file')
    throw new CliInputError(
      `${flag}: ${path} is a file; the run writes a folder of that name there (move the file or pick another ${flag})`,
    );
}

function kindOf(path: string): 'file' | 'folder' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}
