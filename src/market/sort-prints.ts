// `sort: true` for a market file: all its prints, held in memory, put in a stable (time, line) order.
import type { SymbolTable } from './symbol-table.js';
import { TickBatchBuilder, type TickBatch } from './tick-batch.js';

/** The prints of `batches` (one file, in file order) re-batched in (timeMs, line, file order) order. */
export function* sortPrints(
  batches: readonly TickBatch[],
  symbols: SymbolTable,
  batchRows: number,
): Generator<TickBatch> {
  const total = batches.reduce((sum, batch) => sum + batch.length, 0);
  const collector = new TickBatchBuilder(symbols, Math.max(total, 1));
  for (const batch of batches) collector.pushRange(batch, 0, batch.length);
  const all = collector.take();
  const { timeMs, line } = all;
  const order = Array.from({ length: total }, (_, i) => i);
  // Ties on (time, line) are a bar's prints with a tiny bar_ms: keep them in the order they were made.
  order.sort((a, b) => timeMs[a]! - timeMs[b]! || line[a]! - line[b]! || a - b);
  const out = new TickBatchBuilder(symbols, batchRows);
  for (const i of order) {
    out.push(timeMs[i]!, all.priceTicks[i]!, all.size[i]!, all.instrumentIndex[i]!, line[i]!, all.fileIndex[i]!);
    if (out.room === 0) yield out.take();
  }
  if (out.length > 0) yield out.take();
}
