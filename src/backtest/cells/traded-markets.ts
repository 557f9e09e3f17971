// The contracts synthetic traders trade in a cell, each with its own one-minute bars and its traders waiting for
// its next print, found from a print's instrument index in O(1) so a print costs the same however many contracts
// are traded. For blocks that name `instruments`, which contract each root trades in each session (the roll,
// docs/market-data.md#contract-rolls), and the sessions in which that contract printed nothing.
import type { Session } from '../../core/calendar/index.js';
import { contractOn } from '../../core/contract-rolls.js';
import { canonicalSymbol, parseSymbol } from '../../core/instruments.js';
import type { TickBatch } from '../../market/tick-batch.js';
import { MinuteBars } from '../traders/minute-bars.js';
import type { InstrumentWeight } from '../traders/strategy.js';

export interface TradedMarket {
  symbol: string;
  tickSize: number;
  priceDecimals: number;
  bars: MinuteBars;
  /** Traders waiting for its next print (an entry waiting for its fill), in the order they asked. */
  waiting: number[];
  /** The index of the last session in which it printed; -1 before its first print. */
  lastPrintSession: number;
}

/** A root a trader trades, with its weight and its contract's market in each session of the period. */
export interface ResolvedRoot {
  root: string;
  weight: number;
  bySession: readonly TradedMarket[];
}

/** A session whose contract (of a root a block trades) had no print. */
export interface MissingPrints {
  trade_date: string;
  contract: string;
}

/** The bars a trader sees when none of its roots has printed in the session yet: no entry is made on them. */
const NO_PRINTS_YET = new MinuteBars();

export class TradedMarkets {
  private readonly bySymbol = new Map<string, TradedMarket>();
  /** By a batch's instrument index: the printed symbol, and its market when a trader may trade it. */
  private readonly byIndex: Array<{ symbol: string; market: TradedMarket | undefined }> = [];
  /** Per root a block names: its contract's market in each session of the period, by session index. */
  private readonly contracts = new Map<string, TradedMarket[]>();
  /** The index of the session the replay is in (the runner moves it at each open); -1 before the first. */
  sessionIndex = -1;

  constructor(
    fixedSymbol: string | undefined,
    roots: readonly string[],
    private readonly sessions: readonly Session[],
  ) {
    if (fixedSymbol !== undefined) this.add(fixedSymbol);
    for (const root of roots) {
      // Markets resolved once, so a trader's choice at a check costs an array index, not a symbol lookup.
      this.contracts.set(
        root,
        sessions.map((s) => this.add(contractOn(root, s.tradeDate))),
      );
    }
  }

  market(symbol: string): TradedMarket {
    return this.bySymbol.get(symbol)!;
  }

  /** Every traded market, in the order first named. */
  all(): IterableIterator<TradedMarket> {
    return this.bySymbol.values();
  }

  /** The canonical symbol of a print and the market it feeds (undefined for a contract no trader trades). */
  ofPrint(batch: TickBatch, i: number): { symbol: string; market: TradedMarket | undefined } {
    const index = batch.instrumentIndex[i]!;
    let known = this.byIndex[index];
    if (!known) {
      const symbol = canonicalSymbol(parseSymbol(batch.symbols.symbol(index)));
      known = this.byIndex[index] = { symbol, market: this.bySymbol.get(symbol) };
    }
    return known;
  }

  /** A trader's roots with their markets by session, resolved once so that its choices index arrays only. */
  resolve(roots: readonly InstrumentWeight[]): ResolvedRoot[] {
    return roots.map(({ root, weight }) => ({ root, weight, bySession: this.contracts.get(root)! }));
  }

  /** A market with no bars: a trader looking at it makes no entry. */
  placeholder(market: TradedMarket): TradedMarket {
    return tradedMarket(market.symbol, market.tickSize, market.priceDecimals, NO_PRINTS_YET, market.lastPrintSession);
  }

  /** The root contracts that printed nothing in the session (checked once the session is over). */
  missingIn(sessionIndex: number): MissingPrints[] {
    const missing: MissingPrints[] = [];
    for (const bySession of this.contracts.values()) {
      const market = bySession[sessionIndex]!;
      if (market.lastPrintSession !== sessionIndex)
        missing.push({ trade_date: this.sessions[sessionIndex]!.tradeDate, contract: market.symbol });
    }
    return missing;
  }

  /** The symbol's market, made on first use. */
  private add(symbol: string): TradedMarket {
    const known = this.bySymbol.get(symbol);
    if (known) return known;
    const { spec } = parseSymbol(symbol);
    const market = tradedMarket(symbol, Number(spec.tickSize), spec.priceDecimals, new MinuteBars(), -1);
    this.bySymbol.set(symbol, market);
    return market;
  }
}

/**
 * Every market, placeholders too, made here with its fields in one order: V8 then gives them one hidden class, and the
 * reads at each check stay monomorphic (never make one by a spread copy, which gets a class of its own).
 */
function tradedMarket(
  symbol: string,
  tickSize: number,
  priceDecimals: number,
  bars: MinuteBars,
  lastPrintSession: number,
): TradedMarket {
  return { symbol, tickSize, priceDecimals, bars, waiting: [], lastPrintSession };
}
