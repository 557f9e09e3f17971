// The --out check makes a missing folder to prove it can, and takes it away again: the run makes it for good.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFileFolder, checkOutFolder } from '../../src/cli/out-folder.js';

describe('checking an output folder before any work', () => {
  it('a missing folder, several levels deep, that can be made: accepted, and nothing is left behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'propsim-out-folder-'));
    checkOutFolder(join(dir, 'a', 'b', 'c'));
    checkFileFolder(join(dir, 'x', 'y', 'sandbox.sqlite'), '--db');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a folder that cannot be made is refused, naming the level that failed', () => {
    expect(() => checkOutFolder('/proc/propsim-no-such-folder/a/b')).toThrow(
      '--out /proc/propsim-no-such-folder/a/b: cannot make the folder /proc/propsim-no-such-folder (ENOENT)',
    );
    expect(existsSync('/proc/propsim-no-such-folder')).toBe(false);
  });
});
