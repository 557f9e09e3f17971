// Validation of a decoded scenario document (docs/scenarios.md) into a typed Scenario. Everything
// is checked up front, so a bad file runs nothing; the first problem is thrown as a ScenarioError naming the
// file, the field path and what was expected.
import {
  FieldError,
  at,
  checkKeys,
  fail,
  readEnum,
  readFields,
  readInteger,
  readString,
  required,
} from '../core/accounts/input-fields.js';
import { parsePlanTemplates, type PlanTemplate } from '../core/accounts/plans.js';
import { parseSteps } from './parse-steps.js';
import { parseAccounts } from './scenario-accounts.js';
import { scenarioErrorFromField } from './scenario-error.js';
import { readTimeMs } from './scenario-fields.js';
import { parseMarket } from './scenario-market.js';
import { FillModelSection } from './scenario-schema.js';
import { checkFileValue } from '../core/file-check.js';
import type { FillModelConfig, Scenario } from './scenario-types.js';

const TOP_KEYS = [
  'name',
  'description',
  'start',
  'seed',
  'fill_model',
  'risk_load_delay_ms',
  'expect_events_sha256',
  'plans',
  'accounts',
  'market',
  'steps',
] as const;

export const DEFAULT_SEED = 1;

/**
 * Validates an already-decoded scenario. `file` names the source in errors, and relative market file paths
 * are resolved against its folder.
 */
export function parseScenario(doc: unknown, file: string): Scenario {
  try {
    return parseTopLevel(doc, file);
  } catch (error) {
    if (error instanceof FieldError) throw scenarioErrorFromField(file, error);
    throw error;
  }
}

function parseTopLevel(raw: unknown, file: string): Scenario {
  const doc = readFields(raw, '', 'a mapping with name, start and steps');
  checkKeys(doc, '', TOP_KEYS);
  const name = readString(required(doc.name, 'name', 'a non-empty string'), 'name');
  const startMs = readTimeMs(required(doc.start, 'start', 'a time'), 'start');
  const seed = doc.seed === undefined ? DEFAULT_SEED : readInteger(doc.seed, 'seed', { min: 0 });
  const fillModel = parseFillModel(doc.fill_model);
  const plans = new Map<string, PlanTemplate>(doc.plans === undefined ? [] : parsePlanTemplates(doc.plans, 'plans'));
  const accounts = doc.accounts === undefined ? [] : parseAccounts(doc.accounts, plans, file);
  const market = parseMarket(doc.market, file);
  const aliases = new Set(accounts.map((a) => a.alias));
  const steps = parseSteps(required(doc.steps, 'steps', 'a list of steps'), file, aliases, startMs);
  return {
    file,
    name,
    ...(doc.description === undefined ? {} : { description: readString(doc.description, 'description') }),
    startMs,
    seed,
    fillModel,
    ...(doc.risk_load_delay_ms === undefined
      ? {}
      : { riskLoadDelayMs: readInteger(doc.risk_load_delay_ms, 'risk_load_delay_ms', { min: 0 }) }),
    ...(doc.expect_events_sha256 === undefined
      ? {}
      : { expectEventsSha256: readSha256(doc.expect_events_sha256, 'expect_events_sha256') }),
    plans,
    accounts,
    market,
    steps,
  };
}

/** A sha256 as `propsim replay` prints it: 64 lowercase hex digits. */
function readSha256(raw: unknown, path: string): string {
  if (typeof raw !== 'string' || !/^[0-9a-f]{64}$/.test(raw))
    fail(path, 'a sha256 as propsim replay prints it (64 lowercase hex digits)', raw);
  return raw;
}

/** `fill_model` (scenario-schema.ts); cancel_latency_ms and modify_latency_ms default to latency_ms. */
export function parseFillModel(raw: unknown): FillModelConfig {
  const doc = raw === undefined ? {} : checkFileValue(FillModelSection, raw, 'fill_model');
  const latencyMs = doc.latency_ms ?? 0;
  return {
    latencyMs,
    cancelLatencyMs: doc.cancel_latency_ms ?? latencyMs,
    modifyLatencyMs: doc.modify_latency_ms ?? latencyMs,
    slippageTicks: doc.slippage_ticks ?? 0,
    limitFill: doc.limit_fill ?? 'touch',
  };
}
