// A `propsim serve` started through npm (`npm start`, `npx propsim serve`): npm, then `sh -c`, then the server.
// For the tests of docs/api.md#under-a-supervisor: a SIGTERM sent to npm must still close the server.
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { KEYS } from '../api/api-harness.js';

export interface NpmStartedServer {
  npm: ChildProcess;
  url: string;
  /** Everything npm and the server under it printed, once all of them have closed the pipes. */
  closed: Promise<string>;
}

/** Runs `npm ...args` in `folder` and resolves once the server under it prints its `listening on` line. */
export async function npmStartedServer(folder: string, args: string[]): Promise<NpmStartedServer> {
  const npm = spawn('npm', args, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close' waits for every holder of the pipes: npm, its shell and the server under them.
  const closed = new Promise<string>((done) => npm.on('close', () => done(output)));
  const url = await new Promise<string>((found, failed) => {
    const poll = setInterval(() => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearInterval(poll);
      found(match[1]!);
    }, 50);
    void closed.then(() => {
      clearInterval(poll);
      failed(new Error(`npm ${args.join(' ')} ended before listening:\n${output}`));
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

/** SIGTERM to npm: the server closes (its port too) after writing its snapshot to `db`. */
export async function stopThroughNpm(server: NpmStartedServer, db: string): Promise<string> {
  server.npm.kill('SIGTERM');
  const output = await server.closed;
  expect(output).toContain(
    `propsim serve: npm, which started it, has exited, closing (writing a snapshot of the state to ${db})`,
  );
  expect(output).toMatch(/propsim serve: snapshot of the state at journal line \d+/);
  await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  return output;
}
