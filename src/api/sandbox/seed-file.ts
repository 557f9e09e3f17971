// The sandbox seed file (docs/api.md#the-seed-file): the firms `propsim serve` starts with, their API keys, plans,
// staff and demo accounts, and the sandbox's knobs. Read and validated up front, so a bad seed starts nothing; the
// first problem is a ScenarioError naming the file, line, column and field:
//   my-seed.yaml:12:9: firms[0].api_keys[1].role: expected one of operator, viewer, got "admin"
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  FieldError,
  at,
  checkKeys,
  describeValue,
  fail,
  isFields,
  readEnum,
  readFields,
  readInteger,
  readList,
  readString,
  required,
} from '../../core/accounts/input-fields.js';
import { parsePlanTemplate, type PlanTemplate } from '../../core/accounts/plans.js';
import {
  MAX_ACCOUNTS_PER_REQUEST,
  MAX_NAME_LENGTH,
  MAX_PLAN_REFERENCE_LENGTH,
  readEmail,
} from '../../core/accounts/provisioning-request.js';
import { packageRoot } from '../../market/holiday-file.js';
import { DEFAULT_SEED, parseFillModel } from '../../scenario/parse-scenario.js';
import { bundledPlansFolder, findPlanFile } from '../../scenario/plan-files.js';
import { ScenarioError } from '../../scenario/scenario-error.js';
import { listNames, readTimeMs } from '../../scenario/scenario-fields.js';
import type { FillModelConfig } from '../../scenario/scenario-types.js';
import { decodeScenarioSource } from '../../scenario/yaml-source.js';

export type Scope = 'trading:read' | 'trading:write' | 'accounts:read' | 'accounts:write';
export const SCOPES: readonly Scope[] = ['trading:read', 'trading:write', 'accounts:read', 'accounts:write'];

export type KeyRole = 'operator' | 'viewer';
const KEY_ROLES: readonly KeyRole[] = ['operator', 'viewer'];

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

const TOP_KEYS = [
  'platform_admin_keys',
  'firms',
  'start',
  'seed',
  'user_password',
  'rate_limit',
  'risk_load_delay_ms',
  'fill_model',
] as const;
const FIRM_KEYS = ['slug', 'name', 'api_keys', 'plans', 'staff', 'accounts'] as const;
const API_KEY_KEYS = ['key', 'scopes', 'role'] as const;
const STAFF_KEYS = ['email', 'first_name'] as const;
const ACCOUNT_KEYS = ['email', 'plan_reference', 'count', 'first_name', 'last_name'] as const;
const RATE_LIMIT_KEYS = ['per_second', 'burst', 'failed_auth'] as const;
const BUCKET_KEYS = ['per_second', 'burst'] as const;

const KEY_PREFIX = 'svc_live_';
const MIN_KEY_LENGTH = 17;
const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
const SLUG_EXPECTED = 'a slug of 1 to 63 lowercase letters, digits and hyphens, not starting with a hyphen';

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
  const doc = readFields(raw, '', 'a mapping with platform_admin_keys and firms');
  checkKeys(doc, '', TOP_KEYS);
  // Where each key was first given: a key names one caller, so it may appear only once in the whole seed.
  const keys = new Map<string, string>();
  const platformAdminKeys = readList(
    required(doc.platform_admin_keys, 'platform_admin_keys', 'a list of keys'),
    'platform_admin_keys',
    (item, path) => readKey(item, path, keys),
  );
  const slugs = new Set<string>();
  const firms = readList(
    required(doc.firms, 'firms', 'a list of firms'),
    'firms',
    (item, path) => readFirm(item, path, file, keys, slugs),
    { minLength: 1 },
  );
  const startMs = doc.start === undefined ? undefined : readTimeMs(doc.start, 'start');
  return {
    file,
    platformAdminKeys,
    firms,
    ...(startMs === undefined ? {} : { startMs }),
    seed: doc.seed === undefined ? DEFAULT_SEED : readInteger(doc.seed, 'seed', { min: 0 }),
    userPassword: doc.user_password === undefined ? DEFAULT_USER_PASSWORD : readPassword(doc.user_password),
    ...readRateLimits(doc.rate_limit),
    riskLoadDelayMs:
      doc.risk_load_delay_ms === undefined
        ? DEFAULT_RISK_LOAD_DELAY_MS
        : readInteger(doc.risk_load_delay_ms, 'risk_load_delay_ms', { min: 0 }),
    fillModel: parseFillModel(doc.fill_model),
  };
}

function readKey(value: unknown, path: string, seen: Map<string, string>): string {
  if (typeof value !== 'string' || !value.startsWith(KEY_PREFIX) || value.length < MIN_KEY_LENGTH)
    fail(path, `a key starting with "${KEY_PREFIX}" of at least ${MIN_KEY_LENGTH} characters`, value);
  const earlier = seen.get(value);
  if (earlier !== undefined)
    throw new FieldError(path, `${describeValue(value)} is already used at ${earlier}; a key may appear only once`);
  seen.set(value, path);
  return value;
}

function readFirm(raw: unknown, path: string, file: string, keys: Map<string, string>, slugs: Set<string>): SeedFirm {
  const doc = readFields(raw, path, 'a firm mapping with slug, name, api_keys and plans');
  checkKeys(doc, path, FIRM_KEYS);
  const slugPath = at(path, 'slug');
  const slug = required(doc.slug, slugPath, SLUG_EXPECTED);
  if (typeof slug !== 'string' || !SLUG.test(slug)) fail(slugPath, SLUG_EXPECTED, slug);
  if (slugs.has(slug)) fail(slugPath, 'a slug no earlier firm uses', slug);
  slugs.add(slug);
  const name = readString(required(doc.name, at(path, 'name'), 'a non-empty string'), at(path, 'name'));
  const apiKeys = readList(
    required(doc.api_keys, at(path, 'api_keys'), 'a list of keys'),
    at(path, 'api_keys'),
    (item, itemPath) => readApiKey(item, itemPath, keys),
    { minLength: 1 },
  );
  const plans = readPlans(doc.plans, at(path, 'plans'), file);
  const staff = doc.staff === undefined ? [] : readStaff(doc.staff, at(path, 'staff'));
  const accounts =
    doc.accounts === undefined ? [] : readList(doc.accounts, at(path, 'accounts'), (a, p) => readAccount(a, p, plans));
  return { slug, name, apiKeys, plans, staff, accounts };
}

function readApiKey(raw: unknown, path: string, keys: Map<string, string>): SeedApiKey {
  const doc = readFields(raw, path, 'a mapping with key, scopes and role');
  checkKeys(doc, path, API_KEY_KEYS);
  const key = readKey(required(doc.key, at(path, 'key'), 'a key'), at(path, 'key'), keys);
  const scopesPath = at(path, 'scopes');
  const scopes = readList(
    required(doc.scopes, scopesPath, 'a list of scopes'),
    scopesPath,
    (item, itemPath) => readEnum(item, itemPath, SCOPES),
    { minLength: 1 },
  );
  const repeated = scopes.findIndex((scope, i) => scopes.indexOf(scope) !== i);
  if (repeated >= 0) fail(at(scopesPath, repeated), 'a scope not already listed', scopes[repeated]);
  const role = readEnum(
    required(doc.role, at(path, 'role'), `one of ${KEY_ROLES.join(', ')}`),
    at(path, 'role'),
    KEY_ROLES,
  );
  return { key, scopes, role };
}

/** plan_reference → a plan template mapping, or the name of a plan file. */
function readPlans(raw: unknown, path: string, file: string): Map<string, PlanTemplate> {
  const expected = 'a mapping of plan_reference to a plan template or a plan file name';
  const doc = readFields(required(raw, path, expected), path, expected);
  if (Object.keys(doc).length === 0) throw new FieldError(path, `expected ${expected}, got an empty mapping`);
  const plans = new Map<string, PlanTemplate>();
  for (const [reference, value] of Object.entries(doc)) {
    const refPath = at(path, reference);
    readString(reference, refPath, { maxLength: MAX_PLAN_REFERENCE_LENGTH });
    plans.set(reference, readPlan(value, refPath, file));
  }
  return plans;
}

function readPlan(value: unknown, path: string, file: string): PlanTemplate {
  if (isFields(value)) return parsePlanTemplate(value, path);
  if (typeof value !== 'string' || value === '')
    fail(path, 'a plan file name like "eval-50k-eod" or a plan template mapping', value);
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

function readStaff(raw: unknown, path: string): SeedStaff[] {
  const seen = new Set<string>();
  return readList(raw, path, (item, itemPath) => {
    const doc = readFields(item, itemPath, 'a mapping with email and optional first_name');
    checkKeys(doc, itemPath, STAFF_KEYS);
    const emailPath = at(itemPath, 'email');
    const email = readEmail(required(doc.email, emailPath, 'an email address'), emailPath);
    if (seen.has(email)) fail(emailPath, 'an email no earlier staff member of the firm uses', doc.email);
    seen.add(email);
    const firstName = readName(doc.first_name, at(itemPath, 'first_name'));
    return { email, ...(firstName === undefined ? {} : { firstName }) };
  });
}

function readAccount(raw: unknown, path: string, plans: ReadonlyMap<string, PlanTemplate>): SeedAccount {
  const doc = readFields(raw, path, 'a mapping with email and plan_reference');
  checkKeys(doc, path, ACCOUNT_KEYS);
  const email = readEmail(required(doc.email, at(path, 'email'), 'an email address'), at(path, 'email'));
  const refPath = at(path, 'plan_reference');
  const planReference = readString(required(doc.plan_reference, refPath, 'a plan_reference'), refPath);
  if (!plans.has(planReference))
    fail(refPath, `a plan_reference of the firm's plans (${listNames(plans.keys())})`, planReference);
  const count =
    doc.count === undefined ? 1 : readInteger(doc.count, at(path, 'count'), { min: 1, max: MAX_ACCOUNTS_PER_REQUEST });
  const firstName = readName(doc.first_name, at(path, 'first_name'));
  const lastName = readName(doc.last_name, at(path, 'last_name'));
  return {
    email,
    planReference,
    count,
    ...(firstName === undefined ? {} : { firstName }),
    ...(lastName === undefined ? {} : { lastName }),
  };
}

/** An optional person's name, limited as provisioning limits it. */
function readName(value: unknown, path: string): string | undefined {
  return value === undefined ? undefined : readString(value, path, { maxLength: MAX_NAME_LENGTH });
}

function readPassword(value: unknown): string {
  if (typeof value !== 'string' || value.length < 8 || value.length > 128)
    fail('user_password', 'a string of 8 to 128 characters', value);
  return value;
}

function readRateLimits(raw: unknown): Pick<SandboxSeed, 'rateLimit' | 'failedAuthLimit'> {
  const path = 'rate_limit';
  const doc = raw === undefined ? {} : readFields(raw, path, 'a mapping with per_second, burst and failed_auth');
  checkKeys(doc, path, RATE_LIMIT_KEYS);
  const failedPath = at(path, 'failed_auth');
  const failed =
    doc.failed_auth === undefined ? {} : readFields(doc.failed_auth, failedPath, 'a mapping with per_second and burst');
  checkKeys(failed, failedPath, BUCKET_KEYS);
  return {
    rateLimit: readBucket(doc, path, DEFAULT_RATE_LIMIT),
    failedAuthLimit: readBucket(failed, failedPath, DEFAULT_FAILED_AUTH_LIMIT),
  };
}

function readBucket(
  doc: Record<string, unknown>,
  path: string,
  defaults: { perSecond: number; burst: number },
): { perSecond: number; burst: number } {
  return {
    perSecond:
      doc.per_second === undefined ? defaults.perSecond : readPositiveNumber(doc.per_second, at(path, 'per_second')),
    burst: doc.burst === undefined ? defaults.burst : readInteger(doc.burst, at(path, 'burst'), { min: 1 }),
  };
}

/** A rate, so a fraction is fine: 0.5 is one request every two seconds. */
function readPositiveNumber(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) fail(path, 'a number greater than 0', value);
  return value;
}
