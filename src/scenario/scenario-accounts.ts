// `accounts:` of a scenario: each `{ alias, plan, ...overlays }`. The alias is unique, the plan is a key of
// `plans:` or the name of a plan file (plan-files.ts: plans/ beside the scenario, then the bundled
// fixtures/plans), and the overlays (docs/scenarios.md#accounts-and-overlays) give the account its own
// copy of the plan.
import { at, checkKeys, fail, readFields, readList } from '../core/accounts/input-fields.js';
import { OVERLAY_KEYS, applyProvisioningOverlay, parseProvisioningOverlay } from '../core/accounts/plan-overlay.js';
import type { PlanTemplate } from '../core/accounts/plans.js';
import { findPlanFile, knownPlans } from './plan-files.js';
import { readName } from './scenario-fields.js';
import type { ScenarioAccount } from './scenario-types.js';

/** `plans` holds the scenario's own plans; a plan file an account refers to is added to it under its name. */
export function parseAccounts(raw: unknown, plans: Map<string, PlanTemplate>, file: string): ScenarioAccount[] {
  const defined = [...plans.keys()];
  const seen = new Set<string>();
  return readList(raw, 'accounts', (item, path) => {
    const doc = readFields(item, path, 'a mapping with alias, plan and optional overlays');
    checkKeys(doc, path, ['alias', 'plan', ...OVERLAY_KEYS]);
    const alias = readName(doc.alias, at(path, 'alias'), 'an account alias');
    if (seen.has(alias)) fail(at(path, 'alias'), 'an alias no earlier account uses', alias);
    seen.add(alias);
    const planName = readName(doc.plan, at(path, 'plan'), 'a plan name');
    let template = plans.get(planName);
    if (template === undefined) {
      template = findPlanFile(planName, file)?.template;
      if (template === undefined) return fail(at(path, 'plan'), knownPlans(defined, file), planName);
      plans.set(planName, template);
    }
    const overlay = parseProvisioningOverlay(doc, path, ['alias', 'plan']);
    return {
      alias,
      planName,
      plan: applyProvisioningOverlay(template, overlay),
      ...(overlay.pricePaidCents === undefined ? {} : { pricePaidCents: overlay.pricePaidCents }),
    };
  });
}
