// A real redis-server for the queue bench and tests (test/backtest/queue/), on a free loopback port with its own temporary
// folder and no persistence. Debian's redis-server is found on the PATH, else installed with apt-get when run as root
// (CI machines), else a clear message says what to install (like test/browser/chromium.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SERVER = '/usr/bin/redis-server';

function redisServerPath(): string {
  if (existsSync(SERVER)) return SERVER;
  if (process.getuid?.() === 0) {
    const install = spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq redis-server'], {
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (existsSync(SERVER)) return SERVER;
    throw new Error(`apt-get could not install redis-server (exit ${install.status}): ${install.stderr.slice(-500)}`);
  }
  throw new Error('the queue tests need Debian redis-server: sudo apt-get install redis-server');
}

/** A loopback port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningRedis {
  url: string;
  /** The loopback port it listens on: a test that stops it can start another on the same port (a restart). */
  port: number;
  stop(): Promise<void>;
}

/** PEM files for a TLS-only server: its certificate and key, and the CA that signed it. */
export interface RedisTls {
  cert: string;
  key: string;
  ca: string;
}

/**
 * A redis-server on loopback, with no persistence as docs/scaling.md#starting-redis runs it (a restart loses every
 * key); with `tls`, TLS only (no plain port), clients not asked for certificates; on `port` when given.
 */
export async function startRedis(tls?: RedisTls, port?: number): Promise<RunningRedis> {
  const path = redisServerPath();
  port ??= await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'propsim-redis-'));
  const listen = tls
    ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', tls.cert, '--tls-key-file', tls.key]
    : ['--port', String(port)];
  const tlsClients = tls ? ['--tls-ca-cert-file', tls.ca, '--tls-auth-clients', 'no'] : [];
  const server: ChildProcess = spawn(
    path,
    [...listen, ...tlsClients, '--bind', '127.0.0.1', '-::1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in 20 s:\n${output}`)), 20_000);
    server.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
    server.stdout!.on('data', () => {
      if (/ready to accept connections/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    // The TLS URL names the host the certificate is for.
    url: tls ? `rediss://localhost:${port}` : `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (server.exitCode !== null) return resolve();
        server.once('exit', () => resolve());
        server.kill('SIGTERM');
      }),
  };
}
