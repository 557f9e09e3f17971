// Where a row's instrument comes from: its `instrument` column, the file spec's `instrument` key, or both
// (then they must agree). Symbols are matched on their bytes against the few a file uses, so the common
// row makes no string.
import { UnknownInstrumentError } from '../core/instruments.js';
import type { CsvHeader } from './csv-header.js';
import type { CsvRow } from './csv-row.js';
import { MarketDataError, quoteText } from './market-data-error.js';
import type { MarketFileSpec } from './market-file-spec.js';
import type { SymbolEntry, SymbolTable } from './symbol-table.js';

interface CachedSymbol {
  readonly bytes: Buffer;
  readonly entry: SymbolEntry;
}

/** Symbols compared byte-wise before falling back to a string and a map lookup. */
const MAX_CACHED_SYMBOLS = 16;

export class InstrumentColumn {
  private readonly cache: CachedSymbol[] = [];
  private last: CachedSymbol | undefined;

  private constructor(
    private readonly symbols: SymbolTable,
    private readonly column: number,
    private readonly fixed: SymbolEntry | undefined,
  ) {}

  /** Fails when the file has neither an instrument column nor key, or the key is not a known symbol. */
  static open(spec: MarketFileSpec, header: CsvHeader, symbols: SymbolTable): InstrumentColumn {
    const column = header.indexOf('instrument');
    if (spec.instrument === undefined) {
      if (column < 0) header.fail('instrument', 'an instrument column, or an instrument key in the file spec');
      return new InstrumentColumn(symbols, column, undefined);
    }
    try {
      return new InstrumentColumn(symbols, column, symbols.register(spec.instrument));
    } catch (error) {
      if (!(error instanceof UnknownInstrumentError)) throw error;
      throw new MarketDataError(
        spec.path,
        0,
        undefined,
        `a known symbol in the instrument key (${error.message})`,
        quoteText(spec.instrument),
      );
    }
  }

  resolve(row: CsvRow): SymbolEntry {
    if (this.column < 0) return this.fixed!;
    const start = row.fieldStart(this.column);
    const end = row.fieldEnd(this.column);
    const last = this.last;
    if (last !== undefined && sameBytes(last.bytes, row.bytes, start, end)) return last.entry;
    for (const cached of this.cache) {
      if (sameBytes(cached.bytes, row.bytes, start, end)) {
        this.last = cached;
        return cached.entry;
      }
    }
    const entry = this.register(row);
    if (this.cache.length < MAX_CACHED_SYMBOLS) {
      this.last = { bytes: Buffer.from(row.bytes.subarray(start, end)), entry };
      this.cache.push(this.last);
    }
    return entry;
  }

  private register(row: CsvRow): SymbolEntry {
    const text = row.text(this.column);
    let entry: SymbolEntry;
    try {
      entry = this.symbols.register(text);
    } catch (error) {
      if (!(error instanceof UnknownInstrumentError)) throw error;
      return row.fail(this.column, 'a known GLOBEX symbol like ESM6', `${quoteText(text)} (${error.message})`);
    }
    if (this.fixed !== undefined && entry !== this.fixed) {
      row.fail(this.column, `${this.fixed.symbol}, the file spec's instrument key`);
    }
    return entry;
  }
}

function sameBytes(expected: Buffer, bytes: Buffer, start: number, end: number): boolean {
  if (end - start !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) {
    if (bytes[start + i] !== expected[i]) return false;
  }
  return true;
}
