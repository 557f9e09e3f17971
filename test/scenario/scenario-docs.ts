// Test helpers of the scenario validation tests (invalid-*.test.ts, validation-left-to-run-time.test.ts): a valid
// scenario document to change, the ScenarioError parsing the changed copy throws, and one test per refused change.
// Each test file that imports this gets its own temporary folder (FILE's), removed after its tests.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse-scenario.js';
import { ScenarioError } from '../../src/scenario/scenario-error.js';
import { makeScenarioFolder } from './scenario-files.js';

const folder = makeScenarioFolder();
afterAll(() => rmSync(folder.root, { recursive: true, force: true }));
/** The temporary folder, laid out like a project (scenarios/ next to fixtures/market/). */
export const ROOT = folder.root;
export const FILE = join(folder.root, 'scenarios', 'bad.yaml');

export type Doc = Record<string, unknown>;

/** A valid scenario: steps[0] at, steps[1] tick, steps[2] order o1, steps[3] expect. */
export function valid(): Doc {
  return {
    name: 'table',
    start: '2026-03-02T08:00:00-06:00',
    plans: {
      'eval-50k': {
        starting_balance: '50000',
        risk_profile: { max_drawdown_mode: 'eod_balance', max_drawdown_value: '2000', daily_loss_value: '1000' },
        passing_criteria: { profit_target: '3000' },
      },
    },
    accounts: [{ alias: 'alice', plan: 'eval-50k' }],
    steps: [
      { at: '2026-03-02T09:00:00-06:00' },
      { tick: { instrument: 'ESM6', price: '5000.00' } },
      {
        order: {
          ref: 'o1',
          account: 'alice',
          instrument: 'ESM6',
          side: 'buy',
          quantity: 1,
          type: 'limit',
          limit_price: '4999.75',
        },
      },
      { expect: { account: 'alice', balance: '50000' } },
    ],
  };
}

export function withChange(change: (doc: Doc) => void): Doc {
  const doc = valid();
  change(doc);
  return doc;
}

export function steps(doc: Doc): Doc[] {
  return doc.steps as Doc[];
}

export function printInput(data: Doc): Doc {
  return { input: { time_ms: Date.parse('2026-03-02T15:00:00Z'), type: 'print', data } };
}

export function orderBody(doc: Doc): Doc {
  return steps(doc)[2]?.order as Doc;
}

export function errorOf(doc: Doc): ScenarioError {
  try {
    parseScenario(doc, FILE);
  } catch (error) {
    if (error instanceof ScenarioError) return error;
    throw error;
  }
  throw new Error('expected a ScenarioError');
}

/** A change to the valid scenario, the path of the error it gives and the message after the file name. */
export type Refusal = [label: string, change: (doc: Doc) => void, path: string, message: string];

/** One test a row, `refuses <label>`: the changed scenario is refused at `path` in FILE with `message`. */
export function refuses(rows: Refusal[]): void {
  it.each<Refusal>(rows)('refuses %s', (_label, change, path, message) => {
    const error = errorOf(withChange(change));
    expect(error.path).toBe(path);
    expect(error.file).toBe(FILE);
    expect(error.message).toContain(`${FILE}: ${message}`);
  });
}
