// The queue's failures, in a module of their own so the CLI's error handling names them without loading BullMQ.

/**
 * A queue URL that is malformed or whose Redis cannot be reached, or a shard a worker refused (another propsim
 * version, a data file whose content differs): exit 2.
 */
export class QueueInputError extends Error {
  override name = 'QueueInputError';
}

/** A shard failed SHARD_ATTEMPTS times (or its workers were lost too often): the run fails with its error, exit 1. */
export class ShardFailedError extends Error {
  override name = 'ShardFailedError';
}
