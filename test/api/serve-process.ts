// A real `propsim serve` process for end-to-end tests: started on a free loopback port, found by its banner. Its
// answers are checked against the document it serves: call it through checkedFetch (openapi-responses.ts).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SEED_FILE } from '../../src/api/sandbox/seed-file.js';
import { servedChecker } from './openapi-responses.js';

const BIN = fileURLToPath(new URL('../../bin/propsim.js', import.meta.url));

export interface Server {
  child: ChildProcessWithoutNullStreams;
  url: string;
  banner: string;
  exited: Promise<{ code: number | null; stderr: string }>;
}

/**
 * Starts `propsim serve --port 0 …` and waits for its `listening on` line. Without --db the state stays in memory
 * (`--memory`): a test must not leave a .propsim/ folder in the working tree (`defaultStore` leaves the flags as
 * given, for a test of the default, with its own `cwd`).
 */
export async function startServe(
  args: string[] = [],
  options: { cwd?: string; defaultStore?: boolean } = {},
): Promise<Server> {
  const store = options.defaultStore || args.includes('--db') || args.includes('--memory') ? [] : ['--memory'];
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...store, ...args], {
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let stderr = '';
  const exited = new Promise<{ code: number | null; stderr: string }>((done) =>
    child.on('exit', (code) => done({ code, stderr })),
  );
  const url = await new Promise<string>((found, failed) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) found(match[1]!);
    });
    void exited.then(({ code }) => failed(new Error(`serve exited ${code} before listening:\n${stderr}`)));
  });
  await new Promise((settle) => setTimeout(settle, 50));
  await servedChecker(url); // the document every answer of this server is checked against, read once
  return { child, url, banner: stderr, exited };
}

/** A fresh folder with a db path and the bundled seed with its rate limit lifted, for `serve --db` under load. */
export function durableServeFiles(prefix: string): { db: string; seed: string } {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  const seed = join(folder, 'seed.yaml');
  writeFileSync(
    seed,
    `${readFileSync(DEFAULT_SEED_FILE, 'utf8')}\nrate_limit: { per_second: 1000000, burst: 1000000 }\n`,
  );
  return { db: join(folder, 'sandbox.sqlite'), seed };
}
