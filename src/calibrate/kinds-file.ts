// kinds.yaml as `propsim calibrate` writes it (docs/backtesting.md#calibrating-synthetic-traders): a list of
// traders.synthetic blocks, one per kind, each after a comment saying how many real traders it stands for and what
// they look like, so a back-test config can take it whole (`traders: { kinds: { path: kinds.yaml } }`).
import type { SyntheticTraders } from '../backtest/traders/strategy.js';
import { MIN_ROOT_PERCENT, rootMix } from './kind-instruments.js';
import { clock, sessionMinute, type TraderKind } from './kinds.js';
import { median, quantile } from './stats.js';
import type { TraderTraits } from './trader-traits.js';

export function kindsYaml(kinds: readonly TraderKind[], header: readonly string[]): string {
  const lines = header.map((line) => `# ${line}`);
  kinds.forEach((kind, i) => {
    lines.push(`# kind ${i + 1}: ${describeKind(kind.traders)}`);
    const tooFew = kind.roots?.tooFew ?? [];
    if (tooFew.length > 0)
      lines.push(
        `# left out of its instruments, under ${MIN_ROOT_PERCENT} % of its round trips: ${tooFew.map((r) => `${r.root} ${r.percent} %`).join(', ')}`,
      );
    lines.push(`- ${flow(yamlBlock(kind.block))}`);
  });
  return `${lines.join('\n')}\n`;
}

/** What the kind's real traders did, pooled over their round trips, in one line. */
export function describeKind(traders: readonly TraderTraits[]): string {
  const pooled = <K extends keyof TraderTraits>(key: K) => traders.flatMap((t) => t[key] as number[]);
  const trips = traders.reduce((s, t) => s + t.roundTrips, 0);
  const days = traders.reduce((s, t) => s + t.activeDays, 0);
  const wins = traders.reduce((s, t) => s + t.wins, 0);
  const decided = traders.reduce((s, t) => s + t.wins + t.losses, 0);
  const entries = pooled('entryMinutes').map(sessionMinute);
  const between = (values: number[], unit: string) =>
    values.length === 0 ? 'none' : `${quantile(values, 0.1)}–${quantile(values, 0.9)} ${unit}`;
  return [
    `${traders.length} real trader${traders.length === 1 ? '' : 's'}`,
    `${(trips / days).toFixed(1)} round trips a day they trade`,
    `${between(pooled('contracts'), 'contracts')}`,
    `losses ${between(pooled('stopTicks'), 'ticks')}`,
    `wins ${between(pooled('targetTicks'), 'ticks')}`,
    `held ${median(pooled('holdMinutes'))} min (median)`,
    `${decided === 0 ? 'no' : Math.round((100 * wins) / decided)} % wins`,
    `entries ${clock(quantile(entries, 0.1)!)}–${clock(quantile(entries, 0.9)!)} CT`,
    `round trips ${rootMix(traders)}`,
  ].join(', ');
}

/**
 * The block as a config writes it: `instruments` after the strategy, as a list of roots when they weigh the same
 * (`[ES]`, `[ES, NQ]`), else as root: weight (`{ ES: 3, NQ: 1 }`).
 */
function yamlBlock(block: SyntheticTraders): object {
  const { count, strategy, instruments, params } = block;
  if (instruments === undefined) return { count, strategy, params };
  const sameWeight = instruments.every((i) => i.weight === instruments[0]!.weight);
  const written = sameWeight
    ? instruments.map((i) => i.root)
    : Object.fromEntries(instruments.map((i) => [i.root, i.weight]));
  return { count, strategy, instruments: written, params };
}

/** A YAML flow mapping of numbers, words, product roots and number pairs, on one line. */
function flow(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(flow).join(', ')}]`;
  if (typeof value === 'object' && value !== null)
    return `{ ${Object.entries(value)
      .map(([key, v]) => `${key}: ${flow(v)}`)
      .join(', ')} }`;
  // Times are quoted: "08:30" must stay a string whatever YAML version reads it. Words and roots (ES, 6E, M2K) read
  // as strings in YAML 1.2 unquoted.
  return typeof value === 'string' && !/^([a-z_]+|[0-9]?[A-Z][A-Z0-9]*)$/.test(value)
    ? JSON.stringify(value)
    : String(value);
}
