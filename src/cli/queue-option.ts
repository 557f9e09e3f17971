// `--queue URL` of backtest and optimize: their cells as shards on `propsim worker` processes (docs/scaling.md).
export function queueOption(what: string) {
  return {
    describe: `redis://[:password@]host:port[/db] or rediss://… (TLS): run ${what} as shards on \`propsim worker\` processes through BullMQ on this Redis, in place of local threads; outputs are identical (docs/scaling.md)`,
    type: 'string',
    requiresArg: true,
    conflicts: 'workers',
  } as const;
}
