// A trade print or a historical fill as a user writes it (scenario `tick` and `fill`, sandbox market prints):
// an instrument of the catalog and a decimal price on its tick grid, read into the canonical symbol and ticks
// (docs/market-data.md). Malformed input is a 400 naming the field.
import { canonicalSymbol, parseSymbol, UnknownInstrumentError } from '../../instruments.js';
import { Dec, DecimalInputError, OffTickGridError, parseDecimal, priceToTicks } from '../../money.js';
import { refuseField } from '../../outcome.js';

export interface PrintInput {
  /** Canonical GLOBEX symbol (ESM26 → ESM6). */
  symbol: string;
  priceTicks: number;
  /** Contracts the print can fill; Infinity when unlimited. */
  size: number;
}

/** Reads an instrument and a price; `size` when given must be an integer ≥ 1. */
export function parsePrint(instrumentId: unknown, price: unknown, size?: unknown): PrintInput {
  if (typeof instrumentId !== 'string') refuseField('instrument_id', 'a GLOBEX symbol such as "ESM6"', instrumentId);
  let parsed;
  try {
    parsed = parseSymbol(instrumentId);
  } catch (error) {
    if (error instanceof UnknownInstrumentError)
      refuseField('instrument_id', 'a GLOBEX symbol of a listed instrument, such as "ESM6"', instrumentId);
    throw error;
  }
  let decimal: Dec;
  try {
    decimal = parseDecimal(price, 'price', { maxPlaces: 9 });
  } catch (error) {
    if (error instanceof DecimalInputError) refuseField('price', 'a decimal string such as "5000.25"', price);
    throw error;
  }
  let priceTicks: number;
  try {
    priceTicks = priceToTicks(decimal, new Dec(parsed.spec.tickSize));
  } catch (error) {
    if (error instanceof DecimalInputError) refuseField('price', error.expected, price); // too many ticks to be exact
    if (error instanceof OffTickGridError)
      refuseField('price', `a price on the ${parsed.spec.root} tick grid (tick ${parsed.spec.tickSize})`, price);
    throw error;
  }
  if (size !== undefined && !isPrintSize(size)) refuseField('size', 'an integer of at least 1', size);
  return { symbol: canonicalSymbol(parsed), priceTicks, size: size === undefined ? Infinity : size };
}

/** Whether a print's size is one: a whole number of contracts, at least 1 (none given: no limit). */
export function isPrintSize(size: unknown): size is number {
  return typeof size === 'number' && Number.isSafeInteger(size) && size >= 1;
}
