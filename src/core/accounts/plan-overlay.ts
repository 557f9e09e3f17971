// Provisioning overlays (docs/risk-rules.md#provisioning): initial_balance, currency, risk_profile,
// passing_criteria, position_limits and price_paid sent with an account create. The risk profile, passing criteria
// and position limits overlays are partial and merged over the template's; the result is a new template for that
// account only — the shared template is never touched. In an overlay, `null` removes an optional field
// (max_drawdown_limit, daily_loss_value, daily_loss_action, scaling, flat_by, flat_by_action, hold_over_weekend, news,
// min_trading_days, consistency_pct, time_limit_days, each position limit). A news overlay's fields replace the
// plan's (its events as a whole).
import { Type, type TSchema } from 'typebox';
import { checkFileValue } from '../validation/file-check.js';
import { Mapping } from '../validation/file-fields.js';
import { at, toCents } from '../validation/input-fields.js';
import { OverlayProperties, type OverlayText } from './plan-schema.js';
import {
  mergePositionLimits,
  readPositionLimitsOverlay,
  readScaling,
  type PositionLimitsOverlay,
  type ScalingTier,
} from './position-limits.js';
import { checkFlatByAction, flatByActionOf, flatByMinutesOf, holdOverWeekendOf } from './flat-rules.js';
import { mergeNewsRule, readNewsOverlay, type NewsRuleOverlay } from './news-rule.js';
import type { FlatByAction } from './timed-rules-schema.js';
import {
  checkDailyLossAction,
  checkPlanConsistency,
  dailyLossActionOf,
  freezePlan,
  type DailyLossAction,
  type MaxDrawdownMode,
  type PassingCriteria,
  type PlanTemplate,
  type RiskProfile,
} from './plans.js';

export const OVERLAY_KEYS = Object.keys(OverlayProperties) as readonly (keyof typeof OverlayProperties)[];

/** A partial risk profile; `null` removes an optional field. */
export interface RiskProfileOverlay {
  readonly maxDrawdownMode?: MaxDrawdownMode;
  readonly maxDrawdownValueCents?: number;
  readonly maxDrawdownLimitCents?: number | null;
  readonly dailyLossValueCents?: number | null;
  readonly scaling?: readonly ScalingTier[] | null;
  readonly dailyLossAction?: DailyLossAction | null;
  readonly flatByMinutes?: number | null;
  readonly flatByAction?: FlatByAction | null;
  readonly holdOverWeekend?: boolean | null;
  readonly news?: NewsRuleOverlay | null;
}

/** Partial passing criteria; `null` removes an optional field. */
export interface PassingCriteriaOverlay {
  readonly profitTargetCents?: number;
  readonly minTradingDays?: number | null;
  readonly consistencyPct?: string | null;
  readonly timeLimitDays?: number | null;
}

export interface ProvisioningOverlay {
  /** Where the overlay came from (`accounts[2]`); errors found when applying it are reported there. */
  readonly path: string;
  readonly initialBalanceCents?: number;
  readonly currency?: string;
  readonly riskProfile?: RiskProfileOverlay;
  readonly passingCriteria?: PassingCriteriaOverlay;
  readonly positionLimits?: PositionLimitsOverlay;
  /** Purchase amount, ≥ 0. Not part of the plan: the caller stores it on the account (or splits it). */
  readonly pricePaidCents?: number;
}

/** The overlay's schema beside the caller's own keys (`alias`, `plan`), which the caller reads. */
const overlaySchemas = new Map<string, TSchema>();

function overlaySchema(otherKeys: readonly string[]): TSchema {
  const key = otherKeys.join(',');
  let schema = overlaySchemas.get(key);
  if (!schema) {
    const others = Object.fromEntries(otherKeys.map((name) => [name, Type.Optional(Type.Unknown())]));
    schema = Mapping({ ...others, ...OverlayProperties }, { expected: 'a mapping' });
    overlaySchemas.set(key, schema);
  }
  return schema;
}

/**
 * Validates the overlay fields of a decoded mapping against their schema (plan-schema.ts) and converts them. Keys
 * other than the overlay keys and `otherKeys` (the caller's own, such as `alias` and `plan`) are errors.
 */
export function parseProvisioningOverlay(
  raw: unknown,
  path: string,
  otherKeys: readonly string[] = [],
): ProvisioningOverlay {
  return overlayOf(checkFileValue(overlaySchema(otherKeys), raw, path) as OverlayText, path);
}

/** An overlay already checked against its schema, converted: money to cents, null kept as "remove". */
export function overlayOf(doc: OverlayText, path: string): ProvisioningOverlay {
  const cents = (value: string, key: string) => toCents(value, at(path, key));
  const risk = doc.risk_profile;
  const passing = doc.passing_criteria;
  return {
    path,
    ...(doc.initial_balance === undefined
      ? {}
      : { initialBalanceCents: cents(doc.initial_balance, 'initial_balance') }),
    ...(doc.currency === undefined ? {} : { currency: doc.currency }),
    ...(risk === undefined
      ? {}
      : {
          riskProfile: {
            ...(risk.max_drawdown_mode === undefined ? {} : { maxDrawdownMode: risk.max_drawdown_mode }),
            ...(risk.max_drawdown_value === undefined
              ? {}
              : { maxDrawdownValueCents: cents(risk.max_drawdown_value, 'risk_profile.max_drawdown_value') }),
            ...nullable(risk.max_drawdown_limit, 'maxDrawdownLimitCents', (v) =>
              cents(v, 'risk_profile.max_drawdown_limit'),
            ),
            ...nullable(risk.daily_loss_value, 'dailyLossValueCents', (v) => cents(v, 'risk_profile.daily_loss_value')),
            ...nullable(risk.scaling, 'scaling', (v) => readScaling(v, at(path, 'risk_profile.scaling'))),
            ...nullable(risk.daily_loss_action, 'dailyLossAction', (v) => v),
            ...nullable(risk.flat_by, 'flatByMinutes', flatByMinutesOf),
            ...nullable(risk.flat_by_action, 'flatByAction', (v) => v),
            ...nullable(risk.hold_over_weekend, 'holdOverWeekend', (v) => v),
            ...nullable(risk.news, 'news', (v) => readNewsOverlay(v, at(path, 'risk_profile.news'))),
          },
        }),
    ...(passing === undefined
      ? {}
      : {
          passingCriteria: {
            ...(passing.profit_target === undefined
              ? {}
              : { profitTargetCents: cents(passing.profit_target, 'passing_criteria.profit_target') }),
            ...nullable(passing.min_trading_days, 'minTradingDays', (v) => v),
            ...nullable(passing.consistency_pct, 'consistencyPct', (v) => v),
            ...nullable(passing.time_limit_days, 'timeLimitDays', (v) => v),
          },
        }),
    ...(doc.position_limits === undefined ? {} : { positionLimits: readPositionLimitsOverlay(doc.position_limits) }),
    ...(doc.price_paid === undefined ? {} : { pricePaidCents: cents(doc.price_paid, 'price_paid') }),
  };
}

/** `{}` when absent, `{ key: null }` when null, else `{ key: convert(value) }`. */
function nullable<K extends string, T, U>(
  value: T | null | undefined,
  key: K,
  convert: (value: T) => U,
): { [P in K]?: U | null } {
  if (value === undefined) return {};
  return { [key]: value === null ? null : convert(value) } as { [P in K]?: U | null };
}

/**
 * A new, frozen template for one account: the overlay merged over `template`. The risk profile and passing
 * criteria are always fresh objects, so no two accounts share them, overlay or not.
 */
export function applyProvisioningOverlay(template: PlanTemplate, overlay: ProvisioningOverlay): PlanTemplate {
  const plan: PlanTemplate = {
    ...template,
    startingBalanceCents: overlay.initialBalanceCents ?? template.startingBalanceCents,
    currency: overlay.currency ?? template.currency,
    riskProfile: mergeRiskProfile(template.riskProfile, overlay.riskProfile ?? {}, overlay.path),
    passingCriteria: mergePassingCriteria(template.passingCriteria, overlay.passingCriteria ?? {}),
    positionLimits: mergePositionLimits(template.positionLimits, overlay.positionLimits ?? {}),
    enabledFamilies: [...template.enabledFamilies],
    tradingSessions: [...template.tradingSessions],
  };
  const blame =
    overlay.riskProfile?.maxDrawdownValueCents !== undefined
      ? at(overlay.path, 'risk_profile.max_drawdown_value')
      : overlay.initialBalanceCents !== undefined
        ? at(overlay.path, 'initial_balance')
        : at(overlay.path, 'plan');
  checkPlanConsistency(plan, blame);
  // A fail without a floor is the overlay's doing: the daily value it removed, or the action it set.
  checkDailyLossAction(
    plan,
    at(
      overlay.path,
      overlay.riskProfile?.dailyLossValueCents === null
        ? 'risk_profile.daily_loss_value'
        : 'risk_profile.daily_loss_action',
    ),
  );
  // A fail without a flat time is the overlay's doing too: the flat_by it removed, the weekend it allowed, or the
  // action it set.
  const risk = overlay.riskProfile;
  checkFlatByAction(
    plan,
    at(
      overlay.path,
      risk?.flatByMinutes === null
        ? 'risk_profile.flat_by'
        : risk?.holdOverWeekend === true || risk?.holdOverWeekend === null
          ? 'risk_profile.hold_over_weekend'
          : 'risk_profile.flat_by_action',
    ),
  );
  return freezePlan(plan);
}

function mergeRiskProfile(base: RiskProfile, overlay: RiskProfileOverlay, path: string): RiskProfile {
  const limit = pick(overlay.maxDrawdownLimitCents, base.maxDrawdownLimitCents);
  const daily = pick(overlay.dailyLossValueCents, base.dailyLossValueCents);
  const scaling = pick(overlay.scaling, base.scaling);
  const flatBy = pick(overlay.flatByMinutes, base.flatByMinutes);
  const news = mergeNewsRule(base.news, overlay.news, at(path, 'risk_profile.news'));
  return {
    maxDrawdownMode: overlay.maxDrawdownMode ?? base.maxDrawdownMode,
    maxDrawdownValueCents: overlay.maxDrawdownValueCents ?? base.maxDrawdownValueCents,
    ...(limit === undefined ? {} : { maxDrawdownLimitCents: limit }),
    ...(daily === undefined ? {} : { dailyLossValueCents: daily }),
    ...(scaling === undefined ? {} : { scaling }),
    ...dailyLossActionOf(pick(overlay.dailyLossAction, base.dailyLossAction)),
    ...(flatBy === undefined ? {} : { flatByMinutes: flatBy }),
    ...flatByActionOf(pick(overlay.flatByAction, base.flatByAction)),
    ...holdOverWeekendOf(pick(overlay.holdOverWeekend, base.holdOverWeekend)),
    ...(news === undefined ? {} : { news }),
  };
}

function mergePassingCriteria(base: PassingCriteria, overlay: PassingCriteriaOverlay): PassingCriteria {
  const days = pick(overlay.minTradingDays, base.minTradingDays);
  const pct = pick(overlay.consistencyPct, base.consistencyPct);
  const limit = pick(overlay.timeLimitDays, base.timeLimitDays);
  return {
    profitTargetCents: overlay.profitTargetCents ?? base.profitTargetCents,
    ...(days === undefined ? {} : { minTradingDays: days }),
    ...(pct === undefined ? {} : { consistencyPct: pct }),
    ...(limit === undefined ? {} : { timeLimitDays: limit }),
  };
}

/** The overlay's value when given (null = removed), else the template's. */
function pick<T>(overlay: T | null | undefined, base: T | undefined): T | undefined {
  if (overlay === null) return undefined;
  return overlay ?? base;
}

/** Parses a decoded overlay and applies it: the account's own plan, and its price_paid when given. */
export function provisionPlan(
  template: PlanTemplate,
  raw: unknown,
  path: string,
  otherKeys: readonly string[] = [],
): { plan: PlanTemplate; pricePaidCents?: number } {
  const overlay = parseProvisioningOverlay(raw, path, otherKeys);
  const plan = applyProvisioningOverlay(template, overlay);
  return overlay.pricePaidCents === undefined ? { plan } : { plan, pricePaidCents: overlay.pricePaidCents };
}
