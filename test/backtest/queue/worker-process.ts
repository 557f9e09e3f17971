// `propsim worker` processes for the queue tests: started as a user would (the compiled CLI), their stderr kept to
// wait for a line (the worker waiting, a shard started) and to read which shards each one ran.
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from '../../cli/run-cli.js';

export interface WorkerProcess {
  child: ChildProcess;
  log(): string;
  /** Resolves with the first match of `pattern` in the log, now or later; rejects if the worker exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** SIGTERM (the running shards finish) and wait for the exit. */
  stop(): Promise<void>;
}

/** @param cli the launcher to run: this checkout's unless given (another build of propsim) */
export async function startWorker(
  queueUrl: string,
  extra: readonly string[] = [],
  env: Record<string, string> = {},
  cli = CLI,
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [cli, 'worker', '--queue', queueUrl, ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let log = '';
  const watchers = new Set<() => void>();
  child.stderr!.on('data', (chunk: Buffer) => {
    log += chunk.toString();
    for (const watcher of watchers) watcher();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = log.match(pattern);
        if (!match) return;
        watchers.delete(check);
        resolve(match);
      };
      watchers.add(check);
      check();
      void exited.then(() => reject(new Error(`the worker exited before ${pattern}:\n${log}`)));
    });
  const worker: WorkerProcess = {
    child,
    log: () => log,
    waitFor,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  await waitFor(/waiting for shards/);
  return worker;
}
