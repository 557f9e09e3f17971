// One job on the queue: a whole grid cell (its traders share the cell's prints), with everything the cell reads that
// is not code: the config (plans and kinds already read into it), the holiday calendar, and the data files by sha256;
// the code is named by the build identity (docs/scaling.md#workers-on-n-machines). Plain JSON.
import type { BacktestConfig } from '../config/backtest-config.js';
import type { GridCell } from '../config/grid.js';
import type { WorkerAnswer } from '../cells/cell-worker.js';
import type { ShardFiles } from './shard-files.js';

/** One queue serves every run; job ids carry the run id, so runs never mix. */
export const QUEUE_NAME = 'propsim-shards';

/** A shard that fails this many times fails the run. */
export const SHARD_ATTEMPTS = 3;

/**
 * A worker renews its lock on a running shard every LOCK_MS / 2; a killed worker's shard is seen as stalled
 * within LOCK_MS + STALLED_CHECK_MS by another worker and handed on (docs/scaling.md#failures).
 */
export const LOCK_MS = 10_000;
export const STALLED_CHECK_MS = 5_000;
/** Stalls a shard may have before it fails the run (each one a worker lost while running it). */
export const MAX_STALLS = 2;

export interface Shard {
  /**
   * The coordinator's build identity (build-identity.ts; package.json's version before it): a worker of another
   * build refuses the shard. Named `version` still, so that an older worker refuses a newer coordinator's shard.
   */
  version: string;
  runId: string;
  config: BacktestConfig;
  cell: GridCell;
  files: ShardFiles;
  /** The coordinator's holiday calendar as its document (loadHolidayDocument): the worker's own file is not read. */
  holidays: unknown;
}

/** What a worker returns: the cell's answer and who ran it (for the coordinator's count of workers seen). */
export interface ShardResult {
  answer: WorkerAnswer;
  worker: string;
}

export function shardJobId(runId: string, cellIndex: number): string {
  return `${runId}-cell-${cellIndex}`;
}
