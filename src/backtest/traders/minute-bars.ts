// One-minute highs, lows and closes of an instrument's prints, kept as the market replays, for strategies that
// look back (breakouts, moving averages). O(1) per print.
export class MinuteBars {
  private readonly highs: number[] = [];
  private readonly lows: number[] = [];
  private readonly closes: number[] = [];
  private minute = -1;
  lastTicks: number | undefined;

  onPrint(timeMs: number, priceTicks: number): void {
    const minute = Math.floor(timeMs / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.highs.push(priceTicks);
      this.lows.push(priceTicks);
      this.closes.push(priceTicks);
    } else {
      const i = this.closes.length - 1;
      if (priceTicks > this.highs[i]!) this.highs[i] = priceTicks;
      if (priceTicks < this.lows[i]!) this.lows[i] = priceTicks;
      this.closes[i] = priceTicks;
    }
    this.lastTicks = priceTicks;
  }

  /** Highest high and lowest low of the `minutes` bars before the current one; undefined until there are enough. */
  range(minutes: number): { high: number; low: number } | undefined {
    const end = this.closes.length - 1;
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
    const end = this.closes.length;
    if (end < minutes) return undefined;
    let sum = 0;
    for (let i = end - minutes; i < end; i++) sum += this.closes[i]!;
    return sum / minutes;
  }
}
