// Instrument symbols of a merged market source, numbered in the order they are first seen, so a print can
// carry a small integer (TickBatch.instrumentIndex) and every batch of every file agrees on the numbers.
import { parseSymbol, type ParsedSymbol } from '../core/instruments.js';
import { PriceGrid } from './price-grid.js';

export interface SymbolEntry {
  readonly index: number;
  readonly symbol: string;
  readonly parsed: ParsedSymbol;
  readonly grid: PriceGrid;
}

/** Uint16Array indexes: at most 65536 symbols. */
const MAX_SYMBOLS = 0x10000;

export class SymbolTable {
  private readonly entries: SymbolEntry[] = [];
  private readonly bySymbol = new Map<string, SymbolEntry>();

  /** The entry of a symbol as written, registering it on first sight; throws parseSymbol's error when unknown. */
  register(symbol: string): SymbolEntry {
    const known = this.bySymbol.get(symbol);
    if (known) return known;
    const parsed = parseSymbol(symbol);
    if (this.entries.length >= MAX_SYMBOLS) throw new RangeError(`more than ${MAX_SYMBOLS} instrument symbols`);
    const entry: SymbolEntry = { index: this.entries.length, symbol, parsed, grid: new PriceGrid(parsed.spec) };
    this.entries.push(entry);
    this.bySymbol.set(symbol, entry);
    return entry;
  }

  /** The entry behind a TickBatch.instrumentIndex. */
  entry(index: number): SymbolEntry {
    const entry = this.entries[index];
    if (!entry) throw new RangeError(`no instrument symbol has index ${index}`);
    return entry;
  }

  symbol(index: number): string {
    return this.entry(index).symbol;
  }

  get size(): number {
    return this.entries.length;
  }
}
