// One field of a broker's fill row, read into propsim's fills CSV terms: the side, a whole quantity, a price on the
// contract's tick grid, a commission, a contract symbol. Display habits are undone first: padding spaces
// (Tradovate's " Buy"), thousands separators ("4,770.25"), a dollar sign ("$2.04"). Prices stay decimal strings.
import { canonicalSymbol, parseSymbol, type ParsedSymbol, UnknownInstrumentError } from '../core/instruments.js';
import { Dec } from '../core/money.js';

/** Thrown by a reader below with what the field should have been; the caller adds file, line and column. */
export class FieldValueError extends Error {
  constructor(readonly expected: string) {
    super(expected);
    this.name = 'FieldValueError';
  }
}

const BUY_WORDS = new Set(['buy', 'b', 'bot', 'bought', 'buytocover', 'buy to cover', 'long']);
const SELL_WORDS = new Set(['sell', 's', 'sld', 'sold', 'sellshort', 'sell short', 'short']);

export function readSide(text: string): 'buy' | 'sell' {
  const word = text.trim().toLowerCase();
  if (BUY_WORDS.has(word)) return 'buy';
  if (SELL_WORDS.has(word)) return 'sell';
  throw new FieldValueError('Buy or Sell (also B/S, BOT/SLD, BuyToCover, SellShort)');
}

/** A plain decimal once spaces, a dollar sign and thousands separators are gone ("$1,234.50" → "1234.50"). */
export function plainDecimal(text: string): string | undefined {
  const bare = text.trim().replace(/^(-?)\$/, '$1');
  const grouped = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(bare);
  const plain = grouped ? bare.replace(/,/g, '') : bare;
  return /^-?\d+(\.\d+)?$/.test(plain) ? plain : undefined;
}

/** A whole number of contracts; 0 is returned (the caller skips such rows). */
export function readQuantity(text: string): number {
  const plain = plainDecimal(text);
  const value = plain === undefined ? NaN : Number(plain);
  if (!Number.isSafeInteger(value) || value < 0 || plain!.startsWith('-'))
    throw new FieldValueError('a whole number of contracts');
  return value;
}

/** The price written with the contract's decimals ("4770.5" → "4770.50" for ES), refused off its tick grid. */
export function readPrice(text: string, contract: ParsedSymbol): string {
  const plain = plainDecimal(text);
  const { tickSize, priceDecimals } = contract.spec;
  const expected = `a price on the ${tickSize} tick grid of ${contract.root}`;
  if (plain === undefined) throw new FieldValueError(expected);
  const price = new Dec(plain);
  if (!price.dividedBy(tickSize).isInteger()) throw new FieldValueError(expected);
  return price.toFixed(Math.max(priceDecimals, price.decimalPlaces()));
}

/** A commission in dollars ("$2.04", "2.04"), written with at least two places; empty stays empty. */
export function readCommission(text: string): string {
  if (text.trim() === '') return '';
  const plain = plainDecimal(text);
  if (plain === undefined) throw new FieldValueError('an amount in dollars such as 2.04 or $2.04');
  const amount = new Dec(plain);
  return amount.toFixed(Math.max(2, amount.decimalPlaces()));
}

/** A GLOBEX contract symbol (`ESH4`, `ESH24`) in propsim's spelling; a bare root is not a contract. */
export function readContract(text: string): ParsedSymbol {
  const expected = 'a contract symbol such as ESH4 (a root, month code and year)';
  let parsed: ParsedSymbol;
  try {
    parsed = parseSymbol(text.trim());
  } catch (error) {
    if (error instanceof UnknownInstrumentError) throw new FieldValueError(`${expected}: ${error.message}`);
    throw error;
  }
  if (!parsed.contract) throw new FieldValueError(expected);
  return parseSymbol(canonicalSymbol(parsed));
}

/** A calendar spread (`ESH4-ESM4`): its legs are in the export as fills of their own. */
export function isSpread(text: string): boolean {
  return /^[A-Z0-9]+-[A-Z0-9]+$/.test(text.trim());
}
