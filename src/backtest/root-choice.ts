// Which contract a synthetic trader of several roots enters next (docs/backtesting.md#several-instruments-and-contract-rolls):
// at a check where it would ask for a signal, one root drawn by weight among those whose session contract has printed
// in the session so far. It runs at most checks, a million times a cell, so it is one object per trader whose method
// indexes arrays resolved once per cell, allocates nothing, and draws only when there are two roots to draw between.
import type { TradedMarket, TradedMarkets, ResolvedRoot } from './traded-markets.js';
import type { MarketChoice, TraderRandom } from './traders/strategy.js';

export class RootChoice implements MarketChoice {
  /** The market of its last choice, which it trades until it is flat and chooses again. */
  private chosen: TradedMarket | undefined;

  constructor(
    private readonly markets: TradedMarkets,
    private readonly roots: readonly ResolvedRoot[],
    private readonly random: TraderRandom,
  ) {}

  /** The market it trades now; before its first choice, its first root's contract with no bars (no entry). */
  get market(): TradedMarket {
    return (this.chosen ??= this.markets.placeholder(
      this.roots[0]!.bySession[Math.max(0, this.markets.sessionIndex)]!,
    ));
  }

  /** Draws the market of its next entry; when none of its roots has printed in the session, one with no bars. */
  choose(): TradedMarket {
    const session = this.markets.sessionIndex;
    const roots = this.roots;
    if (roots.length === 1) {
      const market = roots[0]!.bySession[session]!;
      return (this.chosen = market.lastPrintSession === session ? market : this.markets.placeholder(market));
    }
    // Two passes and no arrays: the weight of the roots that have printed, then the draw among them.
    let total = 0;
    for (const r of roots) if (r.bySession[session]!.lastPrintSession === session) total += r.weight;
    if (total === 0) return (this.chosen = this.markets.placeholder(roots[0]!.bySession[session]!));
    let draw = this.random.int(0, total - 1);
    for (const r of roots) {
      const market = r.bySession[session]!;
      if (market.lastPrintSession === session && (draw -= r.weight) < 0) return (this.chosen = market);
    }
    throw new Error('unreachable: the draw is below the total weight');
  }
}
