// A stable k-way merge of print sources by (time, file, line). Each source is already in that order, so the
// merge only compares the heads, copying runs of one source at a time; it pulls a source's next batch only
// when its current one is used up, which keeps every file streaming.
import type { SymbolTable } from './symbol-table.js';
import { DEFAULT_BATCH_ROWS, sliceBatch, TickBatchBuilder, type TickBatch } from './tick-batch.js';

interface Head {
  readonly source: AsyncIterator<TickBatch>;
  batch: TickBatch;
  pos: number;
}

/** Merges sources (each in (time, file, line) order) into one stream in that order. */
export async function* mergePrintSources(
  sources: readonly AsyncIterable<TickBatch>[],
  symbols: SymbolTable,
  batchRows = DEFAULT_BATCH_ROWS,
): AsyncGenerator<TickBatch> {
  const iterators = sources.map((source) => source[Symbol.asyncIterator]());
  try {
    const heads: Head[] = [];
    for (const source of iterators) {
      const batch = await nextNonEmpty(source);
      if (batch) heads.push({ source, batch, pos: 0 });
    }
    const out = new TickBatchBuilder(symbols, batchRows);
    while (heads.length > 1) {
      const [best, runnerUp] = twoFirst(heads);
      const { batch } = best;
      let end = best.pos + 1;
      const limit = Math.min(batch.length, best.pos + out.room);
      while (end < limit && before(batch, end, runnerUp.batch, runnerUp.pos)) end++;
      out.pushRange(batch, best.pos, end);
      best.pos = end;
      if (out.room === 0) yield out.take();
      if (best.pos === batch.length && !(await refill(best))) heads.splice(heads.indexOf(best), 1);
    }
    if (out.length > 0) yield out.take();
    // One source left: its batches pass through untouched.
    const last = heads[0];
    if (last) {
      yield sliceBatch(last.batch, last.pos);
      for (;;) {
        const batch = await nextNonEmpty(last.source);
        if (!batch) break;
        yield batch;
      }
    }
  } finally {
    await Promise.all(iterators.map((source) => source.return?.()));
  }
}

/** Whether row i of a sorts before row j of b by (time, file, line). */
function before(a: TickBatch, i: number, b: TickBatch, j: number): boolean {
  const at = a.timeMs[i]!;
  const bt = b.timeMs[j]!;
  if (at !== bt) return at < bt;
  const af = a.fileIndex[i]!;
  const bf = b.fileIndex[j]!;
  if (af !== bf) return af < bf;
  return a.line[i]! < b.line[j]!;
}

/** The head that comes first and the one that comes next (there are at least two). */
function twoFirst(heads: readonly Head[]): [Head, Head] {
  let best = heads[0]!;
  let second = heads[1]!;
  if (before(second.batch, second.pos, best.batch, best.pos)) [best, second] = [second, best];
  for (let k = 2; k < heads.length; k++) {
    const head = heads[k]!;
    if (before(head.batch, head.pos, best.batch, best.pos)) [best, second] = [head, best];
    else if (before(head.batch, head.pos, second.batch, second.pos)) second = head;
  }
  return [best, second];
}

async function refill(head: Head): Promise<boolean> {
  const batch = await nextNonEmpty(head.source);
  if (!batch) return false;
  head.batch = batch;
  head.pos = 0;
  return true;
}

async function nextNonEmpty(source: AsyncIterator<TickBatch>): Promise<TickBatch | undefined> {
  for (;;) {
    const next = await source.next();
    if (next.done) return undefined;
    if (next.value.length > 0) return next.value;
  }
}
