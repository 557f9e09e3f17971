// `propsim calibrate` without the command line (docs/backtesting.md#calibrating-synthetic-traders): fills → each
// trader's traits → a seeded part held out → kinds of the rest → kinds.yaml, and, given a market, the held-out
// traders side by side with the kinds traded on it.
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { TraderFill } from '../backtest/trader-fills.js';
import { calibrateKinds, type TraderKind } from './kinds.js';
import { kindsYaml } from './kinds-file.js';
import { comparisonTable, summarize, type PopulationSummary } from './population-summary.js';
import { syntheticFills, type MarketRun } from './synthetic-fills.js';
import { traitsOf, type TraderTraits } from './trader-traits.js';

export interface CalibrateOptions {
  seed: number;
  /** How many kinds; undefined: chosen (k-means.ts chooseK). */
  kinds?: number;
  /** The share of traders held out, 0 to under 1. */
  holdout: number;
  /** Where the kinds are traded to compare them with the held-out traders; without it nobody is held out. */
  market?: Omit<MarketRun, 'seed'>;
  /** The fills files' names, for kinds.yaml's first comment. */
  sources: readonly string[];
}

export interface Calibration {
  kinds: TraderKind[];
  yaml: string;
  /** Calibrated on, and held out (by trader id). */
  calibrated: string[];
  heldOut: string[];
  /** Held-out traders and the synthetic kinds, side by side; undefined when nobody is held out. */
  comparison?: { heldOut: PopulationSummary; synthetic: PopulationSummary; table: string };
}

export class CalibrationInputError extends Error {
  override name = 'CalibrationInputError';
}

export async function calibrate(fills: readonly TraderFill[], options: CalibrateOptions): Promise<Calibration> {
  const traits = traitsOf(fills).filter((t) => t.roundTrips > 0);
  if (traits.length === 0)
    throw new CalibrationInputError(
      `no round trip in ${options.sources.join(', ')}: a trader needs a position opened and closed again to be measured`,
    );
  const holdout = options.market === undefined ? 0 : options.holdout;
  const { kept, heldOut } = splitTraders(traits, holdout, options.seed);
  if (kept.length === 0)
    throw new CalibrationInputError(
      `--holdout ${holdout}: leaves none of the ${traits.length} traders to calibrate on`,
    );
  const kinds = calibrateKinds(kept, options.seed, options.kinds);
  const header = [
    `propsim calibrate: ${kinds.length} kind${kinds.length === 1 ? '' : 's'} of synthetic traders from ${options.sources.join(', ')} (seed ${options.seed})`,
    `calibrated on ${kept.length} of ${traits.length} traders with a round trip; ${heldOut.length} held out to compare (--holdout ${holdout})`,
    'each count is the real traders of the kind; in a back-test config: traders: { kinds: { path: <this file>, count: 5000 } }',
  ];
  const result: Calibration = {
    kinds,
    yaml: kindsYaml(kinds, header),
    calibrated: kept.map((t) => t.trader),
    heldOut: heldOut.map((t) => t.trader),
  };
  if (heldOut.length > 0 && options.market) {
    const synthetic = traitsOf(
      await syntheticFills(
        kinds.map((k) => k.block),
        { ...options.market, seed: options.seed },
      ),
    );
    const held = summarize(heldOut);
    const made = summarize(synthetic);
    result.comparison = {
      heldOut: held,
      synthetic: made,
      table: comparisonTable([
        ['held-out traders', held],
        ['synthetic kinds', made],
      ]),
    };
  }
  return result;
}

/** A seeded shuffle of the traders, then the last round(n × holdout) of it held out, each part in its first order. */
export function splitTraders(
  traits: readonly TraderTraits[],
  holdout: number,
  seed: number,
): { kept: TraderTraits[]; heldOut: TraderTraits[] } {
  const rng = xoroshiro128plus(seed);
  const order = traits.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const held = new Set(order.slice(order.length - Math.round(order.length * holdout)));
  return { kept: traits.filter((_, i) => !held.has(i)), heldOut: traits.filter((_, i) => held.has(i)) };
}
