// `propsim backtest --config FILE` (docs/backtesting.md#the-config-file): the YAML file, validated up front with
// errors that name the field, into a plain, serializable config (cells can be handed to workers as they are).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  at,
  checkKeys,
  fail,
  FieldError,
  readEnum,
  readFields,
  readInteger,
  readString,
  required,
  type Fields,
} from '../core/accounts/input-fields.js';
import { parsePlanTemplate } from '../core/accounts/plans.js';
import { isIsoDate } from '../core/calendar/dates.js';
import { parseCents, parseDecimal } from '../core/money.js';
import type { MarketFileSpec } from '../market/market-file-spec.js';
import { decodeScenarioSource } from '../scenario/load-scenario.js';
import { findPlanFile, knownPlans } from '../scenario/plan-files.js';
import { parseMarket } from '../scenario/scenario-market.js';
import { ScenarioError } from '../scenario/scenario-error.js';
import { expandGrid, planForCell, type GridAxis } from './grid.js';
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { parseSymbol } from '../core/instruments.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import { readFillsFile, type FillsFileSpec } from './trader-fills.js';
import { FILL_FORMAT_NAMES } from '../import/import-fills.js';
import { isKnownZone } from '../import/export-time.js';
import { MissingZoneError } from '../import/import-input-error.js';
import { periodSessions, tradersOf } from './trader-roster.js';
import { validateStrategyParams } from './traders/strategies.js';
import { SYNTHETIC_STRATEGIES, type SyntheticTraders } from './traders/strategy.js';

export interface BacktestConfig {
  file: string;
  name: string;
  seed: number;
  market: MarketFileSpec[];
  /** Trade dates, inclusive. */
  period: { from: string; to: string };
  fills?: FillsFileSpec;
  synthetic: SyntheticTraders[];
  /** The base plan as written (decimal strings): grid values are set on it by dotted path. */
  basePlan: Fields;
  basePlanName: string;
  grid: GridAxis[];
  economics: { pricePaidCents: number; payoutShare: string };
  fillModel: {
    latencyMs: number;
    cancelLatencyMs: number;
    modifyLatencyMs: number;
    slippageTicks: number;
    limitFill: 'touch' | 'through';
  };
  /** Traders whose equity curves the report draws. */
  sampleTraders: number;
}

/** The most traders one traders.synthetic block may hold (the config's count, or its share of --traders). */
export const MAX_BLOCK_TRADERS = 100_000;

const KEYS = [
  'name',
  'seed',
  'market',
  'period',
  'traders',
  'plans',
  'base_plan',
  'grid',
  'economics',
  'fill_model',
  'sample_traders',
  'description',
];

/**
 * Reads and checks the config; what runs but is likely a mistake (a grid value that repeats another) goes to `warn`,
 * as `FILE:LINE:COL: field: what`.
 */
export function loadBacktestConfig(path: string, warn: (message: string) => void = () => undefined): BacktestConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ScenarioError(
      path,
      '',
      '',
      `cannot read the back-test config (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  const source = decodeScenarioSource(text, path);
  const config = source.withPositions(() => {
    try {
      return parseBacktestConfig(source.value, path);
    } catch (error) {
      if (error instanceof FieldError)
        throw new ScenarioError(path, error.path, error.path, error.detail, { cause: error });
      throw error;
    }
  });
  for (const repeat of repeatedGridValues(config.basePlan, config.grid)) {
    const where = source.positionOf(repeat.path);
    const detail = `${JSON.stringify(repeat.value)} makes the same plan as ${repeat.samePlanAs} (${JSON.stringify(repeat.sameValue)}), so its cells repeat that value's cells, at the cost of a run each`;
    warn(new ScenarioError(path, repeat.path, repeat.path, detail, where ?? {}).message);
  }
  return config;
}

/**
 * Grid values that make the same plan as an earlier value of their axis (a value written twice, or "500" beside
 * "500.00"). Each still makes its own cells, which come out identical to the earlier value's: surely not what was
 * meant, but a run that worked before is not refused for it.
 */
export function repeatedGridValues(
  basePlan: Fields,
  grid: readonly GridAxis[],
): { path: string; value: unknown; samePlanAs: string; sameValue: unknown }[] {
  // The other axes at their first values: every cell's plan is valid (checkGridCells), so these are too.
  const firstValues = Object.fromEntries(grid.map((axis) => [axis.key, axis.values[0]]));
  const repeats: ReturnType<typeof repeatedGridValues> = [];
  for (const axis of grid) {
    const seen = new Map<string, number>();
    axis.values.forEach((value, i) => {
      const plan = parsePlanTemplate(planForCell(basePlan, { ...firstValues, [axis.key]: value }), '');
      const key = JSON.stringify(plan);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i);
      else
        repeats.push({
          path: at(at('grid', axis.key), i),
          value,
          samePlanAs: at(at('grid', axis.key), first),
          sameValue: axis.values[first],
        });
    });
  }
  return repeats;
}

export function parseBacktestConfig(raw: unknown, file: string): BacktestConfig {
  const doc = readFields(
    raw,
    '(top level)',
    'a mapping: name, market, period, traders, plans or base_plan, grid, economics',
  );
  checkKeys(doc, '', KEYS);
  const period = parsePeriod(doc.period);
  const traders = readFields(
    required(doc.traders, 'traders', 'fills and/or synthetic'),
    'traders',
    'fills and/or synthetic',
  );
  checkKeys(traders, 'traders', ['fills', 'synthetic']);
  if (traders.fills === undefined && traders.synthetic === undefined)
    fail('traders', 'fills, synthetic or both', traders);
  const { basePlan, basePlanName } = parseBasePlan(doc, file);
  const grid = parseGridAxes(doc.grid);
  const config: BacktestConfig = {
    file,
    name: readString(required(doc.name, 'name', 'a name'), 'name', { maxLength: 200 }),
    seed: doc.seed === undefined ? 1 : readInteger(doc.seed, 'seed', { min: 0 }),
    market: parseMarket(required(doc.market, 'market', 'market files'), file),
    period,
    synthetic: parseSynthetic(traders.synthetic),
    basePlan,
    basePlanName,
    grid,
    economics: parseEconomics(doc.economics),
    fillModel: parseFillModel(doc.fill_model),
    sampleTraders:
      doc.sample_traders === undefined ? 20 : readInteger(doc.sample_traders, 'sample_traders', { min: 0, max: 200 }),
  };
  if (config.market.length === 0) fail('market.files', 'at least one market file', []);
  const instrument = config.market[0]!.instrument;
  if (instrument === undefined)
    fail(
      'market.files[0].instrument',
      'the instrument of the first market file: synthetic traders trade it and sessions roll by its calendar',
      undefined,
    );
  const sessions = periodSessions(new GlobexCalendar(loadHolidayFile()), period, parseSymbol(instrument).spec.family);
  if (sessions.length === 0)
    fail(
      'period',
      `a period holding at least one ${instrument} trade date (weekends and exchange holidays have none)`,
      doc.period,
    );
  if (traders.fills !== undefined) {
    config.fills = parseFillsFile(traders.fills, file);
    checkFillsTraders(config);
  }
  if (config.synthetic.length === 0 && !config.fills) fail('traders', 'at least one trader', traders);
  checkGridCells(basePlan, grid);
  return config;
}

/**
 * Every cell's plan must be valid before anything runs. A refusal points at what to fix: the grid value it is about
 * (`grid.<field>[i]`, with its line), or, for a field no axis sets, the cell whose values made the plan invalid.
 */
function checkGridCells(basePlan: Fields, grid: readonly GridAxis[]): void {
  for (const cell of expandGrid(grid)) {
    try {
      parsePlanTemplate(planForCell(basePlan, cell.values), '');
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      const axis = grid.find((a) => error.path === a.key || error.path.startsWith(`${a.key}.`));
      if (axis) {
        const value = at(at('grid', axis.key), axis.values.indexOf(cell.values[axis.key]));
        throw new FieldError(value, error.path === axis.key ? error.detail : error.message);
      }
      throw new FieldError(`grid cell ${cell.label}`, error.message);
    }
  }
}

/** The fills file is read now, so a bad row is invalid input found before anything runs (exit 2). */
function checkFillsTraders(config: BacktestConfig): void {
  const fills = readFillsOrFail(config.fills!);
  if (fills.length === 0) fail('traders.fills.path', 'a fills file with at least one execution', config.fills!.path);
  const synthetic = new Set(tradersOf(config, []).map((t) => t.id));
  const clash = fills.find((f) => synthetic.has(f.trader));
  if (clash)
    fail('traders.fills.path', `trader ids other than the synthetic traders' (line ${clash.line})`, clash.trader);
}

/** A broker export whose times need a zone names the config field to set. */
function readFillsOrFail(spec: FillsFileSpec): ReturnType<typeof readFillsFile> {
  try {
    return readFillsFile(spec);
  } catch (error) {
    if (error instanceof MissingZoneError)
      fail('traders.fills.tz', `the zone of its times: ${error.message}`, undefined);
    throw error;
  }
}

function parsePeriod(raw: unknown): { from: string; to: string } {
  const doc = readFields(required(raw, 'period', '{ from, to }'), 'period', '{ from: YYYY-MM-DD, to: YYYY-MM-DD }');
  checkKeys(doc, 'period', ['from', 'to']);
  const date = (key: 'from' | 'to') => {
    const value = doc[key];
    if (typeof value !== 'string' || !isIsoDate(value)) fail(at('period', key), 'a trade date YYYY-MM-DD', value);
    return value as string;
  };
  const period = { from: date('from'), to: date('to') };
  if (period.to < period.from) fail('period.to', `a date no earlier than period.from (${period.from})`, period.to);
  return period;
}

/** `base_plan` names a plan of `plans`, else a plan file (plans/ beside the config, then fixtures/plans). */
function parseBasePlan(doc: Fields, file: string): { basePlan: Fields; basePlanName: string } {
  const name = readString(required(doc.base_plan, 'base_plan', 'the name of the plan the grid varies'), 'base_plan');
  const plans =
    doc.plans === undefined ? {} : readFields(doc.plans, 'plans', 'a mapping of plan names to plan templates');
  for (const [planName, plan] of Object.entries(plans)) parsePlanTemplate(plan, at('plans', planName));
  if (plans[name] !== undefined)
    return { basePlan: readFields(plans[name], at('plans', name), 'a plan template'), basePlanName: name };
  const found = findPlanFile(name, file);
  if (found) return { basePlan: found.fields, basePlanName: name };
  return fail('base_plan', knownPlans(Object.keys(plans), file), name);
}

function parseGridAxes(raw: unknown): GridAxis[] {
  if (raw === undefined) return [];
  const doc = readFields(raw, 'grid', 'a mapping of dotted plan fields to lists of values');
  return Object.entries(doc).map(([key, values]) => {
    if (!/^[a-z_]+(\.[a-z_]+)*$/.test(key))
      fail(at('grid', key), 'a dotted plan field such as risk_profile.max_drawdown_value', key);
    if (!Array.isArray(values) || values.length === 0) fail(at('grid', key), 'a non-empty list of values', values);
    return { key, values: values as unknown[] };
  });
}

function parseSynthetic(raw: unknown): SyntheticTraders[] {
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((item, i) => {
    const path = Array.isArray(raw) ? `traders.synthetic[${i}]` : 'traders.synthetic';
    const doc = readFields(item, path, '{ count, strategy, params }');
    checkKeys(doc, path, ['count', 'strategy', 'params']);
    const strategy = readEnum(
      required(doc.strategy, at(path, 'strategy'), 'a strategy'),
      at(path, 'strategy'),
      SYNTHETIC_STRATEGIES,
    );
    const params =
      doc.params === undefined ? {} : readFields(doc.params, at(path, 'params'), 'a mapping of strategy parameters');
    try {
      validateStrategyParams(strategy, params as Record<string, unknown>);
    } catch (error) {
      throw new FieldError(at(path, 'params'), (error as Error).message);
    }
    return {
      count: readInteger(required(doc.count, at(path, 'count'), 'a number of traders'), at(path, 'count'), {
        min: 1,
        max: MAX_BLOCK_TRADERS,
      }),
      strategy,
      params: { ...params },
    };
  });
}

function parseFillsFile(raw: unknown, file: string): FillsFileSpec {
  const doc = readFields(raw, 'traders.fills', '{ path, format?, tz? }');
  checkKeys(doc, 'traders.fills', ['path', 'format', 'tz']);
  const given = readString(required(doc.path, 'traders.fills.path', 'a CSV file path'), 'traders.fills.path');
  const path = resolve(dirname(resolve(file)), given);
  if (!existsSync(path))
    fail('traders.fills.path', `an existing file (relative to the config's folder; looked for ${path})`, given);
  const format = doc.format === undefined ? undefined : readEnum(doc.format, 'traders.fills.format', FILL_FORMAT_NAMES);
  const tz = doc.tz === undefined ? undefined : readString(doc.tz, 'traders.fills.tz');
  if (tz !== undefined && !isKnownZone(tz)) fail('traders.fills.tz', 'an IANA time zone such as America/Chicago', tz);
  return { path, ...(format === undefined ? {} : { format }), ...(tz === undefined ? {} : { tz }) };
}

function parseEconomics(raw: unknown): { pricePaidCents: number; payoutShare: string } {
  if (raw === undefined) return { pricePaidCents: 0, payoutShare: '0' };
  const doc = readFields(raw, 'economics', '{ price_paid, payout_share }');
  checkKeys(doc, 'economics', ['price_paid', 'payout_share']);
  const wrap = <T>(path: string, read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (error instanceof Error && !(error instanceof FieldError))
        throw new FieldError(path, error.message.replace(/^[^:]*: /, ''));
      throw error;
    }
  };
  const pricePaidCents =
    doc.price_paid === undefined
      ? 0
      : wrap('economics.price_paid', () => parseCents(doc.price_paid, 'economics.price_paid', { nonNegative: true }));
  const share =
    doc.payout_share === undefined
      ? '0'
      : wrap('economics.payout_share', () =>
          parseDecimal(doc.payout_share, 'economics.payout_share', { maxPlaces: 4, nonNegative: true }).toFixed(),
        );
  if (Number(share) > 1) fail('economics.payout_share', 'a share between "0" and "1"', doc.payout_share);
  return { pricePaidCents, payoutShare: share };
}

function parseFillModel(raw: unknown): BacktestConfig['fillModel'] {
  const doc = raw === undefined ? {} : readFields(raw, 'fill_model', '{ latency_ms, slippage_ticks, limit_fill }');
  checkKeys(doc, 'fill_model', ['latency_ms', 'slippage_ticks', 'limit_fill']);
  const latencyMs = doc.latency_ms === undefined ? 0 : readInteger(doc.latency_ms, 'fill_model.latency_ms', { min: 0 });
  return {
    latencyMs,
    cancelLatencyMs: latencyMs,
    modifyLatencyMs: latencyMs,
    slippageTicks:
      doc.slippage_ticks === undefined ? 0 : readInteger(doc.slippage_ticks, 'fill_model.slippage_ticks', { min: 0 }),
    limitFill:
      doc.limit_fill === undefined
        ? 'touch'
        : readEnum(doc.limit_fill, 'fill_model.limit_fill', ['touch', 'through'] as const),
  };
}
