// Plan templates (docs/risk-rules.md#plan-templates): the product an evaluation account is provisioned from. A
// template is decoded from YAML/JSON (scenario `plans`, back-test configs, the sandbox seed) and validated here;
// every error is a FieldError naming the field path. Money is kept in integer cents. Templates are frozen:
// provisioning never edits a shared template, it builds a new one per account (plan-overlay.ts).
import { formatCents } from '../money.js';
import { PRODUCT_FAMILIES, type ProductFamily, type SessionTemplate } from '../instruments.js';
import {
  at,
  checkKeys,
  fail,
  FieldError,
  readCents,
  readDecimal,
  readEnum,
  readFields,
  readInteger,
  readList,
  required,
  type Fields,
} from './input-fields.js';

export const MAX_DRAWDOWN_MODES = ['static', 'realtime_balance', 'realtime_equity', 'eod_balance'] as const;
export type MaxDrawdownMode = (typeof MAX_DRAWDOWN_MODES)[number];

export const TRADING_SESSIONS: readonly SessionTemplate[] = ['cme_globex'];

export interface RiskProfile {
  readonly maxDrawdownMode: MaxDrawdownMode;
  /** Dollar allowance of the max loss, > 0. */
  readonly maxDrawdownValueCents: number;
  /** Trailing cap as an offset from the starting balance, ≥ 0; kept but ignored by the static mode. */
  readonly maxDrawdownLimitCents?: number;
  /** Daily-loss allowance, > 0; absent when the plan has no daily-loss limit. */
  readonly dailyLossValueCents?: number;
}

export interface PassingCriteria {
  readonly profitTargetCents: number;
  /** Trade dates with a fill needed to pass; absent = no minimum. */
  readonly minTradingDays?: number;
  /** Best day's profit may be at most this % of total profit; decimal string 0 < x ≤ 100, as written. */
  readonly consistencyPct?: string;
}

export interface PositionLimits {
  readonly maxContracts?: number;
}

export interface PlanTemplate {
  readonly startingBalanceCents: number;
  /** ISO 4217 code, three uppercase letters; default USD. */
  readonly currency: string;
  readonly riskProfile: RiskProfile;
  readonly passingCriteria: PassingCriteria;
  readonly positionLimits: PositionLimits;
  /** Charged per contract per side; default 0. */
  readonly commissionPerContractCents: number;
  readonly enabledFamilies: readonly ProductFamily[];
  readonly tradingSessions: readonly SessionTemplate[];
}

export const PLAN_KEYS = [
  'starting_balance',
  'currency',
  'risk_profile',
  'passing_criteria',
  'position_limits',
  'commission_per_contract',
  'enabled_families',
  'trading_sessions',
] as const;
export const RISK_PROFILE_KEYS = [
  'max_drawdown_mode',
  'max_drawdown_value',
  'max_drawdown_limit',
  'daily_loss_value',
] as const;
export const PASSING_CRITERIA_KEYS = ['profit_target', 'min_trading_days', 'consistency_pct'] as const;
const POSITION_LIMIT_KEYS = ['max_contracts'] as const;

/** Validates a decoded plan template; `path` prefixes every error (`plans.eval-50k`). */
export function parsePlanTemplate(raw: unknown, path: string): PlanTemplate {
  const doc = readFields(raw, path, 'a plan mapping with starting_balance, risk_profile and passing_criteria');
  checkKeys(doc, path, PLAN_KEYS);
  const plan: PlanTemplate = {
    startingBalanceCents: readCents(
      required(doc.starting_balance, at(path, 'starting_balance'), 'a decimal string'),
      at(path, 'starting_balance'),
      'positive',
    ),
    currency: doc.currency === undefined ? 'USD' : readCurrency(doc.currency, at(path, 'currency')),
    riskProfile: parseRiskProfile(doc.risk_profile, at(path, 'risk_profile')),
    passingCriteria: parsePassingCriteria(doc.passing_criteria, at(path, 'passing_criteria')),
    positionLimits: parsePositionLimits(doc.position_limits, at(path, 'position_limits')),
    commissionPerContractCents:
      doc.commission_per_contract === undefined
        ? 0
        : readCents(doc.commission_per_contract, at(path, 'commission_per_contract'), 'non_negative'),
    enabledFamilies:
      doc.enabled_families === undefined
        ? [...PRODUCT_FAMILIES]
        : readFamilies(doc.enabled_families, at(path, 'enabled_families')),
    tradingSessions:
      doc.trading_sessions === undefined
        ? [...TRADING_SESSIONS]
        : readSessions(doc.trading_sessions, at(path, 'trading_sessions')),
  };
  checkPlanConsistency(plan, at(path, 'risk_profile.max_drawdown_value'));
  return freezePlan(plan);
}

/** Validates a decoded mapping of plan name → template (`plans:` of a scenario). */
export function parsePlanTemplates(raw: unknown, path: string): ReadonlyMap<string, PlanTemplate> {
  const doc = readFields(raw, path, 'a mapping of plan name to plan template');
  return new Map(Object.entries(doc).map(([name, value]) => [name, parsePlanTemplate(value, at(path, name))]));
}

function parseRiskProfile(raw: unknown, path: string): RiskProfile {
  const doc = readSection(raw, path, RISK_PROFILE_KEYS, 'a mapping with max_drawdown_mode and max_drawdown_value');
  return {
    maxDrawdownMode: readDrawdownMode(
      required(doc.max_drawdown_mode, at(path, 'max_drawdown_mode'), modeList()),
      at(path, 'max_drawdown_mode'),
    ),
    maxDrawdownValueCents: readCents(
      required(doc.max_drawdown_value, at(path, 'max_drawdown_value'), 'a decimal string'),
      at(path, 'max_drawdown_value'),
      'positive',
    ),
    ...optionalCents(doc.max_drawdown_limit, at(path, 'max_drawdown_limit'), 'non_negative', 'maxDrawdownLimitCents'),
    ...optionalCents(doc.daily_loss_value, at(path, 'daily_loss_value'), 'positive', 'dailyLossValueCents'),
  };
}

function parsePassingCriteria(raw: unknown, path: string): PassingCriteria {
  const doc = readSection(raw, path, PASSING_CRITERIA_KEYS, 'a mapping with profit_target');
  return {
    profitTargetCents: readCents(
      required(doc.profit_target, at(path, 'profit_target'), 'a decimal string'),
      at(path, 'profit_target'),
      'positive',
    ),
    ...(doc.min_trading_days === undefined
      ? {}
      : { minTradingDays: readMinTradingDays(doc.min_trading_days, at(path, 'min_trading_days')) }),
    ...(doc.consistency_pct === undefined
      ? {}
      : { consistencyPct: readConsistencyPct(doc.consistency_pct, at(path, 'consistency_pct')) }),
  };
}

function parsePositionLimits(raw: unknown, path: string): PositionLimits {
  if (raw === undefined) return {};
  const doc = readSection(raw, path, POSITION_LIMIT_KEYS, 'a mapping with max_contracts');
  return doc.max_contracts === undefined
    ? {}
    : { maxContracts: readInteger(doc.max_contracts, at(path, 'max_contracts'), { min: 1 }) };
}

function readSection(raw: unknown, path: string, keys: readonly string[], expected: string): Fields {
  const doc = readFields(required(raw, path, expected), path, expected);
  checkKeys(doc, path, keys);
  return doc;
}

function modeList(): string {
  return `one of ${MAX_DRAWDOWN_MODES.join(', ')}`;
}

export function readDrawdownMode(value: unknown, path: string): MaxDrawdownMode {
  return readEnum(value, path, MAX_DRAWDOWN_MODES);
}

export function readCurrency(value: unknown, path: string): string {
  if (typeof value !== 'string' || !/^[A-Z]{3}$/.test(value))
    fail(path, 'a three-letter currency code like "USD"', value);
  return value;
}

export function readMinTradingDays(value: unknown, path: string): number {
  return readInteger(value, path, { min: 0 });
}

/** A percentage 0 < x ≤ 100 as a decimal string (at most 4 places), kept as written. */
export function readConsistencyPct(value: unknown, path: string): string {
  const pct = readDecimal(value, path, { maxPlaces: 4, sign: 'positive' });
  if (pct.greaterThan(100)) fail(path, 'a percentage greater than 0 and at most 100', value);
  return value as string;
}

/** `{ [key]: cents }` when the value is present, `{}` when absent. */
export function optionalCents<K extends string>(
  value: unknown,
  path: string,
  sign: 'positive' | 'non_negative',
  key: K,
): { [P in K]?: number } {
  if (value === undefined) return {};
  return { [key]: readCents(value, path, sign) } as { [P in K]?: number };
}

function readFamilies(value: unknown, path: string): readonly ProductFamily[] {
  const families = readList(value, path, (item, itemPath) => readEnum(item, itemPath, PRODUCT_FAMILIES), {
    minLength: 1,
  });
  const repeated = families.findIndex((f, i) => families.indexOf(f) !== i);
  if (repeated >= 0) fail(at(path, repeated), 'a product family not already listed', families[repeated]);
  return families;
}

function readSessions(value: unknown, path: string): readonly SessionTemplate[] {
  const sessions = readList(value, path, (item, itemPath) => readEnum(item, itemPath, TRADING_SESSIONS), {
    minLength: 1,
  });
  return [...new Set(sessions)];
}

/**
 * Checks rules that involve more than one field: the max-loss allowance must be below the starting balance,
 * so the floor is above zero. `blamePath` names the field the error points at.
 */
export function checkPlanConsistency(plan: PlanTemplate, blamePath: string): void {
  const allowanceCents = plan.riskProfile.maxDrawdownValueCents;
  if (allowanceCents >= plan.startingBalanceCents) {
    const detail = `max_drawdown_value ${formatCents(allowanceCents)} must be below the starting balance ${formatCents(plan.startingBalanceCents)}, so that the max-loss floor is above zero`;
    throw new FieldError(blamePath, detail);
  }
}

/** Freezes a template and its parts, so a shared template cannot be edited by one account. */
export function freezePlan(plan: PlanTemplate): PlanTemplate {
  Object.freeze(plan.riskProfile);
  Object.freeze(plan.passingCriteria);
  Object.freeze(plan.positionLimits);
  Object.freeze(plan.enabledFamilies);
  Object.freeze(plan.tradingSessions);
  return Object.freeze(plan);
}
