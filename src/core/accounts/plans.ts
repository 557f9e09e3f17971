// Plan templates (docs/risk-rules.md#plan-templates): the product an evaluation account is provisioned from. A
// template is decoded from YAML/JSON (scenario `plans`, back-test configs, the sandbox seed) and validated here;
// every error is a FieldError naming the field path. Money is kept in integer cents. Templates are frozen:
// provisioning never edits a shared template, it builds a new one per account (plan-overlay.ts).
import { formatCents } from '../money.js';
import { PRODUCT_FAMILIES, type ProductFamily, type SessionTemplate } from '../instruments.js';
import { checkFileValue } from '../validation/file-check.js';
import { at, FieldError, readFields, toCents } from '../validation/input-fields.js';
import { readPositionLimits, readScaling, type PositionLimits, type ScalingTier } from './position-limits.js';
import { checkFlatByAction, readFlatRules } from './flat-rules.js';
import { readNewsRule, type NewsRule } from './news-rule.js';

export type { PositionLimits };
import { PlanTemplateFile, TRADING_SESSION_NAMES, type DailyLossAction, type MaxDrawdownMode } from './plan-schema.js';

export { MAX_DRAWDOWN_MODES, type DailyLossAction, type MaxDrawdownMode } from './plan-schema.js';

export const TRADING_SESSIONS: readonly SessionTemplate[] = TRADING_SESSION_NAMES;

export interface RiskProfile {
  readonly maxDrawdownMode: MaxDrawdownMode;
  /** Dollar allowance of the max loss, > 0. */
  readonly maxDrawdownValueCents: number;
  /** Trailing cap as an offset from the starting balance, ≥ 0; kept but ignored by the static mode. */
  readonly maxDrawdownLimitCents?: number;
  /** Daily-loss allowance, > 0; absent when the plan has no daily-loss limit. */
  readonly dailyLossValueCents?: number;
  /** The scaling plan's tiers, ascending (docs/risk-rules.md#scaling-plan); absent: no scaling plan. */
  readonly scaling?: readonly ScalingTier[];
  /** `fail` when a daily-loss breach fails the evaluation; absent for `lock`, the default (kept absent, so a plan
   * that says `lock` journals as one that says nothing: docs/risk-rules.md#daily-loss-that-fails). */
  readonly dailyLossAction?: 'fail';
  /** The flat-by time in minutes after midnight, exchange time (docs/risk-rules.md#flat-by-a-time); absent: none. */
  readonly flatByMinutes?: number;
  /** `fail` when holding a position at a flat time fails the evaluation; absent for `flatten`, the default. */
  readonly flatByAction?: 'fail';
  /** `false` when no position may be held over a weekend (docs/risk-rules.md#no-holding-over-the-weekend); absent
   * for true, the default. */
  readonly holdOverWeekend?: false;
  /** News blackouts (docs/risk-rules.md#news-blackouts); absent: none. */
  readonly news?: NewsRule;
}

export interface PassingCriteria {
  readonly profitTargetCents: number;
  /** Trade dates with a fill needed to pass; absent = no minimum. */
  readonly minTradingDays?: number;
  /** Best day's profit may be at most this % of total profit; decimal string 0 < x ≤ 100, as written. */
  readonly consistencyPct?: string;
  /** Trade dates the evaluation may last, ≥ 1 (docs/risk-rules.md#time-limit); absent = no limit. */
  readonly timeLimitDays?: number;
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

/** Checks a decoded plan template against its schema (plan-schema.ts), then converts it; `path` prefixes every
 * error (`plans.eval-50k`). */
export function parsePlanTemplate(raw: unknown, path: string): PlanTemplate {
  const doc = checkFileValue(PlanTemplateFile, raw, path);
  const field = (key: string) => at(path, key);
  const risk = doc.risk_profile;
  const passing = doc.passing_criteria;
  const plan: PlanTemplate = {
    startingBalanceCents: toCents(doc.starting_balance, field('starting_balance')),
    currency: doc.currency ?? 'USD',
    riskProfile: {
      maxDrawdownMode: risk.max_drawdown_mode,
      maxDrawdownValueCents: toCents(risk.max_drawdown_value, field('risk_profile.max_drawdown_value')),
      ...optionalText(risk.max_drawdown_limit, field('risk_profile.max_drawdown_limit'), 'maxDrawdownLimitCents'),
      ...optionalText(risk.daily_loss_value, field('risk_profile.daily_loss_value'), 'dailyLossValueCents'),
      ...(risk.scaling === undefined ? {} : { scaling: readScaling(risk.scaling, field('risk_profile.scaling')) }),
      ...dailyLossActionOf(risk.daily_loss_action),
      ...readFlatRules(risk),
      ...(risk.news === undefined ? {} : { news: readNewsRule(risk.news, field('risk_profile.news')) }),
    },
    passingCriteria: {
      profitTargetCents: toCents(passing.profit_target, field('passing_criteria.profit_target')),
      ...(passing.min_trading_days === undefined ? {} : { minTradingDays: passing.min_trading_days }),
      ...(passing.consistency_pct === undefined ? {} : { consistencyPct: passing.consistency_pct }),
      ...(passing.time_limit_days === undefined ? {} : { timeLimitDays: passing.time_limit_days }),
    },
    positionLimits: readPositionLimits(doc.position_limits),
    commissionPerContractCents:
      doc.commission_per_contract === undefined
        ? 0
        : toCents(doc.commission_per_contract, field('commission_per_contract')),
    enabledFamilies: doc.enabled_families ?? [...PRODUCT_FAMILIES],
    tradingSessions: [...new Set(doc.trading_sessions ?? TRADING_SESSIONS)],
  };
  checkPlanConsistency(plan, field('risk_profile.max_drawdown_value'));
  checkDailyLossAction(plan, field('risk_profile.daily_loss_action'));
  checkFlatByAction(plan, field('risk_profile.flat_by_action'));
  return freezePlan(plan);
}

/** `{ dailyLossAction: 'fail' }` for fail; `{}` for lock, the default, or absent. */
export function dailyLossActionOf(action: DailyLossAction | undefined): { dailyLossAction?: 'fail' } {
  return action === 'fail' ? { dailyLossAction: 'fail' } : {};
}

/** `{ [key]: cents }` of a checked money string when present, `{}` when absent. */
function optionalText<K extends string>(value: string | undefined, path: string, key: K): { [P in K]?: number } {
  return (value === undefined ? {} : { [key]: toCents(value, path) }) as { [P in K]?: number };
}

/** Validates a decoded mapping of plan name → template (`plans:` of a scenario). */
export function parsePlanTemplates(raw: unknown, path: string): ReadonlyMap<string, PlanTemplate> {
  const doc = readFields(raw, path, 'a mapping of plan name to plan template');
  return new Map(Object.entries(doc).map(([name, value]) => [name, parsePlanTemplate(value, at(path, name))]));
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

/** daily_loss_action fail needs a daily-loss floor to fail on. `blamePath` names the field the error points at. */
export function checkDailyLossAction(plan: PlanTemplate, blamePath: string): void {
  if (plan.riskProfile.dailyLossAction === 'fail' && plan.riskProfile.dailyLossValueCents === undefined) {
    throw new FieldError(
      blamePath,
      'daily_loss_action fail needs risk_profile.daily_loss_value: without a daily-loss floor there is no breach to fail on',
    );
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
