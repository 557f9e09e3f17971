// docs/api.md#under-a-supervisor: `npm start` (and npx, tested in test/package/) runs `propsim serve` under `sh -c`,
// so a SIGTERM sent to npm never reaches the server. The server sees npm go and closes as on SIGTERM: the port
// closes and the clean-stop snapshot is written. A real npm, a real shell, a real server.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advanceClock, npmStartedServer, stopThroughNpm } from './npm-started-server.js';
import { CLI } from './run-cli.js';

describe('serve under npm', () => {
  it('SIGTERM to `npm start`: the server closes its port and writes its clean-stop snapshot', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'propsim-npm-start-'));
    const db = join(folder, 'sandbox.sqlite');
    const start = ['node', JSON.stringify(CLI), 'serve', '--port', '0', '--db', JSON.stringify(db)].join(' ');
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: 'supervised', private: true, scripts: { start } }),
    );
    const server = await npmStartedServer(folder, ['start']);
    await advanceClock(server.url);
    await stopThroughNpm(server, db);
    expect(existsSync(db)).toBe(true);
  }, 60_000);
});
