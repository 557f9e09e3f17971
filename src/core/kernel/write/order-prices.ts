// An order's prices as the venue reads them: a decimal string on the instrument's tick grid, as whole ticks.
import { Dec, priceToTicks } from '../../money.js';
import type { InstrumentSpec } from '../../instruments.js';

/** `price` in ticks of `spec` (OffTickGridError naming `field` when off the grid); tick sizes cached by root. */
export function ticksOf(
  tickSizes: Map<string, InstanceType<typeof Dec>>,
  spec: InstrumentSpec,
  price: string,
  field: string,
): number {
  let tickSize = tickSizes.get(spec.root);
  if (!tickSize) {
    tickSize = new Dec(spec.tickSize);
    tickSizes.set(spec.root, tickSize);
  }
  return priceToTicks(new Dec(price), tickSize, field);
}

/** `ticks` of `spec` as a price string with the instrument's decimals. */
export function priceOf(spec: InstrumentSpec, ticks: number): string {
  return new Dec(spec.tickSize).times(ticks).toFixed(spec.priceDecimals);
}
