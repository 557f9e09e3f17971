// `propsim calibrate` without the command line (docs/backtesting.md#calibrating-synthetic-traders): fills → each
// trader's traits → a seeded part held out → kinds of the rest → kinds.yaml, and, given a market, the held-out
// traders side by side with the kinds traded on it.
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { TraderFill } from '../import/trader-fill.js';
import { calibrateKinds, type TraderKind } from './kinds.js';
import { kindsYaml } from './kinds-file.js';
import { rootMix } from './kind-instruments.js';
import { parseSymbol } from '../core/instruments.js';
import type { MarketFileSpec } from '../market/market-file-spec.js';
import type { SyntheticTraders } from '../backtest/traders/strategy.js';
import { comparisonTable, summarize, type PopulationSummary } from './population-summary.js';
import { syntheticFills } from './synthetic-fills.js';
import type { MarketRun, PlanFromFile } from './calibration-cell.js';
import { CalibrationInputError } from './calibration-input-error.js';
import { planOutcomes, type PlanOutcomes } from './plan-outcomes.js';
import { outcomeSummary } from './outcome-words.js';
import { traitsOf, type TraderTraits } from './trader-traits.js';

export interface CalibrateOptions {
  seed: number;
  /** How many kinds; undefined: chosen (k-means.ts chooseK). */
  kinds?: number;
  /** The share of traders held out, 0 to under 1. */
  holdout: number;
  /** Where the kinds are traded to compare them with the held-out traders; without it nobody is held out. */
  market?: Omit<MarketRun, 'seed'>;
  /** With market: the plan the held-out traders and the kinds are back-tested under, to compare their outcomes. */
  plan?: PlanFromFile;
  /** The fills files' names, for kinds.yaml's first comment. */
  sources: readonly string[];
}

export interface Calibration {
  kinds: TraderKind[];
  yaml: string;
  /** Calibrated on, and held out (by trader id). */
  calibrated: string[];
  heldOut: string[];
  /** What was left out of the file or the comparison, and why: for stderr. */
  notes: string[];
  /** Held-out traders and the synthetic kinds, side by side; undefined when nobody is held out. */
  comparison?: { heldOut: PopulationSummary; synthetic: PopulationSummary; table: string };
  /** With a plan: both groups' first outcomes under it. */
  outcomes?: PlanOutcomes;
}

export { CalibrationInputError } from './calibration-input-error.js';

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
  if (options.plan && options.market && heldOut.length === 0)
    throw new CalibrationInputError(
      `--plan: --holdout ${holdout} of ${traits.length} traders holds none out to back-test against the kinds; raise --holdout`,
    );
  const clustered = calibrateKinds(kept, options.seed, options.kinds);
  const kinds = clustered.filter((k) => k.roots !== undefined);
  const notes = leftOutNotes(clustered);
  const header = [
    `propsim calibrate: ${kinds.length} kind${kinds.length === 1 ? '' : 's'} of synthetic traders from ${options.sources.join(', ')} (seed ${options.seed})`,
    `calibrated on ${kept.length} of ${traits.length} traders with a round trip; ${heldOut.length} held out to compare (--holdout ${holdout})`,
    'each count is the real traders of the kind; in a back-test config: traders: { kinds: { path: <this file>, count: 5000 } }',
  ];
  const result: Calibration = {
    kinds,
    yaml: '',
    calibrated: kept.map((t) => t.trader),
    heldOut: heldOut.map((t) => t.trader),
    notes,
  };
  if (heldOut.length > 0 && options.market) {
    const run = { ...options.market, seed: options.seed };
    const blocks = kinds.map((k, i) => tradedOn(k.block, i, run.market, notes));
    const synthetic = traitsOf(await syntheticFills(blocks, run));
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
    if (options.plan) {
      const heldOutIds = new Set(result.heldOut);
      const heldOutFills = fills.filter((f) => heldOutIds.has(f.trader));
      result.outcomes = await planOutcomes(blocks, heldOutFills, run, options.plan);
      header.splice(2, 0, outcomeSummary(result.outcomes, run.period));
    }
  }
  result.yaml = kindsYaml(kinds, header);
  return result;
}

/**
 * A back-test runs one product group's sessions (src/backtest/config/block-instruments.ts), so the file keeps to the group of
 * the firm's most round trips: what each kind traded outside it, and kinds with nothing in it, are said here.
 */
function leftOutNotes(clustered: readonly TraderKind[]): string[] {
  const notes: string[] = [];
  let written = 0;
  for (const kind of clustered) {
    const traders = `${kind.traders.length} trader${kind.traders.length === 1 ? '' : 's'}`;
    if (kind.roots === undefined) {
      notes.push(
        `a kind of ${traders} left out: none of its round trips is in the product group of the firm's most (${rootMix(kind.traders)}), and a back-test runs one group's sessions`,
      );
      continue;
    }
    written++;
    const other = kind.roots.otherGroups;
    if (other.length > 0)
      notes.push(
        `kind ${written}: left out of its instruments, another product group than the firm's most: ${other.map((r) => `${r.root} (${r.trips} round trip${r.trips === 1 ? '' : 's'})`).join(', ')}`,
      );
  }
  return notes;
}

/**
 * The block as the comparison trades it: with its roots when the market has a file of each, else (with a note) on the
 * first file's instrument, as a block without instruments trades.
 */
function tradedOn(
  block: SyntheticTraders,
  i: number,
  market: readonly MarketFileSpec[],
  notes: string[],
): SyntheticTraders {
  if (block.instruments === undefined) return block;
  const roots = new Set(market.flatMap((m) => (m.instrument === undefined ? [] : [parseSymbol(m.instrument).root])));
  const missing = block.instruments.filter((r) => !roots.has(r.root)).map((r) => r.root);
  if (missing.length === 0) return block;
  notes.push(`kind ${i + 1}: compared on ${market[0]!.instrument}: --market has no file of ${missing.join(', ')}`);
  const { instruments: _, ...rest } = block;
  return rest;
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
