// The trade prints of a finished run, as columns: a run over a large market file has millions of them, too many to
// hold as one object each.
// Here a print is four numbers in growing typed arrays, and its symbol an index into the few symbols of the run.

/** One trade print of the run (market file row or scenario tick). */
export interface RunPrint {
  readonly seq: number;
  readonly symbol: string;
  readonly priceTicks: number;
  readonly timeMs: number;
}

const FIRST_CAPACITY = 1024;

export class RunPrints {
  private readonly symbols: string[] = [];
  private readonly indexOfSymbol = new Map<string, number>();
  private seqs = new Float64Array(FIRST_CAPACITY);
  private times = new Float64Array(FIRST_CAPACITY);
  private ticks = new Float64Array(FIRST_CAPACITY);
  private symbolIndexes = new Uint32Array(FIRST_CAPACITY);
  private count = 0;
  /** Whether every print so far came at or after the one before it, in time and then journal order. */
  private ordered = true;

  get length(): number {
    return this.count;
  }

  push(seq: number, symbol: string, priceTicks: number, timeMs: number): void {
    if (this.count === this.seqs.length) this.grow();
    const i = this.count++;
    if (i > 0 && (timeMs < this.times[i - 1]! || (timeMs === this.times[i - 1] && seq < this.seqs[i - 1]!)))
      this.ordered = false;
    this.seqs[i] = seq;
    this.times[i] = timeMs;
    this.ticks[i] = priceTicks;
    this.symbolIndexes[i] = this.symbolIndex(symbol);
  }

  /** The journal line of the i-th print. */
  seqAt(i: number): number {
    return this.seqs[i]!;
  }

  /** The i-th print, in the order pushed. */
  at(i: number): RunPrint {
    return {
      seq: this.seqs[i]!,
      symbol: this.symbols[this.symbolIndexes[i]!]!,
      priceTicks: this.ticks[i]!,
      timeMs: this.times[i]!,
    };
  }

  /**
   * The positions of the prints of `symbols`, in time then journal order. A journal's prints come in that order
   * already (the kernel's clock never goes back); others are sorted.
   */
  positionsOf(symbols: ReadonlySet<string>): Uint32Array {
    const wanted = this.symbols.map((symbol) => symbols.has(symbol));
    const positions = new Uint32Array(this.count);
    let n = 0;
    for (let i = 0; i < this.count; i++) if (wanted[this.symbolIndexes[i]!]) positions[n++] = i;
    const found = positions.subarray(0, n);
    if (!this.ordered) found.sort((a, b) => this.times[a]! - this.times[b]! || this.seqs[a]! - this.seqs[b]!);
    return found;
  }

  private symbolIndex(symbol: string): number {
    let index = this.indexOfSymbol.get(symbol);
    if (index === undefined) {
      index = this.symbols.push(symbol) - 1;
      this.indexOfSymbol.set(symbol, index);
    }
    return index;
  }

  private grow(): void {
    const capacity = this.seqs.length * 2;
    const grown = <T extends Float64Array | Uint32Array>(from: T, to: T): T => (to.set(from), to);
    this.seqs = grown(this.seqs, new Float64Array(capacity));
    this.times = grown(this.times, new Float64Array(capacity));
    this.ticks = grown(this.ticks, new Float64Array(capacity));
    this.symbolIndexes = grown(this.symbolIndexes, new Uint32Array(capacity));
  }
}
