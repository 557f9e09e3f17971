// The resampled tape as print batches, the form a cell reads real market files in
// (docs/backtesting.md#long-horizons-a-resampled-tape). Each real session is laid on its period session at the same
// distance from the open, and cut at that session's close (an early close ends it early). Each root's prices move
// by one whole number of ticks per stretch, so bars keep their open/high/low/close and volumes: a stretch starts at a
// block's first print of the root, or where the root's contract changes, and opens at the last price laid before it.
// Prints take the contract of their root that trades on the period's trade date by the roll rule.
import type { Session } from '../../core/calendar/index.js';
import { contractOn } from '../../core/contract-rolls.js';
import { SymbolTable } from '../../market/symbol-table.js';
import { TickBatchBuilder, type TickBatch } from '../../market/tick-batch.js';
import type { TapeBlock } from './block-draw.js';
import type { SourceTape } from './source-sessions.js';

/** A shifted price reached zero or below: the tape drifted further than the data's prices allow. */
export class TapeBelowZeroError extends Error {
  constructor(
    readonly root: string,
    readonly tradeDate: string,
  ) {
    super(`the resampled ${root} price falls to zero or below on ${tradeDate}`);
  }
}

/** The period's sessions with the real session laid on each, in order. */
export function laidSessions(
  tape: SourceTape,
  blocks: readonly TapeBlock[],
  period: readonly Session[],
): Array<{ session: Session; source: SourceTape['whole'][number]; block: number }> {
  return blocks.flatMap((block, b) =>
    Array.from({ length: block.length }, (_, k) => ({
      session: period[block.at + k]!,
      source: tape.whole[block.source + k]!,
      block: b,
    })),
  );
}

export function* resampledPrintBatches(
  tape: SourceTape,
  blocks: readonly TapeBlock[],
  period: readonly Session[],
  batchRows?: number,
): Generator<TickBatch> {
  const symbols = new SymbolTable();
  const out = new TickBatchBuilder(symbols, batchRows);
  const slots = tape.roots.length;
  const offset = new Float64Array(slots);
  const lastPrice = new Float64Array(slots).fill(NaN);
  // The block and the real contract of each root's current stretch.
  const stretchBlock = new Int32Array(slots).fill(-1);
  const stretchContract = new Int32Array(slots).fill(-1);
  const outIndex = new Int32Array(slots);
  const { timeMs, priceTicks, size, instrumentIndex, line, fileIndex } = tape;
  for (const { session, source, block } of laidSessions(tape, blocks, period)) {
    for (let slot = 0; slot < slots; slot++)
      outIndex[slot] = symbols.register(contractOn(tape.roots[slot]!, session.tradeDate)).index;
    const shift = session.openMs - source.openMs;
    for (let row = source.from; row < source.to; row++) {
      const at = timeMs[row]! + shift;
      if (at >= session.closeMs) break;
      const contract = instrumentIndex[row]!;
      const slot = source.slotOf[contract]!;
      if (slot < 0) continue;
      const price = priceTicks[row]!;
      if (stretchBlock[slot] !== block || stretchContract[slot] !== contract) {
        stretchBlock[slot] = block;
        stretchContract[slot] = contract;
        offset[slot] = Number.isNaN(lastPrice[slot]!) ? 0 : lastPrice[slot]! - price;
      }
      const laid = price + offset[slot]!;
      if (laid <= 0) throw new TapeBelowZeroError(tape.roots[slot]!, session.tradeDate);
      lastPrice[slot] = laid;
      out.push(at, laid, size[row]!, outIndex[slot]!, line[row]!, fileIndex[row]!);
      if (out.room === 0) yield out.take();
    }
  }
  if (out.length > 0) yield out.take();
}
