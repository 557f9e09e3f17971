// `--queue URL` of backtest and optimize: their cells as shards on `propsim worker` processes (docs/scaling.md), and
// `--worker-wait S`: how long such a run waits with no worker, or no Redis, before it stops (docs/scaling.md#failures).
import { DEFAULT_WORKER_WAIT_S } from '../backtest/queue/worker-wait.js';
import { wholeNumberFlag } from './flag-values.js';

export function queueOption(what: string) {
  return {
    describe: `redis://[:password@]host:port[/db] or rediss://… (TLS): run ${what} as shards on \`propsim worker\` processes through BullMQ on this Redis, in place of local threads; outputs are identical (docs/scaling.md)`,
    type: 'string',
    requiresArg: true,
    conflicts: 'workers',
  } as const;
}

export function workerWaitOption() {
  return {
    describe: `with --queue: seconds the run may go with no \`propsim worker\` connected, or with Redis not answering, before it stops with exit 1 (said on stderr at once; default ${DEFAULT_WORKER_WAIT_S}). Shards Redis lost (a restart, FLUSHDB) are queued again`,
    type: 'string',
    requiresArg: true,
    implies: 'queue',
    coerce: wholeNumberFlag('worker-wait', 1),
  } as const;
}
