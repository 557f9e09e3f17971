// The mark of one instrument (docs/risk-rules.md#balance-and-equity): its last trade print; while it has not printed,
// its last fill price. One small mutable record per symbol, created once, so that taking a print is two field writes.
import { pricingOf, type InstrumentPricing } from './instrument-pricing.js';

export class InstrumentMark {
  readonly pricing: InstrumentPricing;
  /** Last print in ticks; meaningful only when `hasPrint`. */
  lastPrintTicks = 0;
  hasPrint = false;
  /** Last fill price in ticks (any account); meaningful only when `hasFill`. */
  lastFillTicks = 0;
  hasFill = false;

  constructor(readonly symbol: string) {
    this.pricing = pricingOf(symbol);
  }

  /** The price positions are marked at, in ticks; null when the instrument has neither printed nor filled. */
  get markTicks(): number | null {
    if (this.hasPrint) return this.lastPrintTicks;
    return this.hasFill ? this.lastFillTicks : null;
  }
}

/** The mark of `symbol` in `marks`, made on first use. */
export function markIn(marks: Map<string, InstrumentMark>, symbol: string): InstrumentMark {
  let mark = marks.get(symbol);
  if (mark === undefined) {
    mark = new InstrumentMark(symbol);
    marks.set(symbol, mark);
  }
  return mark;
}
