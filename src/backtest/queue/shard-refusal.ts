// A shard this worker will not run (another propsim version, a data file it lacks or whose content differs).
// Thrown as BullMQ's UnrecoverableError, so the shard fails at once instead of being retried; the coordinator
// recognises the prefix and answers exit 2.
import { UnrecoverableError } from 'bullmq';

export const REFUSED = 'a worker refused the shard: ';

export class ShardRefusal extends UnrecoverableError {
  constructor(reason: string) {
    super(REFUSED + reason);
  }
}
