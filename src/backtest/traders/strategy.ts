// Synthetic traders: seeded strategies that send real orders (entries, then an OCO stop and target once filled)
// through the venue. Each trader wakes at times it chooses, or right after the next print; between wake-ups the venue
// and the risk engine do the rest.
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { MinuteBars } from './minute-bars.js';

export const SYNTHETIC_STRATEGIES = ['random_bracket', 'momentum_breakout', 'mean_reversion'] as const;
export type SyntheticStrategy = (typeof SYNTHETIC_STRATEGIES)[number];

export interface SyntheticTraders {
  count: number;
  strategy: SyntheticStrategy;
  params: Record<string, unknown>;
  /** The roots the block trades, by weight; absent: the first market file's instrument. */
  instruments?: InstrumentWeight[];
}

/** A product root a trader trades, and its whole weight in the draw (docs/backtesting.md#synthetic-traders). */
export interface InstrumentWeight {
  root: string;
  weight: number;
}

/** What a trader sees when it wakes. */
export interface TraderView {
  kernel: Kernel;
  accountId: string;
  symbol: string;
  /** Decimal places and tick size to write prices. */
  tickSize: number;
  priceDecimals: number;
  bars: MinuteBars;
  /** The current session, when the market is open. */
  session: { openMs: number; closeMs: number; tradeDate: string } | undefined;
  /**
   * A trader of several roots: gives the market of its next entry when it is flat and about to ask for a signal, drawn
   * at a session's first such check and after each entry (docs/backtesting.md#several-instruments-and-contract-rolls).
   * Absent: it trades the view's market.
   */
  markets?: MarketChoice | undefined;
}

/** The contract a trader looks at and enters: its symbol, price grid and one-minute bars. */
export type MarketView = Pick<TraderView, 'symbol' | 'tickSize' | 'priceDecimals' | 'bars'>;

/** A trader's markets to choose from: `choose` gives the one of its next entry, drawn again after `entered`. */
export interface MarketChoice {
  choose(): MarketView;
  entered(): void;
}

/** A wake-up right after the next print of the trader's instrument: an entry waiting for its fill. */
export const AFTER_NEXT_PRINT = 'after_next_print';

/** When a trader wakes next: a time, right after the next print, or never (undefined: done for good). */
export type NextWake = number | typeof AFTER_NEXT_PRINT | undefined;

export interface Trader {
  readonly id: string;
  /** Acts at a wake-up; returns when to wake it next. */
  wake(view: TraderView): NextWake;
}

/** A seeded random source for one trader: the same trader draws the same numbers in every cell. */
export class TraderRandom {
  private readonly rng;

  /** `jumps` picks one of the seed's non-overlapping streams: 1 for the trader's own draws, 2 for its roots. */
  constructor(seed: number, jumps = 1) {
    this.rng = xoroshiro128plus(seed);
    for (let i = 0; i < jumps; i++) this.rng.jump();
  }

  int(from: number, to: number): number {
    return uniformInt(this.rng, from, to);
  }

  /** An integer in a [low, high] range parameter, or the single value given. */
  pick(range: readonly [number, number]): number {
    return this.int(range[0], range[1]);
  }

  chance(percent: number): boolean {
    return this.int(0, 99) < percent;
  }
}
