// docs/api.md#under-a-supervisor: `npm start` (and npx, tested in test/package/) runs `propsim serve` under `sh -c`,
// so a SIGTERM sent to npm never reaches the server. The server sees npm go and closes as on SIGTERM: the port
// closes and the clean-stop snapshot is written. A real npm, a real shell, a real server.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYS } from '../api/api-harness.js';
import { CLI } from './run-cli.js';

/** Runs `npm start` in `folder`; resolves with the server's URL once it listens, and a promise of all its stderr. */
export async function npmStartedServer(
  folder: string,
  command: string[],
  args: string[] = ['start'],
): Promise<{ npm: ReturnType<typeof spawn>; url: string; closed: Promise<string> }> {
  const npm = spawn('npm', args, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close' waits for every holder of the pipes: npm, its shell and the server under them.
  const closed = new Promise<string>((done) => npm.on('close', () => done(output)));
  const url = await new Promise<string>((found, failed) => {
    const poll = setInterval(() => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearInterval(poll);
        found(match[1]!);
      }
    }, 50);
    void closed.then(() => {
      clearInterval(poll);
      failed(new Error(`${command.join(' ')} ended before listening:\n${output}`));
    });
  });
  return { npm, url, closed };
}

/** A change to the sandbox, so that closing has a snapshot to write. */
export async function advanceClock(url: string): Promise<void> {
  const answer = await fetch(`${url}/v1/sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'x-service-api-key': KEYS.admin, 'content-type': 'application/json' },
    body: JSON.stringify({ by: '1s' }),
  });
  expect(answer.status).toBe(200);
}

describe('serve under npm', () => {
  it('SIGTERM to `npm start`: the server closes its port and writes its clean-stop snapshot', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'propsim-npm-start-'));
    const db = join(folder, 'sandbox.sqlite');
    const command = ['node', JSON.stringify(CLI), 'serve', '--port', '0', '--db', JSON.stringify(db)];
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: 'supervised', private: true, scripts: { start: command.join(' ') } }),
    );
    const { npm, url, closed } = await npmStartedServer(folder, command);
    await advanceClock(url);
    npm.kill('SIGTERM');
    const output = await closed;
    expect(output).toContain(
      `propsim serve: npm, which started it, has exited, closing (writing a snapshot of the state to ${db})`,
    );
    expect(output).toMatch(/propsim serve: snapshot of the state at journal line \d+/);
    expect(existsSync(db)).toBe(true);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  }, 60_000);
});
