// One-minute highs, lows and closes of an instrument's prints, kept as the market replays, for strategies that
// look back (breakouts, moving averages). O(1) per print. Typed arrays that double when full: every traded contract
// keeps its own bars, and plain arrays of a month of minutes were copied by each young-generation garbage collection.
export class MinuteBars {
  private highs = new Float64Array(1024);
  private lows = new Float64Array(1024);
  private closes = new Float64Array(1024);
  /** Bars so far; the current one is at count − 1. */
  private count = 0;
  private minute = -1;
  lastTicks: number | undefined;

  onPrint(timeMs: number, priceTicks: number): void {
    const minute = Math.floor(timeMs / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      if (this.count === this.closes.length) this.grow();
      const i = this.count++;
      this.highs[i] = priceTicks;
      this.lows[i] = priceTicks;
      this.closes[i] = priceTicks;
    } else {
      const i = this.count - 1;
      if (priceTicks > this.highs[i]!) this.highs[i] = priceTicks;
      if (priceTicks < this.lows[i]!) this.lows[i] = priceTicks;
      this.closes[i] = priceTicks;
    }
    this.lastTicks = priceTicks;
  }

  /** Highest high and lowest low of the `minutes` bars before the current one; undefined until there are enough. */
  range(minutes: number): { high: number; low: number } | undefined {
    const end = this.count - 1;
    if (end - minutes < 0) return undefined;
    let high = -Infinity;
    let low = Infinity;
    for (let i = end - minutes; i < end; i++) {
      high = Math.max(high, this.highs[i]!);
      low = Math.min(low, this.lows[i]!);
    }
    return { high, low };
  }

  /** Mean close of the last `minutes` bars, in ticks (a float: only compared, never booked). */
  meanClose(minutes: number): number | undefined {
    const end = this.count;
    if (end < minutes) return undefined;
    let sum = 0;
    for (let i = end - minutes; i < end; i++) sum += this.closes[i]!;
    return sum / minutes;
  }

  private grow(): void {
    const doubled = (from: Float64Array) => {
      const to = new Float64Array(from.length * 2);
      to.set(from);
      return to;
    };
    this.highs = doubled(this.highs);
    this.lows = doubled(this.lows);
    this.closes = doubled(this.closes);
  }
}
