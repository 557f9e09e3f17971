// The summary statistics calibration is judged by (docs/backtesting.md#how-close-calibration-comes): the same
// figures of two populations of traders, side by side.
import { formatTable } from '../reports/text-table.js';
import { rootMix } from './kind-instruments.js';
import { quantile } from './stats.js';
import type { TraderTraits } from './trader-traits.js';

/** Regular trading hours, 08:30 to 15:00 CT, in minutes past midnight. */
const RTH = { from: 8 * 60 + 30, to: 15 * 60 };

export interface PopulationSummary {
  traders: number;
  roundTripsPerDay: string;
  contractsPerTrip: string;
  lossTicks: string;
  winTicks: string;
  holdMinutes: string;
  winRatePct: string;
  rthEntriesPct: string;
  roots: string;
}

const ROWS: ReadonlyArray<[keyof PopulationSummary, string]> = [
  ['traders', 'traders with a round trip'],
  ['roundTripsPerDay', 'round trips a day they trade'],
  ['contractsPerTrip', 'contracts a round trip (mean)'],
  ['lossTicks', 'loss exits, ticks (p10 / p50 / p90)'],
  ['winTicks', 'win exits, ticks (p10 / p50 / p90)'],
  ['holdMinutes', 'minutes held (p10 / p50 / p90)'],
  ['winRatePct', 'win rate, % of wins and losses'],
  ['rthEntriesPct', 'entries 08:30-15:00 CT, %'],
  ['roots', 'round trips by root, %'],
];

export function summarize(traits: readonly TraderTraits[]): PopulationSummary {
  const active = traits.filter((t) => t.roundTrips > 0);
  const sum = (f: (t: TraderTraits) => number) => active.reduce((s, t) => s + f(t), 0);
  const pooled = (f: (t: TraderTraits) => readonly number[]) => active.flatMap(f);
  const trips = sum((t) => t.roundTrips);
  const decided = sum((t) => t.wins + t.losses);
  const entries = pooled((t) => t.entryMinutes);
  const rate = (part: number, whole: number, scale = 1) => (whole === 0 ? '-' : ((scale * part) / whole).toFixed(2));
  return {
    traders: active.length,
    roundTripsPerDay: rate(
      trips,
      sum((t) => t.activeDays),
    ),
    contractsPerTrip: rate(
      sum((t) => t.contracts.reduce((a, b) => a + b, 0)),
      trips,
    ),
    lossTicks: spread(pooled((t) => t.stopTicks)),
    winTicks: spread(pooled((t) => t.targetTicks)),
    holdMinutes: spread(pooled((t) => t.holdMinutes)),
    winRatePct: rate(
      sum((t) => t.wins),
      decided,
      100,
    ),
    rthEntriesPct: rate(entries.filter((m) => m >= RTH.from && m < RTH.to).length, entries.length, 100),
    roots: active.length === 0 ? '-' : rootMix(active),
  };
}

function spread(values: readonly number[]): string {
  if (values.length === 0) return '-';
  return [0.1, 0.5, 0.9].map((q) => quantile(values, q)).join(' / ');
}

/** The statistics as a text table, one column per population. */
export function comparisonTable(columns: ReadonlyArray<[name: string, summary: PopulationSummary]>): string {
  return formatTable(
    ['statistic', ...columns.map(([name]) => name)],
    ROWS.map(([key, label]) => [label, ...columns.map(([, summary]) => String(summary[key]))]),
  );
}
