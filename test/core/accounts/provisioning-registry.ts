// A provisioning registry for the provisioning tests: two firms (acme-prop and beta-prop), each offering eval-50k
// (plan-documents.ts's basePlan), ids from a readable counter, and shorthands for a refusal and a result's account ids.
import { parsePlanTemplate, type PlanTemplate } from '../../../src/core/accounts/plans.js';
import { Provisioning, type ProvisionResult } from '../../../src/core/accounts/provisioning.js';
import { CommandRefusal } from '../../../src/core/outcome.js';
import { basePlan } from './plan-documents.js';

export const NOW_MS = 1_772_460_000_000;

function template(): PlanTemplate {
  return parsePlanTemplate(basePlan(), 'plans.eval-50k');
}

/** Readable deterministic ids: 00000000-0000-4000-8000-000000000001, …002, … */
function counterIds(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
}

export function setup(): { reg: Provisioning; shared: PlanTemplate; newId: () => string } {
  const reg = new Provisioning();
  const shared = template();
  reg.registerFirm({ firmId: 'firm-a', slug: 'acme-prop', name: 'Acme Prop' }, new Map([['eval-50k', shared]]));
  reg.registerFirm({ firmId: 'firm-b', slug: 'beta-prop', name: 'Beta Prop' }, new Map([['eval-50k', template()]]));
  return { reg, shared, newId: counterIds() };
}

export const ANN = { email: 'Ann@Example.com', first_name: 'Ann' };

export function refusal(fn: () => unknown): CommandRefusal {
  try {
    fn();
  } catch (error) {
    if (error instanceof CommandRefusal) return error;
    throw error;
  }
  throw new Error('expected a CommandRefusal');
}

export function ids(result: ProvisionResult): string[] {
  return result.accounts.map((a) => a.accountId);
}
