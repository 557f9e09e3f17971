// Which contract a synthetic trader of several roots enters next (docs/backtesting.md#several-instruments-and-contract-rolls):
// one root drawn by weight among those whose session contract has printed in the session so far, at its first flat
// check of a session and at its first flat check after each entry; in between it keeps watching that contract. So
// the weights are shares of entries, as calibrate writes them (round trips per root), and the draw costs once per
// entry, not at each of a million checks a cell. One object per trader, indexing arrays resolved once per cell.
import type { TradedMarket, TradedMarkets, ResolvedRoot } from './traded-markets.js';
import type { MarketChoice, TraderRandom } from '../traders/strategy.js';

export class RootChoice implements MarketChoice {
  /** The market of its last choice, which it trades until it is flat and chooses again. */
  private chosen: TradedMarket | undefined;
  /** The session of its last choice of a market that had printed in it; −1: none yet. */
  private chosenInSession = -1;
  /** An entry was sent since the last choice: the next one draws again. */
  private enteredSinceChoice = false;

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

  /**
   * The market of its next entry: the last one chosen in this session, until it has entered there; else a new
   * draw. When none of its roots has printed in the session yet, one with no bars (and it draws again next time).
   */
  choose(): TradedMarket {
    const session = this.markets.sessionIndex;
    if (this.chosenInSession === session && !this.enteredSinceChoice) return this.chosen!;
    const market = this.draw(session);
    this.chosen = market;
    this.enteredSinceChoice = false;
    if (market.lastPrintSession === session) this.chosenInSession = session;
    return market;
  }

  /** It sent an entry in the chosen market: its next choice draws again. */
  entered(): void {
    this.enteredSinceChoice = true;
  }

  private draw(session: number): TradedMarket {
    const roots = this.roots;
    if (roots.length === 1) {
      const market = roots[0]!.bySession[session]!;
      return market.lastPrintSession === session ? market : this.markets.placeholder(market);
    }
    // Two passes and no arrays: the weight of the roots that have printed, then the draw among them.
    let total = 0;
    for (const r of roots) if (r.bySession[session]!.lastPrintSession === session) total += r.weight;
    if (total === 0) return this.markets.placeholder(roots[0]!.bySession[session]!);
    let draw = this.random.int(0, total - 1);
    for (const r of roots) {
      const market = r.bySession[session]!;
      if (market.lastPrintSession === session && (draw -= r.weight) < 0) return market;
    }
    throw new Error('unreachable: the draw is below the total weight');
  }
}
