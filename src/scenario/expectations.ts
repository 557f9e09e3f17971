// `expect` steps: read the simulator's state directly and compare field by field (docs/scenarios.md#expect). Decimal
// strings compare by value ("50000" equals "50000.00"); null means the field is absent.
import { Dec } from '../core/money.js';
import { parseTimeMs } from '../core/time.js';
import type { ExpectCheck, ExpectedValue, ExpectStep, Scenario } from './scenario-types.js';

export interface ExpectationResult {
  step: number;
  passed: boolean;
  subject: string;
  field: string;
  expected: ExpectedValue;
  actual: unknown;
  /** Why: the error envelope of a refused operation; for a failed check on an order, its rejection or last status record. */
  detail?: string;
}

/** The fields of one subject as the simulator holds them now; absent fields are missing or null. */
export type SubjectFields = Readonly<Record<string, unknown>>;

export function checkExpectations(step: ExpectStep, subject: string, fields: SubjectFields): ExpectationResult[] {
  return step.checks.map((check) => {
    const actual = fields[check.field] ?? null;
    return {
      step: step.index,
      passed: matches(check, actual),
      subject,
      field: check.field,
      expected: check.expected,
      actual,
    };
  });
}

/**
 * The check a scenario's `expect_events_sha256` asks for (docs/scenarios.md#the-journal): the events.jsonl its run
 * wrote hashes to that. It is counted after the last step; undefined when the scenario asks for none.
 */
export function eventsShaCheck(scenario: Scenario, sha256: string): ExpectationResult | undefined {
  const expected = scenario.expectEventsSha256;
  if (expected === undefined) return undefined;
  const passed = sha256 === expected;
  return {
    step: scenario.steps.length,
    passed,
    subject: 'journal',
    field: 'events_sha256',
    expected,
    actual: sha256,
    ...(passed ? {} : { detail: 'the run wrote other events: another --seed, or a propsim that behaves differently' }),
  };
}

function matches(check: ExpectCheck, actual: unknown): boolean {
  const { expected } = check;
  if (expected === null || actual === null) return expected === actual;
  if (check.field === 'updated_at') return parseTimeMs(expected, 'updated_at') === Date.parse(String(actual));
  if (typeof expected === 'string' && typeof actual === 'string') {
    const a = decimalOrUndefined(expected);
    const b = decimalOrUndefined(actual);
    return a && b ? a.eq(b) : expected === actual;
  }
  return expected === actual;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

function decimalOrUndefined(text: string): InstanceType<typeof Dec> | undefined {
  return DECIMAL.test(text) ? new Dec(text) : undefined;
}
