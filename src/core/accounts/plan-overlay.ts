// Provisioning overlays (docs/risk-rules.md#provisioning): initial_balance, currency, risk_profile, passing_criteria
// and price_paid sent with an account create. The risk profile and passing criteria overlays are partial and merged
// over the template's; the result is a new template for that account only — the shared template is never touched. In
// an overlay, `null` removes an optional field (max_drawdown_limit, daily_loss_value, min_trading_days,
// consistency_pct).
import { at, checkKeys, readCents, readFields, type Fields } from './input-fields.js';
import {
  PASSING_CRITERIA_KEYS,
  RISK_PROFILE_KEYS,
  checkPlanConsistency,
  freezePlan,
  readConsistencyPct,
  readCurrency,
  readDrawdownMode,
  readMinTradingDays,
  type MaxDrawdownMode,
  type PassingCriteria,
  type PlanTemplate,
  type RiskProfile,
} from './plans.js';

export const OVERLAY_KEYS = ['initial_balance', 'currency', 'risk_profile', 'passing_criteria', 'price_paid'] as const;

/** A partial risk profile; `null` removes an optional field. */
export interface RiskProfileOverlay {
  readonly maxDrawdownMode?: MaxDrawdownMode;
  readonly maxDrawdownValueCents?: number;
  readonly maxDrawdownLimitCents?: number | null;
  readonly dailyLossValueCents?: number | null;
}

/** Partial passing criteria; `null` removes an optional field. */
export interface PassingCriteriaOverlay {
  readonly profitTargetCents?: number;
  readonly minTradingDays?: number | null;
  readonly consistencyPct?: string | null;
}

export interface ProvisioningOverlay {
  /** Where the overlay came from (`accounts[2]`); errors found when applying it are reported there. */
  readonly path: string;
  readonly initialBalanceCents?: number;
  readonly currency?: string;
  readonly riskProfile?: RiskProfileOverlay;
  readonly passingCriteria?: PassingCriteriaOverlay;
  /** Purchase amount, ≥ 0. Not part of the plan: the caller stores it on the account (or splits it). */
  readonly pricePaidCents?: number;
}

/**
 * Validates the overlay fields of a decoded mapping. Keys other than the overlay keys and `otherKeys`
 * (the caller's own, such as `alias` and `plan`) are errors.
 */
export function parseProvisioningOverlay(
  raw: unknown,
  path: string,
  otherKeys: readonly string[] = [],
): ProvisioningOverlay {
  const doc = readFields(raw, path, 'a mapping');
  checkKeys(doc, path, [...otherKeys, ...OVERLAY_KEYS]);
  return {
    path,
    ...(doc.initial_balance === undefined
      ? {}
      : { initialBalanceCents: readCents(doc.initial_balance, at(path, 'initial_balance'), 'positive') }),
    ...(doc.currency === undefined ? {} : { currency: readCurrency(doc.currency, at(path, 'currency')) }),
    ...(doc.risk_profile === undefined
      ? {}
      : { riskProfile: parseRiskProfileOverlay(doc.risk_profile, at(path, 'risk_profile')) }),
    ...(doc.passing_criteria === undefined
      ? {}
      : { passingCriteria: parsePassingOverlay(doc.passing_criteria, at(path, 'passing_criteria')) }),
    ...(doc.price_paid === undefined
      ? {}
      : { pricePaidCents: readCents(doc.price_paid, at(path, 'price_paid'), 'non_negative') }),
  };
}

function parseRiskProfileOverlay(raw: unknown, path: string): RiskProfileOverlay {
  const doc = section(raw, path, RISK_PROFILE_KEYS);
  return {
    ...(doc.max_drawdown_mode === undefined
      ? {}
      : { maxDrawdownMode: readDrawdownMode(doc.max_drawdown_mode, at(path, 'max_drawdown_mode')) }),
    ...(doc.max_drawdown_value === undefined
      ? {}
      : { maxDrawdownValueCents: readCents(doc.max_drawdown_value, at(path, 'max_drawdown_value'), 'positive') }),
    ...nullable(doc.max_drawdown_limit, 'maxDrawdownLimitCents', (v) =>
      readCents(v, at(path, 'max_drawdown_limit'), 'non_negative'),
    ),
    ...nullable(doc.daily_loss_value, 'dailyLossValueCents', (v) =>
      readCents(v, at(path, 'daily_loss_value'), 'positive'),
    ),
  };
}

function parsePassingOverlay(raw: unknown, path: string): PassingCriteriaOverlay {
  const doc = section(raw, path, PASSING_CRITERIA_KEYS);
  return {
    ...(doc.profit_target === undefined
      ? {}
      : { profitTargetCents: readCents(doc.profit_target, at(path, 'profit_target'), 'positive') }),
    ...nullable(doc.min_trading_days, 'minTradingDays', (v) => readMinTradingDays(v, at(path, 'min_trading_days'))),
    ...nullable(doc.consistency_pct, 'consistencyPct', (v) => readConsistencyPct(v, at(path, 'consistency_pct'))),
  };
}

function section(raw: unknown, path: string, keys: readonly string[]): Fields {
  const doc = readFields(raw, path, `a mapping with some of ${keys.join(', ')}`);
  checkKeys(doc, path, keys);
  return doc;
}

/** `{}` when absent, `{ key: null }` when null, else `{ key: read(value) }`. */
function nullable<K extends string, T>(value: unknown, key: K, read: (value: unknown) => T): { [P in K]?: T | null } {
  if (value === undefined) return {};
  return { [key]: value === null ? null : read(value) } as { [P in K]?: T | null };
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
    riskProfile: mergeRiskProfile(template.riskProfile, overlay.riskProfile ?? {}),
    passingCriteria: mergePassingCriteria(template.passingCriteria, overlay.passingCriteria ?? {}),
    positionLimits: { ...template.positionLimits },
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
  return freezePlan(plan);
}

function mergeRiskProfile(base: RiskProfile, overlay: RiskProfileOverlay): RiskProfile {
  const limit = pick(overlay.maxDrawdownLimitCents, base.maxDrawdownLimitCents);
  const daily = pick(overlay.dailyLossValueCents, base.dailyLossValueCents);
  return {
    maxDrawdownMode: overlay.maxDrawdownMode ?? base.maxDrawdownMode,
    maxDrawdownValueCents: overlay.maxDrawdownValueCents ?? base.maxDrawdownValueCents,
    ...(limit === undefined ? {} : { maxDrawdownLimitCents: limit }),
    ...(daily === undefined ? {} : { dailyLossValueCents: daily }),
  };
}

function mergePassingCriteria(base: PassingCriteria, overlay: PassingCriteriaOverlay): PassingCriteria {
  const days = pick(overlay.minTradingDays, base.minTradingDays);
  const pct = pick(overlay.consistencyPct, base.consistencyPct);
  return {
    profitTargetCents: overlay.profitTargetCents ?? base.profitTargetCents,
    ...(days === undefined ? {} : { minTradingDays: days }),
    ...(pct === undefined ? {} : { consistencyPct: pct }),
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
