// A scenario's market files replayed as its clock advances: every print up to the target time goes to the
// kernel, in (time, file, line) order, before the clock reaches the target.
import type { Kernel } from '../core/kernel/kernel.js';
import type { MarketFileSpec } from '../market/market-file-spec.js';
import { marketPrintBatches } from '../market/sources.js';
import type { TickBatch } from '../market/tick-batch.js';
import { CanonicalSymbols } from '../market/canonical-symbols.js';

export class MarketFeed {
  private readonly batches: AsyncGenerator<TickBatch> | undefined;
  private batch: TickBatch | undefined;
  private row = 0;
  private done: boolean;
  private readonly symbols = new CanonicalSymbols();
  printsReplayed = 0;
  /** Prints stamped before the scenario's start: the clock cannot go back for them. */
  printsBeforeStart = 0;
  /** Prints taken from the files, applied or not: where a restarted sandbox picks the files up again. */
  printsRead = 0;

  constructor(specs: readonly MarketFileSpec[]) {
    this.batches = specs.length > 0 ? marketPrintBatches(specs) : undefined;
    this.done = specs.length === 0;
  }

  /** Replays every print stamped at or before `targetMs`. */
  async replayUntil(
    targetMs: number,
    kernel: Kernel,
    onProgress?: (printsReplayed: number, timeMs: number) => void,
  ): Promise<void> {
    while (!this.done) {
      const batch = this.batch;
      if (!batch || this.row >= batch.length) {
        await this.nextBatch();
        continue;
      }
      const timeMs = batch.timeMs[this.row]!;
      if (timeMs > targetMs) return;
      if (!kernel.print(this.symbols.of(batch, this.row), batch.priceTicks[this.row]!, batch.size[this.row]!, timeMs))
        this.printsBeforeStart++;
      else {
        this.printsReplayed++;
        if (onProgress && this.printsReplayed % 100_000 === 0) onProgress(this.printsReplayed, timeMs);
      }
      this.row++;
      this.printsRead++;
    }
  }

  /**
   * The time of the next print: undefined when the files are done, -Infinity when the next batch is not read yet
   * (replaying reads it).
   */
  nextPrintMs(): number | undefined {
    if (this.done) return undefined;
    const batch = this.batch;
    return batch && this.row < batch.length ? batch.timeMs[this.row] : -Infinity;
  }

  /** Passes over the next `count` prints without applying them: a journal already holds them. */
  async skip(count: number): Promise<void> {
    while (!this.done && this.printsRead < count) {
      const batch = this.batch;
      if (!batch || this.row >= batch.length) {
        await this.nextBatch();
        continue;
      }
      const taken = Math.min(batch.length - this.row, count - this.printsRead);
      this.row += taken;
      this.printsRead += taken;
    }
  }

  /** Stops reading (closes the files) when the steps end before the data does. */
  async close(): Promise<void> {
    this.done = true;
    await this.batches?.return(undefined);
  }

  private async nextBatch(): Promise<void> {
    const next = await this.batches!.next();
    this.row = 0;
    this.batch = next.done ? undefined : next.value;
    if (next.done) this.done = true;
  }
}
