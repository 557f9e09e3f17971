// A failure file (docs/api.md#the-simulation): the seed, the plan's settings and clients, the shrunk steps and the
// invariant they break, as JSON. `npm run sim -- --replay FILE` runs its steps again, exactly.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SimPlan } from './sim-plan.js';
import type { RunFailure } from './sim-run.js';

export const PLAN_FILE_VERSION = 1;

export interface PlanFile {
  propsim_sim: typeof PLAN_FILE_VERSION;
  seed: number;
  failure?: RunFailure;
  /** How many steps the seed's plan had before it was shrunk. */
  original_steps?: number;
  settings: SimPlan['settings'];
  clients: SimPlan['clients'];
  steps: SimPlan['steps'];
}

export function writePlanFile(
  file: string,
  plan: SimPlan,
  failure: RunFailure | undefined,
  originalSteps: number,
): void {
  mkdirSync(dirname(file), { recursive: true });
  const content: PlanFile = {
    propsim_sim: PLAN_FILE_VERSION,
    seed: plan.seed,
    ...(failure ? { failure } : {}),
    original_steps: originalSteps,
    settings: plan.settings,
    clients: plan.clients,
    steps: plan.steps,
  };
  // One step a line: a person reads the steps, and a diff of two files shows which went.
  const steps = content.steps.map((s) => `    ${JSON.stringify(s)}`).join(',\n');
  const head = JSON.stringify({ ...content, steps: [] }, null, 2).replace(/"steps": \[\]/, `"steps": [\n${steps}\n  ]`);
  writeFileSync(file, `${head}\n`);
}

/** The plan in a failure file; a file that is not one is an Error naming what is wrong. */
export function readPlanFile(file: string): { plan: SimPlan; file: PlanFile } {
  let content: Partial<PlanFile>;
  try {
    content = JSON.parse(readFileSync(file, 'utf8')) as Partial<PlanFile>;
  } catch (error) {
    throw new Error(`${file}: cannot read a simulation file: ${(error as Error).message}`, { cause: error });
  }
  if (content.propsim_sim !== PLAN_FILE_VERSION)
    throw new Error(`${file}: not a simulation file (expected "propsim_sim": ${PLAN_FILE_VERSION})`);
  if (!Array.isArray(content.steps) || !Array.isArray(content.clients) || typeof content.settings !== 'object')
    throw new Error(`${file}: expected "settings", "clients" and "steps"`);
  const plan: SimPlan = {
    seed: Number(content.seed),
    settings: content.settings,
    clients: content.clients,
    steps: content.steps,
  };
  return { plan, file: content as PlanFile };
}
