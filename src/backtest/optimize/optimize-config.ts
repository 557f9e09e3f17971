// `propsim optimize --config FILE` (docs/optimizing.md#the-config): a back-test config whose `search` replaces the
// grid, and an `objective`. Checked against its schema, then as a back-test config whose grid is the search's
// cartesian product, so every candidate plan is validated before anything runs; errors name the file, line, column
// and the field as written (`search.…`, never the grid it became).
import { readFileSync } from 'node:fs';
import { at, fail, FieldError, toCents } from '../../core/validation/input-fields.js';
import { checkFileValue } from '../../core/validation/file-check.js';
import { decodeScenarioSource } from '../../scenario/load-scenario.js';
import { ScenarioError } from '../../scenario/scenario-error.js';
import { parseBacktestConfig, repeatedGridValues, type BacktestConfig } from '../config/backtest-config.js';
import { isFundedAxis, type GridAxis } from '../config/grid.js';
import { METRICS, type Metric } from '../stats/decisions.js';
import { checkConfirmationPeriod } from './confirmation-period.js';
import { OptimizeConfigFile } from './optimize-config-schema.js';
import { expandRange, type SearchRange } from './search-range.js';

export type Direction = 'maximize' | 'minimize';

/** A bound on a metric: rates as fractions, the net per trader in cents; `text` as written, for the outputs. */
export interface Constraint {
  metric: Metric;
  min?: number;
  max?: number;
  text: { min?: string; max?: string };
}

export interface OptimizeConfig {
  /** The back-test the search runs: its grid is the search's axes, each candidate a grid cell. */
  backtest: BacktestConfig;
  objective: { direction: Direction; metric: Metric };
  constraints: Constraint[];
  /** Synthetic traders of the first stage; undefined: derived from the config's count (successive-halving.ts). */
  startTraders?: number;
  /** The search's axes as written (ranges unexpanded): `search.<key>` or `search.<key>[i]` name a value. */
  ranges: Set<string>;
  /** `confirmation.period`: the chosen plan is confirmed over it; undefined: over the search's period. */
  confirmationPeriod?: { from: string; to: string };
}

export function loadOptimizeConfig(path: string, warn: (message: string) => void = () => undefined): OptimizeConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ScenarioError(path, '', '', `cannot read the optimize config (${code})`);
  }
  const source = decodeScenarioSource(text, path);
  const config = source.withPositions(() => {
    try {
      return parseOptimizeConfig(source.value, path);
    } catch (error) {
      if (error instanceof FieldError)
        throw new ScenarioError(path, error.path, error.path, error.detail, { cause: error });
      throw error;
    }
  });
  for (const repeat of repeatedGridValues(config.backtest.basePlan, config.backtest.grid)) {
    const where = searchPath(repeat.path, config.ranges);
    const detail = `${JSON.stringify(repeat.value)} makes the same plan as ${searchPath(repeat.samePlanAs, config.ranges)} (${JSON.stringify(repeat.sameValue)}), so its candidates repeat that value's, at the cost of a run each`;
    warn(new ScenarioError(path, where, where, detail, source.positionOf(where) ?? {}).message);
  }
  return config;
}

export function parseOptimizeConfig(raw: unknown, file: string): OptimizeConfig {
  if (typeof raw === 'object' && raw !== null && 'grid' in raw)
    throw new FieldError(
      'grid',
      'an optimize config searches plan fields under search (a list or a range { from, to, step } per field); a grid is for propsim backtest: move its axes under search',
    );
  const doc = checkFileValue(OptimizeConfigFile, raw);
  const { search, objective, start_traders: startTraders, confirmation, ...backtestDoc } = doc;
  const ranges = new Set<string>();
  const grid: GridAxis[] = Object.entries(search).map(([key, written]) => {
    const path = at('search', key);
    if (isFundedAxis(key))
      fail(
        path,
        'a field of the evaluation plan (chosen-plan.yaml is that plan; vary the funded plan with a grid in propsim backtest)',
        key,
      );
    if (Array.isArray(written)) return { key, values: written };
    ranges.add(key);
    return { key, values: expandRange(written as SearchRange, path) };
  });
  let backtest: BacktestConfig;
  try {
    backtest = parseBacktestConfig(
      { ...backtestDoc, grid: Object.fromEntries(grid.map((a) => [a.key, a.values])) },
      file,
    );
  } catch (error) {
    if (error instanceof FieldError && /^grid[. ]/.test(error.path))
      throw new FieldError(searchPath(error.path, ranges), error.detail);
    throw error;
  }
  return {
    backtest,
    objective: parseObjective(objective),
    constraints: parseConstraints(objective.constraints ?? {}),
    ...(startTraders === undefined ? {} : { startTraders }),
    ranges,
    ...(confirmation === undefined
      ? {}
      : { confirmationPeriod: checkConfirmationPeriod(confirmation.period, backtest) }),
  };
}

/** A grid path as the config wrote it: `grid.f[3]` is `search.f[3]`, or `search.f` when f is a range. */
function searchPath(gridPath: string, ranges: ReadonlySet<string>): string {
  if (gridPath.startsWith('grid cell ')) return `search candidate ${gridPath.slice('grid cell '.length)}`;
  const match = /^grid\.(.+?)(\[\d+\])?$/.exec(gridPath);
  if (!match) return gridPath;
  const key = match[1]!;
  return ranges.has(key) ? `search.${key}` : `search.${key}${match[2] ?? ''}`;
}

function parseObjective(doc: { maximize?: Metric; minimize?: Metric }): OptimizeConfig['objective'] {
  if (doc.maximize !== undefined && doc.minimize !== undefined)
    fail('objective', `one of maximize or minimize, not both`, doc);
  if (doc.maximize !== undefined) return { direction: 'maximize', metric: doc.maximize };
  if (doc.minimize !== undefined) return { direction: 'minimize', metric: doc.minimize };
  return fail('objective', `maximize or minimize: one of ${METRICS.join(', ')}`, doc);
}

function parseConstraints(doc: Partial<Record<Metric, { min?: string; max?: string }>>): Constraint[] {
  return METRICS.flatMap((metric) => {
    const bounds = doc[metric];
    if (bounds === undefined) return [];
    const path = at('objective.constraints', metric);
    if (bounds.min === undefined && bounds.max === undefined) fail(path, '{ min?, max? } with at least one', bounds);
    const value = (text: string, field: string) =>
      metric === 'net_per_trader' ? toCents(text, at(path, field)) : rateOf(text, at(path, field));
    const constraint: Constraint = { metric, text: {} };
    if (bounds.min !== undefined) {
      constraint.min = value(bounds.min, 'min');
      constraint.text.min = bounds.min;
    }
    if (bounds.max !== undefined) {
      constraint.max = value(bounds.max, 'max');
      constraint.text.max = bounds.max;
    }
    if (constraint.min !== undefined && constraint.max !== undefined && constraint.min > constraint.max)
      fail(at(path, 'max'), `a value no less than min (${bounds.min})`, bounds.max);
    return [constraint];
  });
}

function rateOf(text: string, path: string): number {
  const rate = Number(text);
  if (rate < 0 || rate > 1) fail(path, 'a rate from "0" to "1"', text);
  return rate;
}
