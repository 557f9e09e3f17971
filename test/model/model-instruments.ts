// The instruments the model tests trade: two equity-index roots of different tick values and one FX contract
// (another product family, five-decimal prices). Tick values are written here by hand, in cents (the models'
// own P&L); tick sizes and decimals come from the catalog, so prices are written as the kernel writes them.
import { parseSymbol, type ProductFamily } from '../../src/core/instruments.js';
import { Dec, priceToTicks, ticksToPrice } from '../../src/core/money.js';

export interface ModelInstrument {
  symbol: string;
  family: ProductFamily;
  /** Dollars per tick per contract, in cents: ES $12.50, NQ $5.00, 6E $6.25. */
  tickValueCents: number;
  /** The price the runs trade around, in ticks. */
  baseTicks: number;
  tickSize: InstanceType<typeof Dec>;
  decimals: number;
}

function instrument(symbol: string, tickValueCents: number, basePrice: string): ModelInstrument {
  const { spec } = parseSymbol(symbol);
  const tickSize = new Dec(spec.tickSize);
  return {
    symbol,
    family: spec.family,
    tickValueCents,
    baseTicks: priceToTicks(new Dec(basePrice), tickSize),
    tickSize,
    decimals: spec.priceDecimals,
  };
}

export const ES = instrument('ESM6', 1250, '5000.00');
export const NQ = instrument('NQM6', 500, '18000.00');
export const EURO_FX = instrument('6EM6', 625, '1.08500');
export const INSTRUMENTS: readonly ModelInstrument[] = [ES, NQ, EURO_FX];

export function instrumentOf(symbol: string): ModelInstrument {
  const found = INSTRUMENTS.find((i) => i.symbol === symbol);
  if (!found) throw new Error(`${symbol} is not one of the model's instruments`);
  return found;
}

/** A price in ticks as the kernel writes it: ES 20001 → "5000.25", 6E 21701 → "1.08505". */
export function priceOf(instrument: ModelInstrument, ticks: number): string {
  return ticksToPrice(ticks, instrument.tickSize, instrument.decimals);
}

/** Ticks of a price on the instrument's grid; throws for a price off it. */
export function ticksOf(instrument: ModelInstrument, price: string): number {
  return priceToTicks(new Dec(price), instrument.tickSize);
}

/** A price between two ticks (a fifth of a tick above `ticks`): refused as off the grid. */
export function offGridPriceOf(instrument: ModelInstrument, ticks: number): string {
  return instrument.tickSize.times(ticks + 0.2).toFixed(instrument.decimals + 1);
}
