// `accounts:` of a scenario: each `{ alias, plan, ...overlays }`. The alias is unique, the plan is a key of
// `plans:` or the name of a plan file (plan-files.ts: plans/ beside the scenario, then the bundled
// fixtures/plans), and the overlays (docs/scenarios.md#accounts-and-overlays) give the account its own
// copy of the plan.
import type { Static } from 'typebox';
import { at, fail } from '../core/validation/input-fields.js';
import { applyProvisioningOverlay, overlayOf } from '../core/accounts/plan-overlay.js';
import type { PlanTemplate } from '../core/accounts/plans.js';
import { findPlanFile, knownPlans } from './plan-files.js';
import type { ScenarioTopLevel } from './scenario-schema.js';
import type { ScenarioAccount } from './scenario-types.js';

type AccountText = NonNullable<Static<typeof ScenarioTopLevel>['accounts']>[number];

/**
 * `plans` holds the scenario's own plans; a plan file an account refers to is added to it under its name. The
 * accounts' fields are checked by the scenario's schema; this checks aliases once and plans that exist.
 */
export function parseAccounts(
  list: readonly AccountText[],
  plans: Map<string, PlanTemplate>,
  file: string,
): ScenarioAccount[] {
  const defined = [...plans.keys()];
  const seen = new Set<string>();
  return list.map((doc, i) => {
    const path = at('accounts', i);
    const { alias, plan: planName } = doc;
    if (seen.has(alias)) fail(at(path, 'alias'), 'an alias no earlier account uses', alias);
    seen.add(alias);
    let template = plans.get(planName);
    if (template === undefined) {
      template = findPlanFile(planName, file)?.template;
      if (template === undefined) return fail(at(path, 'plan'), knownPlans(defined, file), planName);
      plans.set(planName, template);
    }
    const overlay = overlayOf(doc, path);
    return {
      alias,
      planName,
      plan: applyProvisioningOverlay(template, overlay),
      ...(overlay.pricePaidCents === undefined ? {} : { pricePaidCents: overlay.pricePaidCents }),
    };
  });
}
