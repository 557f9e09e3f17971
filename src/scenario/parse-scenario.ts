// Validation of a decoded scenario document (docs/scenarios.md) into a typed Scenario. Everything
// is checked up front, so a bad file runs nothing; the first problem is thrown as a ScenarioError naming the
// file, the field path and what was expected.
import { at, FieldError } from '../core/validation/input-fields.js';
import { parsePlanTemplate, type PlanTemplate } from '../core/accounts/plans.js';
import { checkFileValue } from '../core/validation/file-check.js';
import { parseSteps } from './parse-steps.js';
import { parseAccounts } from './scenario-accounts.js';
import { scenarioErrorFromField } from './scenario-error.js';
import { readTimeMs } from './scenario-fields.js';
import { parseMarket, scenarioFolder } from './scenario-market.js';
import { inlineNewsFile, inlineNewsFiles } from './news-files.js';
import { FillModelSection, ScenarioTopLevel } from './scenario-schema.js';
import type { FillModelConfig, Scenario } from './scenario-types.js';

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

/** Checks the file against its schema (scenario-schema.ts), then reads what depends on more than one field. */
function parseTopLevel(raw: unknown, file: string): Scenario {
  const doc = checkFileValue(ScenarioTopLevel, raw);
  const startMs = readTimeMs(doc.start, 'start');
  // News files are read beside the scenario, into the plans and overlays as written (news-files.ts).
  const folder = scenarioFolder(file);
  const plans = new Map<string, PlanTemplate>(
    Object.entries(inlineNewsFiles(doc.plans, folder, 'plans') ?? {}).map(([name, plan]) => [
      name,
      parsePlanTemplate(plan, `plans.${name}`),
    ]),
  );
  const written = (doc.accounts ?? []).map((account, i) => inlineNewsFile(account, folder, at('accounts', i)));
  const accounts = parseAccounts(written, plans, file);
  const market = parseMarket(doc.market, file);
  const aliases = new Set(accounts.map((a) => a.alias));
  const steps = parseSteps(doc.steps, file, aliases, startMs);
  return {
    file,
    name: doc.name,
    ...(doc.description === undefined ? {} : { description: doc.description }),
    startMs,
    seed: doc.seed ?? DEFAULT_SEED,
    fillModel: parseFillModel(doc.fill_model),
    ...(doc.risk_load_delay_ms === undefined ? {} : { riskLoadDelayMs: doc.risk_load_delay_ms }),
    ...(doc.expect_events_sha256 === undefined ? {} : { expectEventsSha256: doc.expect_events_sha256 }),
    plans,
    accounts,
    market,
    steps,
  };
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
