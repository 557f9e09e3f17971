// What a checked back-test config holds (docs/backtesting.md#the-config-file): read by backtest-config.ts, and the
// one type every part of a back-test takes. A file of its own so that the readers it calls can name it too.
import type { Fields } from '../../core/validation/input-fields.js';
import type { MarketFileSpec } from '../../market/market-file-spec.js';
import type { Funnel } from './funnel-config.js';
import type { GridAxis } from './grid.js';
import type { FillsFileSpec } from '../fills/trader-fills.js';
import type { SyntheticTraders } from '../traders/strategy.js';

export interface BacktestConfig {
  file: string;
  name: string;
  seed: number;
  market: MarketFileSpec[];
  /** A synthetic tape of the files' whole sessions for the period (docs/backtesting.md#long-horizons-a-resampled-tape). */
  resample?: { blockSessions: number };
  /** Trade dates, inclusive. */
  period: { from: string; to: string };
  fills?: FillsFileSpec;
  synthetic: SyntheticTraders[];
  /** The base plan as written (decimal strings): grid values are set on it by dotted path. */
  basePlan: Fields;
  basePlanName: string;
  grid: GridAxis[];
  /** price_paid and payout_share (0 and "0" with the funnel), and the funnel when evaluation or funded is written. */
  economics: { pricePaidCents: number; payoutShare: string; funnel?: Funnel };
  fillModel: {
    latencyMs: number;
    cancelLatencyMs: number;
    modifyLatencyMs: number;
    slippageTicks: number;
    limitFill: 'touch' | 'through';
  };
  /** Traders whose equity curves the report draws. */
  sampleTraders: number;
  /** The grid index of the cell every other cell is compared with (docs/backtesting.md#signal-or-noise). */
  compareTo: number;
  /** The grid indices run when only some cells are (`--cells`), in order; undefined for the whole grid. */
  cells?: number[];
}
