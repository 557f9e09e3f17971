// Validation of `steps`: each a mapping with exactly one step key, plus `expect_status` on the steps that
// answer with a status. Steps are checked in order, so a ref must be placed before it is used and `at` never
// moves the clock back. A step's FieldErrors become ScenarioErrors that name the step index and type:
// `steps[4] (order): limit_price: …`.
import { FieldError, fail, isFields } from '../core/validation/input-fields.js';
import { checkFileValue } from '../core/validation/file-check.js';
import { chicagoIso } from '../core/calendar/dates.js';
import { parseExpect } from './expect-step.js';
import { parseFirmControl } from './firm-control-steps.js';
import { parseInput } from './input-step.js';
import { scenarioErrorInStep } from './scenario-error.js';
import { readDurationMs, readHttpStatus, readTimeMs } from './scenario-fields.js';
import {
  FIRM_CONTROL_KINDS,
  STATUS_STEP_KINDS,
  STEP_KINDS,
  type FirmControlKind,
  type HttpStatus,
  type ScenarioStep,
  type StepKind,
} from './scenario-types.js';
import { stepCheckOf } from './step-schemas.js';
import { newStepContext, type StepContext, type StepInput } from './step-context.js';
import { parseCancel, parseFill, parseModify, parseOco, parseOrder, parseTick } from './trading-steps.js';

const STEP_LIST = STEP_KINDS.join(', ');

export function parseSteps(raw: unknown, file: string, accounts: ReadonlySet<string>, startMs: number): ScenarioStep[] {
  if (!Array.isArray(raw)) fail('steps', 'a list of steps', raw);
  const ctx = newStepContext(accounts, raw, startMs);
  return raw.map((item: unknown, index: number) => {
    try {
      return parseStep(item, index, ctx);
    } catch (error) {
      if (error instanceof FieldError) throw scenarioErrorInStep(file, index, stepKindOf(item), error);
      throw error;
    }
  });
}

/** The step's kind when the mapping has exactly one step key. */
function stepKindOf(item: unknown): StepKind | undefined {
  if (!isFields(item)) return undefined;
  const kinds = Object.keys(item).filter(isStepKind);
  return kinds.length === 1 ? kinds[0] : undefined;
}

function isStepKind(key: string): key is StepKind {
  return (STEP_KINDS as readonly string[]).includes(key);
}

function parseStep(item: unknown, index: number, ctx: StepContext): ScenarioStep {
  if (!isFields(item)) fail('', `a mapping with one step key (${STEP_LIST})`, item);
  const keys = Object.keys(item);
  const unknown = keys.find((key) => key !== 'expect_status' && !isStepKind(key));
  if (unknown !== undefined)
    throw new FieldError(unknown, `unknown step key; expected one of ${STEP_LIST} (plus expect_status)`);
  const kinds = keys.filter(isStepKind);
  const [kind] = kinds;
  if (kind === undefined || kinds.length > 1) {
    throw new FieldError(
      '',
      `expected exactly one step key (${STEP_LIST}), got ${kinds.length === 0 ? 'none' : kinds.join(' and ')}`,
    );
  }
  const { body, status } = liftExpectStatus(kind, item[kind], item.expect_status);
  const expectStatus = readStepStatus(kind, status);
  // The body's keys, types and ranges (step-schemas.ts); the readers below check what depends on earlier steps.
  const check = stepCheckOf(kind, expectStatus !== undefined);
  if (check) checkFileValue(check, { [kind]: body });
  const input: StepInput = { index, path: kind, ctx, ...(expectStatus === undefined ? {} : { expectStatus }) };
  return parseBody(kind, body, input);
}

/** `expect_status` may stand beside the step key or inside its mapping (`cancel: { ref: o1, expect_status: 409 }`). */
function liftExpectStatus(kind: StepKind, body: unknown, beside: unknown): { body: unknown; status: unknown } {
  if (!isFields(body) || !('expect_status' in body)) return { body, status: beside };
  if (beside !== undefined)
    throw new FieldError(`${kind}.expect_status`, 'expect_status once, beside the step key or inside it, not both');
  const { expect_status: status, ...rest } = body;
  return { body: rest, status };
}

function readStepStatus(kind: StepKind, value: unknown): HttpStatus | undefined {
  if (value === undefined) return undefined;
  if (!STATUS_STEP_KINDS.includes(kind)) {
    throw new FieldError(
      'expect_status',
      `not allowed on ${kind === 'at' || kind === 'advance' || kind === 'expect' ? 'an' : 'a'} ${kind} step; only on ${STATUS_STEP_KINDS.join(', ')}`,
    );
  }
  return readHttpStatus(value, 'expect_status');
}

function parseBody(kind: StepKind, body: unknown, s: StepInput): ScenarioStep {
  switch (kind) {
    case 'at':
      return parseAt(body, s);
    case 'advance': {
      const durationMs = readDurationMs(body, s.path);
      s.ctx.nowMs += durationMs;
      return { index: s.index, kind, timeMs: s.ctx.nowMs, durationMs };
    }
    case 'tick':
      return parseTick(body, s);
    case 'fill':
      return parseFill(body, s);
    case 'order':
      return parseOrder(body, s);
    case 'modify':
      return parseModify(body, s);
    case 'cancel':
      return parseCancel(body, s);
    case 'oco':
      return parseOco(body, s);
    case 'input':
      return parseInput(body, s);
    case 'expect':
      return parseExpect(body, s);
    default:
      if (isFirmControl(kind)) return parseFirmControl(kind, body, s);
      throw new Error(`unhandled step kind ${kind}`);
  }
}

function isFirmControl(kind: StepKind): kind is FirmControlKind {
  return (FIRM_CONTROL_KINDS as readonly string[]).includes(kind);
}

function parseAt(body: unknown, s: StepInput): ScenarioStep {
  const atMs = readTimeMs(body, s.path);
  if (atMs < s.ctx.nowMs)
    fail(
      s.path,
      `a time no earlier than the simulated clock at this step (${chicagoIso(s.ctx.nowMs)} CT): the clock never moves back`,
      body,
    );
  s.ctx.nowMs = atMs;
  return { index: s.index, kind: 'at', timeMs: atMs, atMs };
}
