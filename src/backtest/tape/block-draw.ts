// Which real sessions a resampled tape lays on the period's trade dates (docs/backtesting.md#long-horizons-a-resampled-tape):
// blocks of `blockSessions` consecutive whole sessions, each starting at a place drawn uniformly (a moving-block
// bootstrap), laid end to end until the period is full; the last block is cut short at the period's end. The draws
// come from the run's seed on a generator of their own (Mersenne Twister; every other stream of the run is
// xoroshiro128+), so the tape is the same in every cell, thread and queue worker, and unrelated to the traders' draws.
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { mersenne } from 'pure-rand/generator/mersenne';

export interface TapeBlock {
  /** The index of its first session among the period's. */
  at: number;
  /** The index of its first real session among the whole ones. */
  source: number;
  /** Sessions in it (the last block may be shorter). */
  length: number;
}

export function drawBlocks(
  wholeSessions: number,
  periodSessions: number,
  blockSessions: number,
  seed: number,
): TapeBlock[] {
  if (wholeSessions < blockSessions)
    throw new RangeError(
      `a block of ${blockSessions} sessions needs as many whole sessions; there are ${wholeSessions}`,
    );
  const rng = mersenne(seed);
  const blocks: TapeBlock[] = [];
  for (let at = 0; at < periodSessions; at += blockSessions) {
    const source = uniformInt(rng, 0, wholeSessions - blockSessions);
    blocks.push({ at, source, length: Math.min(blockSessions, periodSessions - at) });
  }
  return blocks;
}
