// "A floor is a stop" (docs/architecture.md#a-floor-is-a-stop). For an account holding one instrument, its equity is a
// monotone function of that instrument's price, so "equity ≤ floor" is a price threshold, and so is "equity
// above the trailing peak" (realtime_equity). Those thresholds sit in price ladders per instrument, like
// resting stops: a print visits only the accounts whose thresholds it crosses. Accounts holding several
// instruments are marked directly on every print of any of them.
import { PriceLadder } from '../../orders/price-ladder.js';
import type { RiskAccount } from '../accounts.js';
import { declareSnapshot } from '../../snapshot/snapshot-fields.js';

/** Where an account sits in the index, so it can be taken out again. */
export type FloorEntry =
  | { kind: 'threshold'; symbol: string; long: boolean; breachTicks: number; upTicks: number | undefined }
  | { kind: 'direct'; symbols: readonly string[] };

export class SymbolFloors {
  /** Long accounts breach at prints at or below their level; short ones at or above. */
  readonly longBreach = new PriceLadder<RiskAccount>();
  readonly shortBreach = new PriceLadder<RiskAccount>();
  /** realtime_equity accounts reach a new equity peak at prints at or above (long) / at or below (short). */
  readonly longUp = new PriceLadder<RiskAccount>();
  readonly shortUp = new PriceLadder<RiskAccount>();
  readonly direct = new Set<RiskAccount>();
}

export class FloorIndex {
  private readonly bySymbol = new Map<string, SymbolFloors>();
  private readonly entries = new Map<RiskAccount, FloorEntry>();

  /** Replaces the account's entry (undefined: nothing to watch, e.g. flat or not active). */
  set(account: RiskAccount, entry: FloorEntry | undefined): void {
    if (sameEntry(this.entries.get(account), entry)) return;
    this.remove(account);
    if (!entry) return;
    this.entries.set(account, entry);
    if (entry.kind === 'direct') {
      for (const symbol of entry.symbols) this.floors(symbol).direct.add(account);
      return;
    }
    const floors = this.floors(entry.symbol);
    (entry.long ? floors.longBreach : floors.shortBreach).add(entry.breachTicks, account);
    if (entry.upTicks !== undefined) (entry.long ? floors.longUp : floors.shortUp).add(entry.upTicks, account);
  }

  /** The accounts a print of `symbol` at `priceTicks` has to mark; `out` may hold an account twice. */
  crossings(symbol: string, priceTicks: number, out: RiskAccount[]): void {
    const floors = this.bySymbol.get(symbol);
    if (!floors) return;
    floors.longBreach.collectFromTop(priceTicks, false, out);
    floors.shortBreach.collectFromBottom(priceTicks, false, out);
    floors.longUp.collectFromBottom(priceTicks, false, out);
    floors.shortUp.collectFromTop(priceTicks, false, out);
    for (const account of floors.direct) out.push(account);
  }

  private remove(account: RiskAccount): void {
    const entry = this.entries.get(account);
    if (!entry) return;
    this.entries.delete(account);
    if (entry.kind === 'direct') {
      for (const symbol of entry.symbols) this.floors(symbol).direct.delete(account);
      return;
    }
    const floors = this.floors(entry.symbol);
    (entry.long ? floors.longBreach : floors.shortBreach).remove(entry.breachTicks, account);
    if (entry.upTicks !== undefined) (entry.long ? floors.longUp : floors.shortUp).remove(entry.upTicks, account);
  }

  private floors(symbol: string): SymbolFloors {
    let floors = this.bySymbol.get(symbol);
    if (!floors) {
      floors = new SymbolFloors();
      this.bySymbol.set(symbol, floors);
    }
    return floors;
  }
}

declareSnapshot(FloorIndex, {
  kept: ['bySymbol', 'entries'],
  skipped: [],
});

function sameEntry(a: FloorEntry | undefined, b: FloorEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind === 'direct' || b.kind === 'direct') {
    return (
      a.kind === 'direct' &&
      b.kind === 'direct' &&
      a.symbols.length === b.symbols.length &&
      a.symbols.every((s, i) => s === b.symbols[i])
    );
  }
  return a.symbol === b.symbol && a.long === b.long && a.breachTicks === b.breachTicks && a.upTicks === b.upTicks;
}
