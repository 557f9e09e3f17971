// `--queue rediss://` (docs/scaling.md#password-and-tls): a throwaway CA and a server certificate for localhost made
// with openssl, a redis-server listening on TLS only, one worker; the coordinator and the worker trust the CA through
// NODE_EXTRA_CA_CERTS, and the outputs are byte-identical to the local run. Skipped, saying why, only when openssl
// or a redis-server built with TLS is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, type CliResult } from '../../cli/run-cli.js';
import { startRedis, type RedisTls, type RunningRedis } from '../../../bench/redis-server.js';
import { startWorker, type WorkerProcess } from './worker-process.js';

const CONFIG = fileURLToPath(new URL('./fixtures/queue-6e.yaml', import.meta.url));
const REDIS = '/usr/bin/redis-server';

/** Why TLS cannot be tested here, or undefined when it can. */
function missingTls(): string | undefined {
  if (spawnSync('openssl', ['version']).status !== 0) return 'openssl is not installed';
  if (!existsSync(REDIS)) return undefined; // startRedis installs it (or says what to install)
  const linked = spawnSync('ldd', [REDIS], { encoding: 'utf8' }).stdout ?? '';
  return /libssl/.test(linked) ? undefined : `${REDIS} is built without TLS (it does not link libssl)`;
}

const missing = missingTls();
if (missing) console.warn(`skipping the rediss:// test: ${missing}`);

/** A CA, and a certificate for localhost and 127.0.0.1 signed by it, in a new folder. */
function throwawayCertificates(): RedisTls {
  const dir = mkdtempSync(join(tmpdir(), 'propsim-tls-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => {
    const run = spawnSync('openssl', args, { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${run.stderr}`);
  };
  const key = ['-newkey', 'rsa:2048', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...key,
    '-days',
    '1',
    '-subj',
    '/CN=propsim test CA',
    '-keyout',
    at('ca-key.pem'),
    '-out',
    at('ca.pem'),
  );
  openssl('req', ...key, '-subj', '/CN=localhost', '-keyout', at('server-key.pem'), '-out', at('server.csr'));
  writeFileSync(at('san.ext'), 'subjectAltName = DNS:localhost, IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    at('server.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca-key.pem'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    at('san.ext'),
    '-out',
    at('server.pem'),
  );
  return { ca: at('ca.pem'), cert: at('server.pem'), key: at('server-key.pem') };
}

const outputs = (out: string) =>
  Object.fromEntries(readdirSync(out).map((name) => [name, readFileSync(join(out, name))]));
const outFolder = () => join(mkdtempSync(join(tmpdir(), 'propsim-queue-tls-')), 'out');
const backtest = (out: string, flags: string[], env: Record<string, string> = {}) =>
  runCliAsync(['backtest', '--config', CONFIG, '--out', out, ...flags], undefined, env);
const succeeded = (result: CliResult) => expect(result.status, result.stderr).toBe(0);

describe.skipIf(missing !== undefined)('backtest --queue rediss://', () => {
  let tls: RedisTls;
  let redis: RunningRedis;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    tls = throwawayCertificates();
    redis = await startRedis(tls);
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await redis?.stop();
  }, 60_000);

  it('a TLS-only redis-server, the CA passed with NODE_EXTRA_CA_CERTS: outputs byte-identical to the local run', async () => {
    expect(redis.url).toMatch(/^rediss:\/\/localhost:\d+$/);
    const trust = { NODE_EXTRA_CA_CERTS: tls.ca };
    const localOut = outFolder();
    succeeded(await backtest(localOut, ['--workers', '1']));
    worker = await startWorker(redis.url, [], trust);
    const queuedOut = outFolder();
    succeeded(await backtest(queuedOut, ['--queue', redis.url], trust));
    expect(outputs(queuedOut)).toEqual(outputs(localOut));
    expect(worker.log()).toMatch(/: done in/);
  }, 180_000);

  it('without the CA, the certificate is not trusted: exit 2 naming the URL, before any work', async () => {
    const out = outFolder();
    const result = await backtest(out, ['--queue', redis.url]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(`cannot reach Redis at ${redis.url}`);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
