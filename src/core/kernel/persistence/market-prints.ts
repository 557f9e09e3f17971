// Market files journaled by reference (docs/scenarios.md#the-journal): a replay names its market files once
// (`input.market_files`: path, format, bytes, sha256) and then records which prints of their merged stream it
// consumed (`input.market_prints` {from, to}), instead of a journal line per print. Reading such a journal again
// needs those prints from the files; core does no I/O, so the caller reads them and this cursor hands them out
// range by range.

/** A market file as the journal names it: the spec the run read it with, and what its bytes were. */
export interface MarketFileReference {
  /** Relative to the scenario file's folder, with forward slashes. */
  readonly path: string;
  readonly format: 'ticks' | 'bars' | 'databento';
  readonly instrument?: string;
  readonly bar_ms?: number;
  readonly sort?: boolean;
  readonly bytes: number;
  readonly sha256: string;
}

/** One print of the merged stream, as the kernel's `print` takes it (size Infinity: no size limit). */
export interface MarketPrint {
  readonly symbol: string;
  readonly priceTicks: number;
  readonly size: number;
  readonly timeMs: number;
}

/** The referenced files do not hold the prints the journal says were consumed. */
export class MarketPrintsError extends Error {
  override name = 'MarketPrintsError';
}

/** The merged stream of a journal's market files, handed out as the journal's `input.market_prints` ranges. */
export class MarketPrintCursor {
  private position = 0;
  private readonly prints: Iterator<MarketPrint>;

  constructor(prints: Iterable<MarketPrint>) {
    this.prints = prints[Symbol.iterator]();
  }

  /** The prints [from, to) of the stream; a range starts where the one before it ended. */
  *range(from: number, to: number): Generator<MarketPrint> {
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from > to)
      throw new MarketPrintsError(`a market print range is two whole numbers from <= to, got ${from}..${to}`);
    if (from !== this.position)
      throw new MarketPrintsError(
        `market prints ${from}..${to} do not follow the prints read so far (${this.position})`,
      );
    for (; this.position < to; this.position++) {
      const next = this.prints.next();
      if (next.done)
        throw new MarketPrintsError(
          `the journal consumed ${to} market prints but the market files hold ${this.position}`,
        );
      yield next.value;
    }
  }
}
