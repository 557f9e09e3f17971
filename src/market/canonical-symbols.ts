// The canonical symbol of each print of a merged market source (ESM6 for "esm6" or "ESM2026"), parsed once per
// symbol-table index: the replay hot path asks for it at every print.
import { canonicalSymbol, parseSymbol } from '../core/instruments.js';
import type { TickBatch } from './tick-batch.js';

export class CanonicalSymbols {
  private readonly byIndex: string[] = [];

  of(batch: TickBatch, row: number): string {
    const index = batch.instrumentIndex[row]!;
    let symbol = this.byIndex[index];
    if (symbol === undefined) {
      symbol = canonicalSymbol(parseSymbol(batch.symbols.symbol(index)));
      this.byIndex[index] = symbol;
    }
    return symbol;
  }
}
