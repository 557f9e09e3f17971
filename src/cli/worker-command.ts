// `propsim worker --queue URL [--concurrency N] [--data DIR]` (docs/scaling.md): runs the shards that
// `backtest --queue` puts on a Redis queue, on this machine, until Ctrl-C or SIGTERM. Each shard is logged on
// stderr. Exit 0 when stopped, 2 for a bad flag or an unreachable Redis.
import { existsSync, statSync } from 'node:fs';
import type { Argv } from 'yargs';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { wholeNumberFlag } from './flag-values.js';
import { helpExamples } from './help-examples.js';
import { CliInputError, reportFailure } from './input-error.js';

interface WorkerArgs {
  queue: string;
  concurrency: number;
  data: string | undefined;
}

export const workerCommand = {
  ...COMMAND_SUMMARIES.worker,
  builder: (y: Argv) =>
    y
      .option('queue', {
        describe: 'redis://[:password@]host:port[/db] or rediss://… (TLS): the Redis that `backtest --queue` names',
        type: 'string',
        demandOption: true,
        requiresArg: true,
      })
      .option('concurrency', {
        describe: 'shards run at once, each on its own thread, a whole number ≥ 1 (the cores, at most)',
        type: 'string',
        requiresArg: true,
        default: '1',
        coerce: wholeNumberFlag('concurrency', 1),
      })
      .option('data', {
        describe:
          "folder holding the market and fills files by name, when this machine's paths differ from the coordinator's; each file's sha256 must match",
        type: 'string',
        requiresArg: true,
      })
      .epilog(
        helpExamples([
          [
            'a worker on this machine, next to a Redis started with `redis-server`',
            '$0 worker --queue redis://127.0.0.1:6379',
          ],
          [
            'a worker on another machine: two shards at a time, the data files copied into /srv/propsim-data',
            '$0 worker --queue redis://:secret@10.0.0.5:6379 --concurrency 2 --data /srv/propsim-data',
          ],
        ]),
      )
      .epilog(
        'Shards are logged on stderr. Ctrl-C or SIGTERM: the running shards finish and the worker stops (again: at once; the shards go to another worker). Exit codes: 0 stopped, 2 invalid flag or unreachable Redis.',
      ),
  handler: async (args: WorkerArgs) => {
    try {
      await work(args);
    } catch (error) {
      reportFailure('worker', error);
    }
  },
};

async function work(args: WorkerArgs): Promise<void> {
  if (args.data !== undefined && !(existsSync(args.data) && statSync(args.data).isDirectory()))
    throw new CliInputError(`--data: ${args.data} is not a folder`);
  const { parseQueueUrl } = await import('../backtest/queue/queue-url.js');
  const { startShardWorker } = await import('../backtest/queue/shard-worker.js');
  const log = (line: string) => process.stderr.write(`worker: ${line}\n`);
  const worker = await startShardWorker(parseQueueUrl(args.queue), {
    concurrency: args.concurrency,
    dataDir: args.data,
    log,
  });
  await new Promise<void>((resolve) => {
    const stop = () => {
      log('stopping: the running shards finish first (Ctrl-C again to stop at once)');
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(130));
      void worker.close().then(() => resolve());
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  log('stopped');
  // Stopped as asked: a connection still retrying a Redis that is gone must not keep the process alive.
  process.exit(0);
}
