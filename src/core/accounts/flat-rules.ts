// The flat rules of a plan (docs/risk-rules.md#flat-by-a-time, docs/risk-rules.md#no-holding-over-the-weekend):
// risk_profile.flat_by (an exchange time, kept as minutes after midnight in America/Chicago), flat_by_action and
// hold_over_weekend, read from their checked text. Defaults are kept absent (flatten, holding allowed), so a plan
// that writes them journals as one that says nothing, as daily_loss_action does.
import { FieldError } from '../validation/input-fields.js';
import type { FlatByAction } from './timed-rules-schema.js';

export interface FlatRules {
  readonly flatByMinutes?: number;
  readonly flatByAction?: 'fail';
  readonly holdOverWeekend?: false;
}

/** "15:59" → 959; the schema has checked the form. */
export function flatByMinutesOf(text: string): number {
  return Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));
}

/** 959 → "15:59". */
export function flatByText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** `{ flatByAction: 'fail' }` for fail; `{}` for flatten, the default, or absent. */
export function flatByActionOf(action: FlatByAction | undefined): { flatByAction?: 'fail' } {
  return action === 'fail' ? { flatByAction: 'fail' } : {};
}

/** `{ holdOverWeekend: false }` for false; `{}` for true, the default, or absent. */
export function holdOverWeekendOf(hold: boolean | undefined): { holdOverWeekend?: false } {
  return hold === false ? { holdOverWeekend: false } : {};
}

/** The three fields from a plan's checked risk_profile text. */
export function readFlatRules(text: {
  flat_by?: string;
  flat_by_action?: FlatByAction;
  hold_over_weekend?: boolean;
}): FlatRules {
  return {
    ...(text.flat_by === undefined ? {} : { flatByMinutes: flatByMinutesOf(text.flat_by) }),
    ...flatByActionOf(text.flat_by_action),
    ...holdOverWeekendOf(text.hold_over_weekend),
  };
}

/** Whether the plan has a flat time at all: flat_by, or the weekend flat. */
export function hasFlatTime(plan: { readonly riskProfile: FlatRules }): boolean {
  return plan.riskProfile.flatByMinutes !== undefined || plan.riskProfile.holdOverWeekend === false;
}

/** flat_by_action fail needs a flat time to fail at. `blamePath` names the field the error points at. */
export function checkFlatByAction(plan: { readonly riskProfile: FlatRules }, blamePath: string): void {
  if (plan.riskProfile.flatByAction === 'fail' && !hasFlatTime(plan))
    throw new FieldError(
      blamePath,
      'flat_by_action fail needs risk_profile.flat_by or hold_over_weekend false: without a flat time there is nothing to fail at',
    );
}

/** The fields as written (journal inputs, state.json). */
export function flatRulesJson(rules: FlatRules): Record<string, unknown> {
  return {
    ...(rules.flatByMinutes === undefined ? {} : { flat_by: flatByText(rules.flatByMinutes) }),
    ...(rules.flatByAction === undefined ? {} : { flat_by_action: rules.flatByAction }),
    ...(rules.holdOverWeekend === undefined ? {} : { hold_over_weekend: false }),
  };
}
