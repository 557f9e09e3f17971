// Plans by reference. A plan name that the file's own `plans:` does not define is looked up as a file, in
// order: `plans/<name>.yaml` beside the scenario or back-test config, then propsim's bundled
// `fixtures/plans/<name>.yaml`, found from the package root (not the working folder), so
// `accounts: [{ alias: a, plan: eval-50k-eod }]` works from anywhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FieldError, readFields, type Fields } from '../core/validation/input-fields.js';
import { parsePlanTemplate, type PlanTemplate } from '../core/accounts/plans.js';
import { packageRoot } from '../market/holiday-file.js';
import { ScenarioError } from './scenario-error.js';
import { listNames } from './scenario-fields.js';
import { decodeScenarioSource } from './yaml-source.js';
import { inlineNewsFile } from './news-files.js';

export interface PlanFile {
  path: string;
  /** The template as written (decimal strings): back-test grids set values on it by dotted path. */
  fields: Fields;
  template: PlanTemplate;
}

/** A name, never a path: no folder separators, no leading dot. */
const PLAN_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function bundledPlansFolder(): string {
  return join(packageRoot(), 'fixtures', 'plans');
}

function besideFolder(file: string): string {
  return join(dirname(resolve(file)), 'plans');
}

/** The plan file `name` refers to from `file`, read and validated (an invalid one names its own line). */
export function findPlanFile(name: string, file: string): PlanFile | undefined {
  return findPlanFileIn(name, dirname(resolve(file)));
}

/**
 * The plan file `name` refers to from a folder: its plans/, then the bundled plans (`calibrate --plan` looks from the
 * working folder).
 */
export function findPlanFileIn(name: string, folder: string): PlanFile | undefined {
  if (!PLAN_FILE_NAME.test(name)) return undefined;
  for (const plans of [join(folder, 'plans'), bundledPlansFolder()]) {
    const path = join(plans, `${name}.yaml`);
    if (existsSync(path)) return readPlanFile(path);
  }
  return undefined;
}

function readPlanFile(path: string): PlanFile {
  const source = decodeScenarioSource(readFileSync(path, 'utf8'), path);
  return source.withPositions(() => {
    try {
      // A news file is read beside the plan file, into the plan as written (news-files.ts).
      const fields = inlineNewsFile(readFields(source.value, '', 'a plan template'), dirname(path), '');
      return { path, fields, template: parsePlanTemplate(fields, '') };
    } catch (error) {
      if (error instanceof FieldError)
        throw new ScenarioError(path, error.path, error.path, error.detail, { cause: error });
      throw error;
    }
  });
}

/** What a plan name may be, for a message: the file's own plans, plan files beside it, the bundled plans. */
export function knownPlans(defined: Iterable<string>, file: string): string {
  const beside = planNamesIn(besideFolder(file));
  return [
    `a plan defined under plans (${listNames(defined)})`,
    ...(beside.length > 0 ? [`a plan file beside it in plans/ (${beside.join(', ')})`] : []),
    `a bundled plan (${planNamesIn(bundledPlansFolder()).join(', ')})`,
  ].join(', or ');
}

/** The plan names of a folder's YAML files, sorted. */
export function planNamesIn(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => name.endsWith('.yaml'))
      .map((name) => name.slice(0, -'.yaml'.length))
      .filter((name) => PLAN_FILE_NAME.test(name))
      .sort();
  } catch {
    return [];
  }
}
