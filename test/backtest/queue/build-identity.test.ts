// A worker and its coordinator compare a build identity, not package.json's version (0.1.0 since the first commit):
// the version and a hash of what runs, the CLI's bundle, the cell worker's modules and the locked dependencies
// (docs/scaling.md#workers-on-n-machines). Any change to them is another build; a stale file nothing loads is not.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIdentity, computeBuildIdentity } from '../../../src/backtest/queue/build-identity.js';

/** A package tree shaped like propsim's build: a bundle, the cell worker and what it imports, a lock file. */
function fakePackage(): string {
  const root = mkdtempSync(join(tmpdir(), 'propsim-build-id-'));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'propsim', version: '0.1.0' }),
    'package-lock.json': JSON.stringify({
      lockfileVersion: 3,
      packages: { 'node_modules/yaml': { version: '2.9.1' } },
    }),
    'dist/bundle/main.js': "import './chunk-A.js';\n",
    'dist/bundle/chunk-A.js': 'export const a = 1;\n',
    'dist/src/backtest/cells/cell-worker.js':
      "import { runCell } from './cell-runner.js';\nexport * from '../../market/holiday-file.js';\nconst later = () => import('../late.js');\n",
    'dist/src/backtest/cells/cell-runner.js': "import { x } from '../../core/kernel.js';\nexport const runCell = x;\n",
    'dist/src/backtest/late.js': 'export default 1;\n',
    'dist/src/core/kernel.js': 'export const x = 1;\n',
    'dist/src/market/holiday-file.js': 'export const h = 1;\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function changed(edit: (root: string) => void): { before: string; after: string } {
  const root = fakePackage();
  const before = computeBuildIdentity(root);
  const copy = mkdtempSync(join(tmpdir(), 'propsim-build-id-copy-'));
  cpSync(root, copy, { recursive: true });
  edit(copy);
  return { before, after: computeBuildIdentity(copy) };
}

describe('build identity', () => {
  it('is the version, a plus and 16 hex digits; a copy of the same build elsewhere has the same', () => {
    const { before, after } = changed(() => {});
    expect(before).toMatch(/^0\.1\.0\+[0-9a-f]{16}$/);
    expect(after, 'where the package sits is not part of what runs').toBe(before);
  });

  it.each([
    ['a bundle chunk', 'dist/bundle/chunk-A.js'],
    ['a module the cell worker imports, two steps away', 'dist/src/core/kernel.js'],
    ['a module it re-exports', 'dist/src/market/holiday-file.js'],
    ['a module it imports when it runs', 'dist/src/backtest/late.js'],
    ['the locked dependencies', 'package-lock.json'],
  ])('changes with %s, even by a comment', (_what, path) => {
    const { before, after } = changed((root) => appendFileSync(join(root, path), '// another build\n'));
    expect(after).not.toBe(before);
  });

  it('does not change where node_modules sits: the paths esbuild writes into the bundle, and its chunk names', () => {
    // A clone whose node_modules is a link to another checkout's: `../main/node_modules/…` in the bundle, and chunks
    // named by a hash of that text.
    const bundle = (up: string, chunk: string) => ({
      'dist/bundle/main.js': `import './chunk-${chunk}.js';\n// ${up}node_modules/yargs/index.js\n`,
      [`dist/bundle/chunk-${chunk}.js`]: `var x = { "${up}node_modules/emoji-regex/index.js"(exports) {} };\n`,
    });
    const place = (files: Record<string, string>) => (root: string) => {
      rmSync(join(root, 'dist', 'bundle'), { recursive: true });
      mkdirSync(join(root, 'dist', 'bundle'));
      for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
    };
    const here = changed(place(bundle('', 'AAAAAAAA'))).after;
    expect(changed(place(bundle('../main/', 'BBBBBBBB'))).after).toBe(here);
    expect(changed(place(bundle('../../work/main/', 'CCCCCCCC'))).after).toBe(here);
    const edited = bundle('', 'AAAAAAAA');
    edited['dist/bundle/chunk-AAAAAAAA.js'] += 'x.y = 2;\n';
    expect(changed(place(edited)).after, 'the code itself still counts').not.toBe(here);
  });

  it('does not change with a stale compiled file that nothing loads (a source removed since)', () => {
    const { before, after } = changed((root) => writeFileSync(join(root, 'dist/src/backtest/gone.js'), 'old();\n'));
    expect(after).toBe(before);
  });

  it('of this checkout: its version and a hash', () => {
    const manifest = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
    const version = (JSON.parse(manifest) as { version: string }).version;
    expect(buildIdentity()).toMatch(new RegExp(`^${version.replaceAll('.', '\\.')}\\+[0-9a-f]{16}$`));
  });
});
