// An instrument's tick grid in integers: a price written with up to `decimals` places is read as an integer
// count of 10^-decimals units, and a tick is `tickUnits` of those units (ES: 0.25 = 25 hundredths).
// Everything stays an exact integer below 2^53, so no binary fraction ever touches a price.
import { Dec } from '../core/money.js';
import type { InstrumentSpec } from '../core/instruments.js';

export class PriceGrid {
  /** Places a price is scaled by before it is divided into ticks. */
  readonly decimals: number;
  /** One tick in 10^-decimals units. */
  readonly tickUnits: number;
  /** The tick size as the catalog writes it, for messages. */
  readonly tickSize: string;

  constructor(spec: InstrumentSpec) {
    this.decimals = spec.priceDecimals;
    this.tickSize = spec.tickSize;
    this.tickUnits = new Dec(spec.tickSize).times(new Dec(10).pow(this.decimals)).toNumber();
  }

  /** Integer ticks of a price scaled by 10^decimals, or NaN when it is not on the grid. */
  ticksFromScaled(scaled: number): number {
    // Integer remainder and quotient of two safe integers are exact when the remainder is zero.
    if (scaled % this.tickUnits !== 0) return NaN;
    return scaled / this.tickUnits;
  }

  /** What a price field must look like, for error messages. */
  get expected(): string {
    return `a decimal on the ${this.tickSize} tick grid`;
  }
}
