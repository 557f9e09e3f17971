// README.md#install: the package a user installs. `npm pack` of this checkout, installed into an empty project the
// way the README says, gives a `propsim` that runs from any folder (--help, a replay of a bundled scenario, `npx
// propsim serve`, which stops on a SIGTERM to npx), and `propsim/client` for ES modules and CommonJS alike; the
// install prints no engine warning on Node 20. Dependencies come from the local npm cache where it has them.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../api/api-harness.js';
import { advanceClock, npmStartedServer, stopThroughNpm } from '../cli/npm-started-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SQLITE_BINDING = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

let project: string;
let installLog: string;

/** Runs a command of the installed package, with the working folder elsewhere. */
function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  const scratch = mkdtempSync(join(tmpdir(), 'propsim-package-'));
  // dist/ is built (npm test builds first); --ignore-scripts: pack what is built instead of building again.
  const tarball = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
  project = join(scratch, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  // --ignore-scripts skips better-sqlite3's native build (minutes on two cores, and not this package's concern):
  // the binding this checkout built for the same version and Node is copied in its place.
  const install = spawnSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(scratch, tarball)],
    { cwd: project, encoding: 'utf8', timeout: 100_000 },
  );
  installLog = install.stdout + install.stderr;
  expect(install.status, installLog).toBe(0);
  const version = (folder: string) =>
    (JSON.parse(readFileSync(join(folder, 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string })
      .version;
  expect(version(project)).toBe(version(ROOT));
  mkdirSync(dirname(join(project, SQLITE_BINDING)), { recursive: true });
  copyFileSync(join(ROOT, SQLITE_BINDING), join(project, SQLITE_BINDING));
}, 110_000);

describe('the installed package', () => {
  it('installs without engine warnings on Node 20 (no cookie@2, which wants Node 22)', () => {
    expect(installLog).not.toContain('EBADENGINE');
    expect(existsSync(join(project, 'node_modules/cookie/package.json'))).toBe(true);
    const cookie = JSON.parse(readFileSync(join(project, 'node_modules/cookie/package.json'), 'utf8')) as {
      version: string;
    };
    expect(cookie.version).toMatch(/^1\./);
  });

  it('propsim --help and a replay of a bundled scenario, from another folder', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'propsim-elsewhere-'));
    const bin = join(project, 'node_modules', '.bin', 'propsim');
    const help = run(bin, ['--help'], elsewhere);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('propsim <command> [options]');
    const scenario = join(project, 'node_modules', 'propsim', 'scenarios', 'oco-bracket.yaml');
    const replay = run(bin, ['replay', scenario, '--out', 'runs'], elsewhere);
    expect(replay.status, replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/^PASS {2}oco bracket/);
    expect(existsSync(join(elsewhere, 'runs', 'oco-bracket', 'report.html'))).toBe(true);
  });

  it('propsim/client from an ES module and from CommonJS, against `npx propsim serve`, which a SIGTERM to npx stops', async () => {
    const db = join(project, 'sandbox.sqlite');
    const server = await npmStartedServer(project, ['exec', '--', 'propsim', 'serve', '--port', '0', '--db', db]);
    try {
      const program = (load: string) => `${load}
const api = createPropsimClient({ baseUrl: process.argv[2], apiKey: '${KEYS.acmeOperator}' });
api.GET('/v1/firm-control/accounts').then(({ data, error }) => {
  if (error) throw new Error(JSON.stringify(error));
  console.log(data.items.length, 'accounts');
});
`;
      writeFileSync(join(project, 'esm.mjs'), program("import { createPropsimClient } from 'propsim/client';"));
      writeFileSync(join(project, 'cjs.cjs'), program("const { createPropsimClient } = require('propsim/client');"));
      for (const file of ['esm.mjs', 'cjs.cjs']) {
        const client = spawnSync(process.execPath, [file, server.url], { cwd: project, encoding: 'utf8' });
        expect(client.stderr, file).not.toMatch(/Error/);
        expect(client.stdout, file).toMatch(/^[1-9]\d* accounts\n$/);
      }
      await advanceClock(server.url);
    } finally {
      await stopThroughNpm(server, db);
    }
    expect(existsSync(db)).toBe(true);
  }, 60_000);
});
