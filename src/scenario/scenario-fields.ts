// Readers for the value types of scenario files beyond those of plans: times, durations, GLOBEX symbols,
// prices, HTTP statuses. Each throws a FieldError naming the field.
import { Dec } from '../core/money.js';
import { FieldError, describeValue, fail } from '../core/validation/input-fields.js';
import { UnknownInstrumentError, parseSymbol } from '../core/instruments.js';
import { TimeInputError, parseDurationMs, parseTimeMs } from '../core/time.js';
import { HTTP_STATUSES, type HttpStatus } from './scenario-types.js';

/** Prices are decimal strings with at most this many places (the finest tick in the catalog has 6). */
export const PRICE_MAX_PLACES = 9;

export function readTimeMs(value: unknown, path: string): number {
  try {
    return parseTimeMs(value, path);
  } catch (error) {
    if (error instanceof TimeInputError) fail(path, error.expected, value);
    throw error;
  }
}

export function readDurationMs(value: unknown, path: string): number {
  try {
    return parseDurationMs(value, path);
  } catch (error) {
    if (error instanceof TimeInputError) fail(path, error.expected, value);
    throw error;
  }
}

/** A symbol the catalog knows: `ESM6`, `6EH4`, or a bare root `ES`. Returned as written. */
export function readSymbol(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') fail(path, 'a GLOBEX symbol like ESM6 or a bare root like ES', value);
  try {
    parseSymbol(value);
  } catch (error) {
    if (error instanceof UnknownInstrumentError)
      throw new FieldError(path, `expected a GLOBEX symbol like ESM6 or a bare root like ES: ${error.message}`);
    throw error;
  }
  return value;
}

/** A price its schema checked, on the instrument's tick grid (tick and fill steps: their prints and executions are
 * exact). */
export function onTickGrid(price: string, path: string, symbol: string): string {
  const { tickSize } = parseSymbol(symbol).spec;
  const ticks = new Dec(price).dividedBy(tickSize);
  if (!ticks.isInteger()) fail(path, `a price on the ${tickSize} tick grid of ${symbol}`, price);
  // Prices are integer ticks inside (docs/money-and-instruments.md): a larger count would not be exact.
  if (!Number.isSafeInteger(ticks.toNumber())) fail(path, `a price below 2^53 ticks of ${tickSize}`, price);
  return price;
}

export function readHttpStatus(value: unknown, path: string): HttpStatus {
  if (typeof value !== 'number' || !(HTTP_STATUSES as readonly number[]).includes(value)) {
    fail(path, `an HTTP status, one of ${HTTP_STATUSES.join(', ')}`, value);
  }
  return value as HttpStatus;
}

/** A name: a non-empty string without surrounding spaces (aliases, refs, OCO groups). */
export function readName(value: unknown, path: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.trim() !== value) {
    fail(path, `${what}: a non-empty string without surrounding spaces`, value);
  }
  return value;
}

/** Lists names for a message, quoted, or says there are none. */
export function listNames(names: Iterable<string>): string {
  const all = [...names];
  return all.length === 0 ? 'none' : listFew(all.map((n) => describeValue(n)));
}

/** Names a message lists before it says how many there are in all. */
const LISTED_NAMES = 10;

/**
 * Items for a message: all of a few, or the first ones and how many in all (a scenario of 10,000 accounts must not
 * list every alias to say that one is unknown).
 */
export function listFew(items: readonly string[], shown = LISTED_NAMES): string {
  if (items.length <= shown) return items.join(', ');
  return `${items.slice(0, shown).join(', ')}, … (${items.length.toLocaleString('en-US')} in all)`;
}
