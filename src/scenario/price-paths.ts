// The market-file and tick prints of a replay, per instrument, kept within a fixed budget so that a report can
// draw an account's equity between its samples (src/reports/market-moves.ts): each stretch of time keeps its lowest,
// highest and last print, and when more than MAX_KEPT are kept the stretches double in length. Every print is
// numbered in the order it was applied, so a sample can say which prints its numbers include; besides the budget, a
// sample pins each instrument's last print as of it (one pin per sample that came after new prints of it).

/** Prints kept per instrument at most: three for each of a chart's columns, four times over. */
const MAX_KEPT = 6_600;
/** The length of a stretch until the kept prints outgrow MAX_KEPT. */
const FIRST_STRETCH_MS = 1_000;

/** Kept prints of one instrument, in the order applied: number, time and price in ticks of each. */
export interface KeptPrints {
  readonly seqs: readonly number[];
  readonly times: readonly number[];
  readonly ticks: readonly number[];
}

/** A print: its number in the order applied, its time and its price in ticks. */
export interface KeptPrint {
  readonly seq: number;
  readonly timeMs: number;
  readonly ticks: number;
}

interface KeptArrays {
  seqs: number[];
  times: number[];
  ticks: number[];
}

/**
 * A stretch of time being reduced to its lowest, highest and last print (the first low and high among equals): plain
 * fields, as every print of a replay passes here.
 */
class Stretch {
  index = Number.NaN;
  private lowSeq = 0;
  private lowMs = 0;
  private lowTicks = 0;
  private highSeq = 0;
  private highMs = 0;
  private highTicks = 0;
  /** The stretch's last print: the instrument's latest while the stretch is open. */
  lastSeq = 0;
  lastMs = 0;
  lastTicks = 0;

  start(index: number, seq: number, timeMs: number, priceTicks: number): void {
    this.index = index;
    this.lowSeq = this.highSeq = this.lastSeq = seq;
    this.lowMs = this.highMs = this.lastMs = timeMs;
    this.lowTicks = this.highTicks = this.lastTicks = priceTicks;
  }

  add(seq: number, timeMs: number, priceTicks: number): void {
    if (priceTicks < this.lowTicks) {
      this.lowSeq = seq;
      this.lowMs = timeMs;
      this.lowTicks = priceTicks;
    } else if (priceTicks > this.highTicks) {
      this.highSeq = seq;
      this.highMs = timeMs;
      this.highTicks = priceTicks;
    }
    this.lastSeq = seq;
    this.lastMs = timeMs;
    this.lastTicks = priceTicks;
  }

  /** Appends the stretch's prints, each once, in the order applied; the stretch is then empty. */
  keepInto(kept: KeptArrays): void {
    const prints: Array<[number, number, number]> = [[this.lowSeq, this.lowMs, this.lowTicks]];
    if (this.highSeq !== this.lowSeq) prints.push([this.highSeq, this.highMs, this.highTicks]);
    if (this.lastSeq !== this.lowSeq && this.lastSeq !== this.highSeq)
      prints.push([this.lastSeq, this.lastMs, this.lastTicks]);
    prints.sort((x, y) => x[0] - y[0]);
    for (const [seq, timeMs, priceTicks] of prints) {
      kept.seqs.push(seq);
      kept.times.push(timeMs);
      kept.ticks.push(priceTicks);
    }
    this.index = Number.NaN;
  }
}

class PricePath implements KeptArrays {
  seqs: number[] = [];
  times: number[] = [];
  ticks: number[] = [];
  private stretchMs = FIRST_STRETCH_MS;
  /** The stretch in progress: its last print is the instrument's latest during the run. */
  private readonly open = new Stretch();
  /** The last print as of each pin that found a newer one: the pin's count of prints, and that print. */
  private readonly pinCounts: number[] = [];
  private readonly pinned: KeptPrint[] = [];

  constructor(private readonly originMs: number) {}

  /** Remembers the price as of `count` prints, exactly, whatever the stretches keep. */
  pin(count: number): void {
    const { open } = this;
    if (Number.isNaN(open.index)) return;
    if (this.pinCounts.length > 0 && open.lastSeq <= this.pinCounts[this.pinCounts.length - 1]!) return;
    this.pinCounts.push(count);
    this.pinned.push({ seq: open.lastSeq, timeMs: open.lastMs, ticks: open.lastTicks });
  }

  /** The last print as of the pin at `count` prints, or undefined before the first print. */
  printAsOf(count: number): KeptPrint | undefined {
    return this.pinned[lastAtOrBefore(this.pinCounts, count)];
  }

  add(seq: number, timeMs: number, priceTicks: number): void {
    if (this.feed(this.open, seq, timeMs, priceTicks)) this.keepWithinBudget();
  }

  /** The prints kept, the stretch in progress included: read after the run (it ends the stretch in progress). */
  kept(): KeptPrints {
    if (!Number.isNaN(this.open.index)) this.open.keepInto(this);
    this.keepWithinBudget();
    return this;
  }

  /** Puts a print in `stretch`, first keeping the stretch it ends; true when one was kept. */
  private feed(stretch: Stretch, seq: number, timeMs: number, priceTicks: number): boolean {
    const index = Math.floor((timeMs - this.originMs) / this.stretchMs);
    if (index === stretch.index) {
      stretch.add(seq, timeMs, priceTicks);
      return false;
    }
    const ended = !Number.isNaN(stretch.index);
    if (ended) stretch.keepInto(this);
    stretch.start(index, seq, timeMs, priceTicks);
    return ended;
  }

  private keepWithinBudget(): void {
    while (this.seqs.length > MAX_KEPT) this.lengthenStretches();
  }

  /** Doubles the stretches and keeps each one's lowest, highest and last print again. */
  private lengthenStretches(): void {
    this.stretchMs *= 2;
    const { seqs, times, ticks } = this;
    this.seqs = [];
    this.times = [];
    this.ticks = [];
    const stretch = new Stretch();
    for (let i = 0; i < seqs.length; i++) this.feed(stretch, seqs[i]!, times[i]!, ticks[i]!);
    if (!Number.isNaN(stretch.index)) stretch.keepInto(this);
  }
}

export class PricePaths {
  /** Prints applied so far, of every instrument. */
  count = 0;
  private pinnedAt = -1;
  private readonly paths = new Map<string, PricePath>();
  /** The paths by a market source's symbol index: found without hashing the symbol at every print. */
  private readonly byIndex: PricePath[] = [];

  /** A print the kernel applied (canonical symbol). */
  add(symbol: string, priceTicks: number, timeMs: number): void {
    this.pathOf(symbol, timeMs).add(++this.count, timeMs, priceTicks);
  }

  /** As add, for a print of a market source, whose symbol table index stands for `symbol`. */
  addIndexed(index: number, symbol: string, priceTicks: number, timeMs: number): void {
    const path = (this.byIndex[index] ??= this.pathOf(symbol, timeMs));
    path.add(++this.count, timeMs, priceTicks);
  }

  private pathOf(symbol: string, firstMs: number): PricePath {
    let path = this.paths.get(symbol);
    if (!path) this.paths.set(symbol, (path = new PricePath(firstMs)));
    return path;
  }

  /** The kept prints of an instrument, or none. */
  of(symbol: string): KeptPrints | undefined {
    return this.paths.get(symbol)?.kept();
  }

  /**
   * The count of prints so far, each instrument's last print as of it remembered exactly (printAsOf), whatever the
   * stretches keep: a sample of an account's equity takes it, and a report draws the equity between two samples
   * from the prices the first was marked at up to the last print the second saw (a breach's print among them).
   */
  pin(): number {
    if (this.count !== this.pinnedAt) {
      for (const path of this.paths.values()) path.pin(this.count);
      this.pinnedAt = this.count;
    }
    return this.count;
  }

  /** An instrument's last print as of `count` prints, for a count a pin returned; undefined before its first. */
  printAsOf(symbol: string, count: number): KeptPrint | undefined {
    return this.paths.get(symbol)?.printAsOf(count);
  }
}

/** The index of the last number ≤ `value` in increasing `values`, or -1. */
export function lastAtOrBefore(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}
