// Who trades in the search and who in the confirmation (docs/optimizing.md#confirmation). The confirmation must be
// a population the search never saw: synthetic traders drawn from another seed, and the held-out part of the
// historical fills traders. Both are fixed by the seed alone, so a run is reproducible and a back-test of the chosen
// plan with the confirmation's seed and traders gives the confirmation's numbers.
import { createHash } from 'node:crypto';
import { GlobexCalendar } from '../../core/calendar/globex-calendar.js';
import { sessionFamily } from '../config/block-instruments.js';
import { loadHolidayFile } from '../../market/holiday-file.js';
import type { BacktestConfig } from '../config/backtest-config.js';
import { withSyntheticTraders } from '../config/trader-count.js';
import { readFillsFile } from '../fills/trader-fills.js';
import { periodSessions } from '../config/trader-roster.js';

/**
 * The confirmation's seed: a million on from the search's. A trader's seed is seed × 1,000,003 + its place, so the
 * two populations share no trader below a trillion traders, and a user's sweep over neighbouring seeds never
 * confirms on another run's search population.
 */
export const CONFIRMATION_SEED_OFFSET = 1_000_000;

export function confirmationSeed(seed: number): number {
  return seed + CONFIRMATION_SEED_OFFSET;
}

/** The fills file's traders in roster order (first execution first); none without a fills file. */
export function fillsTraders(config: BacktestConfig): string[] {
  if (!config.fills) return [];
  return [...new Set(readFillsFile(config.fills).map((fill) => fill.trader))];
}

/**
 * The fills traders split in two by the seed: ordered by sha256 of "<seed>:<trader>", the first half (rounded down)
 * is the search's and the rest held out for the confirmation; each part keeps roster order. One trader alone is held
 * out: the confirmation is the claim that matters.
 */
export function splitFillsTraders(traders: readonly string[], seed: number): { search: string[]; heldOut: string[] } {
  const key = (trader: string) => createHash('sha256').update(`${seed}:${trader}`).digest('hex');
  const shuffled = [...traders].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const search = new Set(shuffled.slice(0, Math.floor(traders.length / 2)));
  return { search: traders.filter((t) => search.has(t)), heldOut: traders.filter((t) => !search.has(t)) };
}

/** The synthetic traders of the config's blocks, all together. */
export function syntheticCount(config: BacktestConfig): number {
  return config.synthetic.reduce((n, block) => n + block.count, 0);
}

/**
 * The config with this seed, `synthetic` traders shared over its blocks as `--traders` shares them (kept as written
 * when undefined) and only these fills traders (no fills file when none).
 */
export function withPopulation(
  config: BacktestConfig,
  population: { seed: number; synthetic?: number; fills: readonly string[] },
): BacktestConfig {
  const counted =
    population.synthetic === undefined || config.synthetic.length === 0
      ? config
      : withSyntheticTraders(config, population.synthetic);
  const { fills: _fills, ...rest } = counted;
  const fills =
    config.fills && population.fills.length > 0 ? { ...config.fills, traders: [...population.fills] } : undefined;
  return { ...rest, seed: population.seed, ...(fills ? { fills } : {}) };
}

/** Trade dates in the period: an account costs this many account-session-days. */
export function periodDays(config: BacktestConfig): number {
  const family = sessionFamily(config);
  return periodSessions(new GlobexCalendar(loadHolidayFile()), config.period, family).length;
}
