// A plan's contract limits read from their checked text (limits-schema.ts) and the account-wide limit they set now
// (docs/risk-rules.md#position-limits): max_contracts, the scaling plan's tier of the trading profit at the last
// session roll, the smaller binding; per-root limits; micros counted in minis by micro_ratio. Money in cents.
import type { Static } from 'typebox';
import { formatCents } from '../money.js';
import { at, FieldError, toCents } from '../validation/input-fields.js';
import type {
  PositionLimitsFile,
  PositionLimitsOverlay as PositionLimitsOverlayText,
  Scaling,
} from './limits-schema.js';

export interface PositionLimits {
  readonly maxContracts?: number;
  /** Root -> most contracts of that root (docs/risk-rules.md#per-root-limits). */
  readonly maxContractsPerRoot?: Readonly<Record<string, number>>;
  /** Micros that count as one mini (docs/risk-rules.md#micros); absent: a micro is a whole contract. */
  readonly microRatio?: number;
}

export interface ScalingTier {
  /** The trading profit at the last session roll from which the tier holds; may be negative. */
  readonly fromProfitCents: number;
  readonly maxContracts: number;
}

/**
 * The tiers in cents, checked: strictly ascending from_profit, the first at or below 0, so a new account (profit 0)
 * stands in a tier of its own rather than below them all.
 */
export function readScaling(text: Static<typeof Scaling>, path: string): readonly ScalingTier[] {
  const tiers = text.map((tier, i) => ({
    fromProfitCents: toCents(tier.from_profit, at(at(path, i), 'from_profit')),
    maxContracts: tier.max_contracts,
  }));
  checkScaling(tiers, path);
  return Object.freeze(tiers.map((tier) => Object.freeze(tier)));
}

export function checkScaling(tiers: readonly ScalingTier[], path: string): void {
  const first = tiers[0]!;
  if (first.fromProfitCents > 0)
    throw new FieldError(
      at(at(path, 0), 'from_profit'),
      `expected the first tier at or below "0", so that a new account's profit of 0.00 has a tier, got "${formatCents(first.fromProfitCents)}"`,
    );
  tiers.forEach((tier, i) => {
    const before = tiers[i - 1];
    if (before !== undefined && tier.fromProfitCents <= before.fromProfitCents)
      throw new FieldError(
        at(at(path, i), 'from_profit'),
        `expected a from_profit above the tier before's "${formatCents(before.fromProfitCents)}" (tiers in ascending order), got "${formatCents(tier.fromProfitCents)}"`,
      );
  });
}

/** position_limits in their plan form; an absent field stays absent. */
export function readPositionLimits(text: Static<typeof PositionLimitsFile> | undefined): PositionLimits {
  if (text === undefined) return {};
  return {
    ...(text.max_contracts === undefined ? {} : { maxContracts: text.max_contracts }),
    ...(text.max_contracts_per_root === undefined
      ? {}
      : { maxContractsPerRoot: perRootLimits(text.max_contracts_per_root) }),
    ...(text.micro_ratio === undefined ? {} : { microRatio: text.micro_ratio }),
  };
}

/** A checked per-root mapping as the plan keeps it: frozen, the roots as written. */
function perRootLimits(text: Readonly<Record<string, number | undefined>>): Readonly<Record<string, number>> {
  return Object.freeze({ ...text }) as Readonly<Record<string, number>>;
}

/** The tier a profit stands in: the last whose from_profit it reaches; below them all, the first (`below`). */
export function scalingTierOf(
  tiers: readonly ScalingTier[],
  profitCents: number,
): { tier: ScalingTier; below: boolean } {
  let found = tiers[0]!;
  for (const tier of tiers) if (tier.fromProfitCents <= profitCents) found = tier;
  return { tier: found, below: profitCents < found.fromProfitCents };
}

/** The account-wide limit now and what sets it: max_contracts, or the scaling plan's tier when that is smaller. */
export type AccountLimit =
  | { readonly by: 'max_contracts'; readonly limit: number }
  | { readonly by: 'scaling'; readonly limit: number; readonly tier: ScalingTier; readonly below: boolean };

/** max_contracts and the scaling tier of the profit at the last roll: the smaller binds, max_contracts on a tie. */
export function accountLimitNow(
  limits: PositionLimits,
  scaling: readonly ScalingTier[] | undefined,
  rollProfitCents: number,
): AccountLimit | undefined {
  const fixed = limits.maxContracts;
  if (scaling === undefined) return fixed === undefined ? undefined : { by: 'max_contracts', limit: fixed };
  const { tier, below } = scalingTierOf(scaling, rollProfitCents);
  if (fixed !== undefined && fixed <= tier.maxContracts) return { by: 'max_contracts', limit: fixed };
  return { by: 'scaling', limit: tier.maxContracts, tier, below };
}

/** The scaling tiers as written (journal inputs, state.json): decimal strings. */
export function scalingJson(tiers: readonly ScalingTier[]): { from_profit: string; max_contracts: number }[] {
  return tiers.map((tier) => ({ from_profit: formatCents(tier.fromProfitCents), max_contracts: tier.maxContracts }));
}

/** position_limits as written. */
export function positionLimitsJson(limits: PositionLimits): Record<string, unknown> {
  return {
    ...(limits.maxContracts === undefined ? {} : { max_contracts: limits.maxContracts }),
    ...(limits.maxContractsPerRoot === undefined ? {} : { max_contracts_per_root: { ...limits.maxContractsPerRoot } }),
    ...(limits.microRatio === undefined ? {} : { micro_ratio: limits.microRatio }),
  };
}

/** A position_limits overlay: each field replaces the plan's, null removes it. */
export interface PositionLimitsOverlay {
  readonly maxContracts?: number | null;
  readonly maxContractsPerRoot?: Readonly<Record<string, number>> | null;
  readonly microRatio?: number | null;
}

export function readPositionLimitsOverlay(text: Static<typeof PositionLimitsOverlayText>): PositionLimitsOverlay {
  const perRoot = text.max_contracts_per_root;
  return {
    ...(text.max_contracts === undefined ? {} : { maxContracts: text.max_contracts }),
    ...(perRoot === undefined ? {} : { maxContractsPerRoot: perRoot === null ? null : perRootLimits(perRoot) }),
    ...(text.micro_ratio === undefined ? {} : { microRatio: text.micro_ratio }),
  };
}

/** The plan's position limits with the overlay's fields over them. */
export function mergePositionLimits(base: PositionLimits, overlay: PositionLimitsOverlay): PositionLimits {
  const merged: Record<string, unknown> = { ...base };
  for (const key of ['maxContracts', 'maxContractsPerRoot', 'microRatio'] as const) {
    const value = overlay[key];
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return merged as PositionLimits;
}
