// `propsim backtest --config FILE` (docs/backtesting.md#the-config-file): the YAML file, validated up front with
// errors that name the field, into a plain, serializable config (cells can be handed to workers as they are).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Static } from 'typebox';
import { at, fail, FieldError, type Fields } from '../../core/validation/input-fields.js';
import { checkFileValue } from '../../core/validation/file-check.js';
import { parsePlanTemplate } from '../../core/accounts/plans.js';
import { Dec } from '../../core/money.js';
import { toCents } from '../../core/validation/input-fields.js';
import { decodeScenarioSource } from '../../scenario/load-scenario.js';
import { findPlanFile, knownPlans } from '../../scenario/plan-files.js';
import { parseMarket } from '../../scenario/scenario-market.js';
import { ScenarioError } from '../../scenario/scenario-error.js';
import { inlineNewsFiles } from '../../scenario/news-files.js';
import { expandGrid, isFundedAxis, planForCell, splitCellValues, type GridAxis } from './grid.js';
import { readFillsFile, type FillsFileSpec } from '../fills/trader-fills.js';
import { isKnownZone } from '../../import/export-time.js';
import { DateOrderError, MissingZoneError } from '../../import/import-input-error.js';
import { dateOrderRefusal } from '../../import/date-order.js';
import type { ImportedFills } from '../../import/import-fills.js';
import { tradersOf } from './trader-roster.js';
import { checkSessionFamily, parseInstruments } from './block-instruments.js';
import { readStrategyParams } from '../traders/strategy-params.js';
import type { BacktestConfig } from './backtest-config-types.js';
import type { SyntheticTraders } from '../traders/strategy.js';
import { BacktestConfigFile } from './backtest-config-schema.js';
import { parseFunnel, type PlanLookup } from './funnel-config.js';
import { parseFillModel as parseScenarioFillModel } from '../../scenario/parse-scenario.js';
import { readKindsFile } from './kinds-config.js';
import { readRecordsFile } from '../validation/records-file.js';
import { checkFillsInPeriod, type FillsWindow } from '../fills/fills-in-period.js';
import { periodTradeDates } from './period-trade-dates.js';

export type { BacktestConfig } from './backtest-config-types.js';

export { MAX_BLOCK_TRADERS } from './backtest-config-schema.js';

type ConfigText = Static<typeof BacktestConfigFile>;

/**
 * Reads and checks the config; what runs but is likely a mistake (a grid value that repeats another) goes to `warn`,
 * as `FILE:LINE:COL: field: what`. A broker export read as the fills gives its import (counts per trader, duplicate
 * warnings) to `imported`, once the whole config is valid, for the caller to tell the user
 * (docs/backtesting.md#importing-broker-exports). `flags` sets the command line's changes on the config, and may
 * refuse them: see parseBacktestConfig.
 */
export function loadBacktestConfig(
  path: string,
  warn: (message: string) => void = () => undefined,
  imported: FillsImported = () => undefined,
  flags: WithFlags = (config) => config,
): BacktestConfig {
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
  // Given once the whole config is valid: an invalid one says only what is wrong.
  const imports: Array<Parameters<FillsImported>> = [];
  const config = source.withPositions(() => {
    try {
      return parseBacktestConfig(source.value, path, (...fillsImport) => imports.push(fillsImport), flags);
    } catch (error) {
      if (error instanceof FieldError)
        throw new ScenarioError(path, error.path, error.path, error.detail, { cause: error });
      throw error;
    }
  });
  for (const fillsImport of imports) imported(...fillsImport);
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
  // Funded axes are not compared (they leave the base plan as it is): each of their values runs.
  for (const axis of grid.filter((a) => !isFundedAxis(a.key))) {
    const seen = new Map<string, number>();
    axis.values.forEach((value, i) => {
      const values = splitCellValues({ ...firstValues, [axis.key]: value }).evaluation;
      const plan = parsePlanTemplate(planForCell(basePlan, values), '');
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

/** A broker export read as the config's fills: what its import gave. */
export type FillsImported = (imported: ImportedFills, spec: FillsFileSpec) => void;

/** The command line's changes to a valid config (`--seed`, `--traders`, `--cells`), which may throw to refuse one. */
export type WithFlags = (config: BacktestConfig) => BacktestConfig;

/**
 * Checks the config against its schema (backtest-config-schema.ts), then what a schema cannot say. `flags` are set
 * before the fills file is read: a refused flag is then all the user is told, and a large export is not read for
 * nothing.
 */
export function parseBacktestConfig(
  raw: unknown,
  file: string,
  fillsImported: FillsImported = () => undefined,
  flags: WithFlags = (config) => config,
): BacktestConfig {
  const checked = checkFileValue(BacktestConfigFile, raw);
  // News files are read beside the config, into its plans as written (a cell's plan carries its events).
  const plans = inlineNewsFiles(checked.plans, dirname(resolve(file)), 'plans');
  const doc = plans === undefined ? checked : { ...checked, plans };
  const period = checkPeriod(doc.period);
  const { basePlan, basePlanName } = parseBasePlan(doc, file);
  const grid = Object.entries(doc.grid ?? {}).map(([key, values]) => ({ key, values }));
  const kindsBlocks = doc.traders.kinds === undefined ? undefined : readKindsFile(doc.traders.kinds, file);
  const config: BacktestConfig = {
    file,
    name: doc.name,
    seed: doc.seed ?? 1,
    market: parseMarket({ files: doc.market.files }, file),
    ...(doc.market.resample === undefined ? {} : { resample: { blockSessions: doc.market.resample.block_sessions } }),
    period,
    synthetic: [...parseSynthetic(doc.traders.synthetic), ...(kindsBlocks ?? [])],
    basePlan,
    basePlanName,
    grid,
    compareTo: doc.compare_to ?? 0,
    economics: parseEconomics(doc.economics, (name) => planByName(doc, file, name)),
    fillModel: parseFillModel(doc.fill_model),
    sampleTraders: doc.sample_traders ?? 20,
  };
  if (config.market.length === 0) fail('market.files', 'at least one market file', []);
  const ownBlocks = config.synthetic.length - (kindsBlocks?.length ?? 0);
  checkSessionFamily(config.market, config.synthetic, (b) =>
    b < ownBlocks
      ? syntheticBlockPath(doc.traders.synthetic, b)
      : `traders.kinds (${doc.traders.kinds!.path} [${b - ownBlocks}])`,
  );
  const { sessions, calendar, family } = periodTradeDates(config, period, 'period', doc.period);
  if (doc.traders.fills !== undefined) {
    if (config.resample)
      fail(
        'market.resample',
        'no resample beside traders.fills: recorded fills happen at their own times and prices, which a resampled tape does not have; run the fills on the real period, or resample with synthetic traders only',
        doc.market.resample,
      );
    config.fills = parseFillsFile(doc.traders.fills, file);
  }
  if (config.synthetic.length === 0 && !config.fills) fail('traders', 'at least one trader', doc.traders);
  checkGridCells(basePlan, grid, config.economics.funnel?.funded?.plan);
  const cells = expandGrid(grid).length;
  if (config.compareTo >= cells) fail('compare_to', `a grid cell index from 0 to ${cells - 1}`, config.compareTo);
  const flagged = flags(config);
  if (doc.traders.fills !== undefined) {
    const tradeDate = (timeMs: number) => calendar.tradeDateOfFamily(timeMs, family);
    checkFillsTraders(flagged, { file: doc.traders.fills.path, period, sessions, tradeDate }, fillsImported);
  }
  return flagged;
}

/** The economics' keys (fees, resets, the funnel's payout rules) that an axis might name, as written in a config. */
const ECONOMICS_AXIS = /^(economics\.|funded\.(payout|activation_fee|plan)(\.|$))/;

/**
 * The grid varies plans: the evaluation plan's fields, and the funded plan's as funded.<field>. An axis over the
 * economics (a payout rule, a fee) is refused by name, not as an unknown plan field (docs/backtesting.md#payout-cadence).
 */
function checkNoEconomicsAxes(grid: readonly GridAxis[]): void {
  const axis = grid.find((a) => ECONOMICS_AXIS.test(a.key));
  if (axis)
    fail(
      at('grid', axis.key),
      'a field of a plan (the evaluation plan, or the funded plan as funded.<field>): the economics, fees and payout ' +
        'rules included, are not grid axes; run one config per value',
      axis.values,
    );
}

/**
 * Every cell's plan must be valid before anything runs. A refusal points at what to fix: the grid value it is about
 * (`grid.<field>[i]`, with its line), or, for a field no axis sets, the cell whose values made the plan invalid.
 */
function checkGridCells(basePlan: Fields, grid: readonly GridAxis[], fundedPlan: Fields | undefined): void {
  checkNoEconomicsAxes(grid);
  for (const cell of expandGrid(grid)) {
    const values = splitCellValues(cell.values);
    const fundedAxis = Object.keys(values.funded)[0];
    if (fundedAxis !== undefined && !fundedPlan)
      fail(at('grid', `funded.${fundedAxis}`), 'economics.funded: a funded.<field> axis varies the funded plan', null);
    try {
      parsePlanTemplate(planForCell(basePlan, values.evaluation), '');
      if (fundedPlan) parsePlanTemplate(planForCell(fundedPlan, values.funded), 'funded');
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

/**
 * The fills file is read now, so a bad row, or a file with nothing in the period, is invalid input found before
 * anything runs (exit 2).
 */
function checkFillsTraders(config: BacktestConfig, window: FillsWindow, fillsImported: FillsImported): void {
  const fills = readFillsOrFail(config.fills!, fillsImported);
  if (fills.length === 0) fail('traders.fills.path', 'a fills file with at least one execution', config.fills!.path);
  const synthetic = new Set(tradersOf(config, []).map((t) => t.id));
  const clash = fills.find((f) => synthetic.has(f.trader));
  if (clash)
    fail('traders.fills.path', `trader ids other than the synthetic traders' (line ${clash.line})`, clash.trader);
  checkFillsInPeriod(fills, window);
  if (config.fills!.records !== undefined) checkRecordedTraders(config.fills!.records, fills);
}

/** Every trader of the records trades in the fills: a name that does not is a typo, or the wrong file. */
function checkRecordedTraders(path: string, fills: readonly { trader: string }[]): void {
  const traders = new Set(fills.map((f) => f.trader));
  const stranger = readRecordsFile(path).find((record) => !traders.has(record.trader));
  if (stranger)
    fail(
      'traders.fills.records',
      `records of the fills file's traders (${path}:${stranger.line}: ${stranger.trader} has no fills)`,
      stranger.trader,
    );
}

/** A broker export whose times need a zone, or whose dates do not show their order, names the config field to set. */
function readFillsOrFail(spec: FillsFileSpec, fillsImported: FillsImported): ReturnType<typeof readFillsFile> {
  try {
    return readFillsFile(spec, (imported) => fillsImported(imported, spec));
  } catch (error) {
    if (error instanceof MissingZoneError)
      fail('traders.fills.tz', `the zone of its times: ${error.message}`, undefined);
    if (error instanceof DateOrderError)
      throw new FieldError(
        'traders.fills.date_order',
        dateOrderRefusal(error, (order) => `date_order: ${order}`),
      );
    throw error;
  }
}

function checkPeriod(period: ConfigText['period']): { from: string; to: string } {
  if (period.to < period.from) fail('period.to', `a date no earlier than period.from (${period.from})`, period.to);
  return { from: period.from, to: period.to };
}

/** `base_plan` names a plan of `plans`, else a plan file (plans/ beside the config, then fixtures/plans). */
function parseBasePlan(doc: ConfigText, file: string): { basePlan: Fields; basePlanName: string } {
  const name = doc.base_plan;
  const plan = planByName(doc, file, name);
  if (typeof plan === 'string') return fail('base_plan', plan, name);
  return { basePlan: plan, basePlanName: name };
}

/** A plan of `plans`, else a plan file; when there is none, a message saying which plans exist. */
function planByName(doc: ConfigText, file: string, name: string): ReturnType<PlanLookup> {
  const plans = doc.plans ?? {};
  // The schema checked each plan's fields; this checks what involves two of them.
  for (const [planName, plan] of Object.entries(plans)) parsePlanTemplate(plan, at('plans', planName));
  return plans[name] ?? findPlanFile(name, file)?.fields ?? knownPlans(Object.keys(plans), file);
}

function parseSynthetic(raw: ConfigText['traders']['synthetic']): SyntheticTraders[] {
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((block, i) => {
    const path = syntheticBlockPath(raw, i);
    const params = block.params ?? {};
    try {
      readStrategyParams(block.strategy, params);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      throw new FieldError(at(path, 'params'), error.message);
    }
    const instruments = parseInstruments(block.instruments, path);
    return {
      count: block.count,
      strategy: block.strategy,
      params: { ...params },
      ...(instruments === undefined ? {} : { instruments }),
    };
  });
}

/** Where block i is written: `traders.synthetic[i]` in a list, `traders.synthetic` for a lone block. */
function syntheticBlockPath(raw: ConfigText['traders']['synthetic'], i: number): string {
  return Array.isArray(raw) ? `traders.synthetic[${i}]` : 'traders.synthetic';
}

function parseFillsFile(doc: NonNullable<ConfigText['traders']['fills']>, file: string): FillsFileSpec {
  const given = doc.path;
  const path = resolve(dirname(resolve(file)), given);
  if (!existsSync(path))
    fail('traders.fills.path', `an existing file (relative to the config's folder; looked for ${path})`, given);
  const { format, tz, date_order: dateOrder } = doc;
  if (tz !== undefined && !isKnownZone(tz)) fail('traders.fills.tz', 'an IANA time zone such as America/Chicago', tz);
  // propsim's fills CSV has ISO times with their offset: a zone or an order of day and month said for it would be
  // ignored.
  if (tz !== undefined && format === undefined)
    fail('traders.fills.tz', "only with traders.fills.format (a broker export): propsim's fills CSV has ISO times", tz);
  if (dateOrder !== undefined && format === undefined)
    fail(
      'traders.fills.date_order',
      "only with traders.fills.format (a broker export): propsim's fills CSV has ISO times",
      dateOrder,
    );
  const records = doc.records === undefined ? undefined : resolve(dirname(resolve(file)), doc.records);
  if (records !== undefined && !existsSync(records))
    fail(
      'traders.fills.records',
      `an existing file (relative to the config's folder; looked for ${records})`,
      doc.records,
    );
  return {
    path,
    ...(format === undefined ? {} : { format }),
    ...(tz === undefined ? {} : { tz }),
    ...(dateOrder === undefined ? {} : { dateOrder }),
    ...(records === undefined ? {} : { records }),
  };
}

/** price_paid and payout_share, or the funnel (funnel-config.ts) when evaluation or funded is written. */
function parseEconomics(doc: ConfigText['economics'], findPlan: PlanLookup): BacktestConfig['economics'] {
  const funnel = doc === undefined ? undefined : parseFunnel(doc, findPlan);
  if (funnel) return { pricePaidCents: 0, payoutShare: '0', funnel };
  return {
    pricePaidCents: doc?.price_paid === undefined ? 0 : toCents(doc.price_paid, 'economics.price_paid'),
    payoutShare: doc?.payout_share === undefined ? '0' : new Dec(doc.payout_share).toFixed(),
  };
}

/** The back-test's fill model: one latency for orders, cancels and modifies. */
function parseFillModel(doc: ConfigText['fill_model']): BacktestConfig['fillModel'] {
  return parseScenarioFillModel(doc);
}
