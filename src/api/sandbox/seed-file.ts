// The sandbox seed file (docs/api.md#the-seed-file): the firms `propsim serve` starts with, their API keys, plans,
// staff and demo accounts, and the sandbox's knobs. Read and validated up front, so a bad seed starts nothing; the
// first problem is a ScenarioError naming the file, line, column and field:
//   my-seed.yaml:12:9: firms[0].api_keys[1].role: expected one of operator, viewer, got "admin"
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Static } from 'typebox';
import { FieldError, at, describeValue, fail } from '../../core/validation/input-fields.js';
import { parsePlanTemplate, type PlanTemplate } from '../../core/accounts/plans.js';
import { checkFileValue } from '../../core/validation/file-check.js';
import { packageRoot } from '../../market/holiday-file.js';
import { DEFAULT_SEED, parseFillModel } from '../../scenario/parse-scenario.js';
import { bundledPlansFolder, findPlanFile } from '../../scenario/plan-files.js';
import { ScenarioError } from '../../scenario/scenario-error.js';
import { inlineNewsFile } from '../../scenario/news-files.js';
import { listNames, readTimeMs } from '../../scenario/scenario-fields.js';
import type { FillModelConfig } from '../../scenario/scenario-types.js';
import { decodeScenarioSource } from '../../scenario/yaml-source.js';
import { type SCOPES, SandboxSeedFile } from './seed-schema.js';

export { SCOPES } from './seed-schema.js';
export type Scope = (typeof SCOPES)[number];
export type KeyRole = 'operator' | 'viewer';

type SeedText = Static<typeof SandboxSeedFile>;
type FirmText = SeedText['firms'][number];

export interface SeedApiKey {
  key: string;
  scopes: readonly Scope[];
  role: KeyRole;
}

export interface SeedStaff {
  /** Lowercase. */
  email: string;
  firstName?: string;
}

/** Accounts provisioned at start, so a trader can log in at once. */
export interface SeedAccount {
  /** Lowercase. */
  email: string;
  /** A key of the firm's `plans`. */
  planReference: string;
  count: number;
  firstName?: string;
  lastName?: string;
}

export interface SeedFirm {
  slug: string;
  name: string;
  apiKeys: SeedApiKey[];
  /** plan_reference → template, in the order written; plan file names are already resolved. */
  plans: ReadonlyMap<string, PlanTemplate>;
  staff: SeedStaff[];
  accounts: SeedAccount[];
}

export interface SandboxSeed {
  /** The file as named to the loader. */
  file: string;
  platformAdminKeys: string[];
  firms: SeedFirm[];
  /** Absent: the server's default start (or --start). */
  startMs?: number;
  seed: number;
  userPassword: string;
  rateLimit: { perSecond: number; burst: number };
  /** Failed authentications per client address (docs/api.md#rate-limits): past the burst, that address waits. */
  failedAuthLimit: { perSecond: number; burst: number };
  riskLoadDelayMs: number;
  fillModel: FillModelConfig;
}

export const DEFAULT_SEED_FILE: string = join(packageRoot(), 'fixtures', 'sandbox-seed.yaml');

const DEFAULT_USER_PASSWORD = 'propsim-sandbox';
const DEFAULT_RATE_LIMIT = { perSecond: 50, burst: 100 } as const;
const DEFAULT_FAILED_AUTH_LIMIT = { perSecond: 1, burst: 30 } as const;
const DEFAULT_RISK_LOAD_DELAY_MS = 250;

/** Reads and validates a seed file (YAML or JSON); every problem is a ScenarioError. */
export function loadSeedFile(file: string): SandboxSeed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ScenarioError(file, '', '', `cannot read the seed file (${code})`, { cause: error });
  }
  const source = decodeScenarioSource(text, file);
  return source.withPositions(() => parseSeed(source.value, file));
}

/** Validates an already-decoded seed; plan file names are resolved beside `file`, then in the bundled plans. */
export function parseSeed(raw: unknown, file: string): SandboxSeed {
  try {
    return readSeed(raw, file);
  } catch (error) {
    if (error instanceof FieldError)
      throw new ScenarioError(file, error.path, error.path, error.detail, { cause: error });
    throw error;
  }
}

function readSeed(raw: unknown, file: string): SandboxSeed {
  const doc = checkFileValue(SandboxSeedFile, raw);
  // Where each key was first given: a key names one caller, so it may appear only once in the whole seed.
  const keys = new Map<string, string>();
  const platformAdminKeys = doc.platform_admin_keys.map((key, i) => useKey(key, at('platform_admin_keys', i), keys));
  const slugs = new Set<string>();
  const firms = doc.firms.map((firm, i) => readFirm(firm, at('firms', i), file, keys, slugs));
  const startMs = doc.start === undefined ? undefined : readTimeMs(doc.start, 'start');
  const failedAuth = doc.rate_limit?.failed_auth;
  return {
    file,
    platformAdminKeys,
    firms,
    ...(startMs === undefined ? {} : { startMs }),
    seed: doc.seed ?? DEFAULT_SEED,
    userPassword: doc.user_password ?? DEFAULT_USER_PASSWORD,
    rateLimit: {
      perSecond: doc.rate_limit?.per_second ?? DEFAULT_RATE_LIMIT.perSecond,
      burst: doc.rate_limit?.burst ?? DEFAULT_RATE_LIMIT.burst,
    },
    failedAuthLimit: {
      perSecond: failedAuth?.per_second ?? DEFAULT_FAILED_AUTH_LIMIT.perSecond,
      burst: failedAuth?.burst ?? DEFAULT_FAILED_AUTH_LIMIT.burst,
    },
    riskLoadDelayMs: doc.risk_load_delay_ms ?? DEFAULT_RISK_LOAD_DELAY_MS,
    fillModel: parseFillModel(doc.fill_model),
  };
}

/** A key may appear only once in the whole seed. */
function useKey(key: string, path: string, seen: Map<string, string>): string {
  const earlier = seen.get(key);
  if (earlier !== undefined)
    throw new FieldError(path, `${describeValue(key)} is already used at ${earlier}; a key may appear only once`);
  seen.set(key, path);
  return key;
}

function readFirm(doc: FirmText, path: string, file: string, keys: Map<string, string>, slugs: Set<string>): SeedFirm {
  if (slugs.has(doc.slug)) fail(at(path, 'slug'), 'a slug no earlier firm uses', doc.slug);
  slugs.add(doc.slug);
  const apiKeys = doc.api_keys.map((apiKey, i) => ({
    key: useKey(apiKey.key, at(at(at(path, 'api_keys'), i), 'key'), keys),
    scopes: apiKey.scopes,
    role: apiKey.role,
  }));
  const plans = new Map<string, PlanTemplate>(
    Object.entries(doc.plans).map(([reference, plan]) => [
      reference,
      readPlan(plan, at(at(path, 'plans'), reference), file),
    ]),
  );
  const staff = readStaff(doc.staff ?? [], at(path, 'staff'));
  const accounts = (doc.accounts ?? []).map((account, i) => readAccount(account, at(at(path, 'accounts'), i), plans));
  return { slug: doc.slug, name: doc.name, apiKeys, plans, staff, accounts };
}

/** A template (its fields checked by the schema, its cross-field rules here), or a plan file by name. */
function readPlan(value: FirmText['plans'][string], path: string, file: string): PlanTemplate {
  // A news file is read beside the seed, into the plan as written (src/scenario/news-files.ts).
  if (typeof value !== 'string') return parsePlanTemplate(inlineNewsFile(value, dirname(resolve(file)), path), path);
  const found = findPlanFile(value, file);
  if (found === undefined) fail(path, planFileChoices(file), value);
  return found.template;
}

/** What a plan file name may be, in the style of plan-files.ts knownPlans (a seed has no plans of its own). */
function planFileChoices(file: string): string {
  const besideFolder = join(dirname(resolve(file)), 'plans');
  const bundled = `a bundled plan (${planNamesIn(bundledPlansFolder()).join(', ')})`;
  // The bundled seed sits beside the bundled plans: list them once.
  if (besideFolder === bundledPlansFolder()) return bundled;
  const beside = planNamesIn(besideFolder);
  return [...(beside.length > 0 ? [`a plan file beside it in plans/ (${beside.join(', ')})`] : []), bundled].join(
    ', or ',
  );
}

function planNamesIn(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => name.endsWith('.yaml'))
      .map((name) => name.slice(0, -'.yaml'.length))
      .sort();
  } catch {
    return [];
  }
}

/** Staff members, each email (any case) once per firm; emails are kept lowercase. */
function readStaff(list: NonNullable<FirmText['staff']>, path: string): SeedStaff[] {
  const seen = new Set<string>();
  return list.map((member, i) => {
    const email = member.email.toLowerCase();
    if (seen.has(email))
      fail(at(at(path, i), 'email'), 'an email no earlier staff member of the firm uses', member.email);
    seen.add(email);
    return { email, ...(member.first_name === undefined ? {} : { firstName: member.first_name }) };
  });
}

function readAccount(
  doc: NonNullable<FirmText['accounts']>[number],
  path: string,
  plans: ReadonlyMap<string, PlanTemplate>,
): SeedAccount {
  if (!plans.has(doc.plan_reference))
    fail(
      at(path, 'plan_reference'),
      `a plan_reference of the firm's plans (${listNames(plans.keys())})`,
      doc.plan_reference,
    );
  return {
    email: doc.email.toLowerCase(),
    planReference: doc.plan_reference,
    count: doc.count ?? 1,
    ...(doc.first_name === undefined ? {} : { firstName: doc.first_name }),
    ...(doc.last_name === undefined ? {} : { lastName: doc.last_name }),
  };
}
