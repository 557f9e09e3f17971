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

/**
 * The run cannot go on: no propsim worker connected, or Redis not answering, for the whole --worker-wait; or a shard
 * Redis lost too often (docs/scaling.md#failures). Exit 1, as a run that failed for a reason outside propsim.
 */
export class QueueLostError extends Error {
  override name = 'QueueLostError';
}
