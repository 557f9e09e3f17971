// What the position book needs of a contract to value it: tick size and decimals for prices, tick value in
// mills for P&L in integers. P&L is computed in mills (exact for every contract) and brought to cents with the
// project's one rounding rule (money.ts: half to even; it only matters for ZN's $15.625 tick).
import { parseSymbol } from '../instruments.js';
import { Dec, divideHalfEven, formatFixed, ticksToPrice } from '../money.js';

export interface InstrumentPricing {
  readonly symbol: string;
  readonly tickSize: Dec;
  readonly priceDecimals: number;
  /** The tick in units of the last decimal a price is written with (ES 0.25 -> 25, ZN 0.015625 -> 15625): prices are
   * written from integers (the hot path writes one per fill), decimal.js only past 2^53. */
  readonly tickUnits: number;
  readonly tickValueMills: number;
}

/** Places beyond the contract's own an average price keeps (docs/order-lifecycle.md#positions-trades-and-lots). */
export const AVERAGE_PRICE_EXTRA_PLACES = 4;

// A memo of a pure function of the (static) catalog: same symbol, same answer, whatever the call order.
const BY_SYMBOL = new Map<string, InstrumentPricing>();

/** Pricing of a GLOBEX symbol as written; throws UnknownInstrumentError for a symbol outside the catalog. */
export function pricingOf(symbol: string): InstrumentPricing {
  let pricing = BY_SYMBOL.get(symbol);
  if (pricing === undefined) {
    const { spec } = parseSymbol(symbol);
    const tickSize = new Dec(spec.tickSize);
    pricing = {
      symbol,
      tickSize,
      priceDecimals: spec.priceDecimals,
      // A whole number: priceDecimals are the tick's own decimals.
      tickUnits: tickSize.times(10 ** spec.priceDecimals).toNumber(),
      tickValueMills: spec.tickValueMills,
    };
    BY_SYMBOL.set(symbol, pricing);
  }
  return pricing;
}

/** A price in ticks as the contract writes it: ES 20001 -> "5000.25", 6E 21887 -> "1.09435". */
export function formatTicks(pricing: InstrumentPricing, ticks: number): string {
  const units = ticks * pricing.tickUnits;
  if (Number.isSafeInteger(ticks) && Number.isSafeInteger(units)) return formatFixed(units, pricing.priceDecimals);
  return ticksToPrice(ticks, pricing.tickSize, pricing.priceDecimals);
}

/**
 * Quantity-weighted average price Σ(ticks × qty) / Σqty × tickSize, rounded half-even to priceDecimals + 4
 * places, trailing zeros trimmed but never below priceDecimals places: ES 40001 tick-lots over 2 contracts ->
 * "5000.125"; 20000 over 1 -> "5000.00".
 */
export function formatAveragePrice(pricing: InstrumentPricing, ticksTimesQuantity: number, quantity: number): string {
  if (!Number.isSafeInteger(quantity) || quantity <= 0) throw new RangeError(`average of ${quantity} contracts`);
  const places = pricing.priceDecimals + AVERAGE_PRICE_EXTRA_PLACES;
  const units = ticksTimesQuantity * pricing.tickUnits * 10 ** AVERAGE_PRICE_EXTRA_PLACES;
  if (Number.isSafeInteger(ticksTimesQuantity) && Number.isSafeInteger(units))
    return trimZeros(formatFixed(divideHalfEven(units, quantity), places, units < 0), pricing.priceDecimals);
  const text = new Dec(ticksTimesQuantity)
    .times(pricing.tickSize)
    .dividedBy(quantity)
    .toFixed(places, Dec.ROUND_HALF_EVEN);
  return trimZeros(text, pricing.priceDecimals);
}

/** Removes trailing fraction zeros down to `minPlaces` places (and the point itself when 0 places remain). */
function trimZeros(text: string, minPlaces: number): string {
  const point = text.indexOf('.');
  if (point < 0) return text;
  let end = text.length;
  while (end > point + 1 + minPlaces && text.charCodeAt(end - 1) === 48 /* '0' */) end--;
  if (end === point + 1) end = point;
  return text.slice(0, end);
}

/** P&L in mills of `quantity` contracts moving `diffTicks` ticks (signed): diffTicks × quantity × tick value. */
export function pnlMills(pricing: InstrumentPricing, diffTicks: number, quantity: number): number {
  const mills = diffTicks * quantity * pricing.tickValueMills;
  if (!Number.isSafeInteger(mills)) throw new RangeError(`P&L of ${diffTicks} ticks × ${quantity} exceeds 2^53 mills`);
  return mills + 0; // "+ 0" turns a -0 into 0
}

/** Mills to cents under the one rounding rule (half to even): 15625 -> 1562, 46875 -> 4688. */
export function millsToCents(mills: number): number {
  return divideHalfEven(mills, 10);
}
