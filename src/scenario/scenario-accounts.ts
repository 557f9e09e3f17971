// `accounts:` of a scenario: each `{ alias, plan, ...overlays }`. The alias is unique, the plan is a key of
// `plans:`, and the overlays (docs/scenarios.md#accounts-and-overlays) give the account its own copy of the plan.
import { at, checkKeys, fail, readFields, readList } from '../core/accounts/input-fields.js';
import { OVERLAY_KEYS, applyProvisioningOverlay, parseProvisioningOverlay } from '../core/accounts/plan-overlay.js';
import type { PlanTemplate } from '../core/accounts/plans.js';
import { listNames, readName } from './scenario-fields.js';
import type { ScenarioAccount } from './scenario-types.js';

export function parseAccounts(raw: unknown, plans: ReadonlyMap<string, PlanTemplate>): ScenarioAccount[] {
  const seen = new Set<string>();
  return readList(raw, 'accounts', (item, path) => {
    const doc = readFields(item, path, 'a mapping with alias, plan and optional overlays');
    checkKeys(doc, path, ['alias', 'plan', ...OVERLAY_KEYS]);
    const alias = readName(doc.alias, at(path, 'alias'), 'an account alias');
    if (seen.has(alias)) fail(at(path, 'alias'), 'an alias no earlier account uses', alias);
    seen.add(alias);
    const planName = readName(doc.plan, at(path, 'plan'), 'a plan name');
    const template = plans.get(planName);
    if (template === undefined) fail(at(path, 'plan'), `a plan defined under plans (${listNames(plans.keys())})`, planName);
    const overlay = parseProvisioningOverlay(doc, path, ['alias', 'plan']);
    return {
      alias,
      planName,
      plan: applyProvisioningOverlay(template, overlay),
      ...(overlay.pricePaidCents === undefined ? {} : { pricePaidCents: overlay.pricePaidCents }),
    };
  });
}
