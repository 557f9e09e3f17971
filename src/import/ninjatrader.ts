// NinjaTrader 8's Executions grid export (docs/backtesting.md#importing-broker-exports): `Instrument, Action,
// Quantity, Price, Time, ID, E/X, Position, Order ID, Name, Commission, Rate, Account, Connection`, each line ending
// in a comma. Instruments read `ES 03-24` (root, then the contract's month and year); `Time` is the PC's local time.
import { MONTH_CODES, type ParsedSymbol } from '../core/instruments.js';
import type { FillExportFormat } from './fill-export-format.js';
import { FieldValueError, readContract } from './fill-fields.js';

export const NINJATRADER: FillExportFormat = {
  name: 'ninjatrader',
  columnsOf: () => ({
    ts: ['Time'],
    trader: ['Account'],
    instrument: ['Instrument'],
    side: ['Action'],
    quantity: ['Quantity'],
    price: ['Price'],
    commission: ['Commission'],
    id: ['ID'],
  }),
  zoning: () => ({ zoning: 'export', why: "NinjaTrader writes Time in the PC's zone" }),
  contract: ninjaContract,
};

/** `ES 03-24` → ESH4 (March 2024); a GLOBEX symbol is taken as it is. */
export function ninjaContract(text: string): ParsedSymbol {
  const match = /^([A-Z0-9]+) (\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return readContract(text);
  const [, root, month, year] = match;
  const code = MONTH_CODES[Number(month) - 1];
  if (code === undefined) throw new FieldValueError('an instrument such as ES 03-24 (root, then MM-YY)');
  return readContract(`${root}${code}${year}`); // two-digit year: ESH24, spelled ESH4 by readContract
}
