// Validation errors name the line and column where the offending value (or the mapping missing a key) was
// written, in YAML and JSON scenario files and in back-test configs, besides the field path.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../src/backtest/config/backtest-config.js';
import { loadScenarioFile } from '../../src/scenario/load-scenario.js';
import { scenarioErrorOf } from './scenario-files.js';
import { runCli } from '../cli/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'propsim-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Line numbers below are counted in this text (line 1 is `name:`).
const SCENARIO = `name: lines
start: 2026-03-02T08:00:00-06:00
plans:
  p:
    starting_balance: "50000"
    risk_profile: { max_drawdown_mode: static, max_drawdown_value: "2000" }
    passing_criteria: { profit_target: "3000" }
accounts:
  - { alias: a, plan: p }
steps:
  - at: 2026-03-02T09:00:00-06:00
  - tick: { instrument: ESM6, price: "5000.00" }
  - order: { ref: o1, account: a, instrument: ESM6, side: buy, quantity: 1, type: market }
  - expect: { order: o1, status: FILLED }
`;

let files = 0;
function write(text: string, ext = 'yaml'): string {
  const path = join(dir, `file-${++files}.${ext}`);
  writeFileSync(path, text);
  return path;
}

describe('scenario validation errors name the line and column', () => {
  it.each<[string, [string, string], number, number, string]>([
    [
      'a bad enum value in a flow mapping',
      ['side: buy', 'side: by'],
      13,
      59,
      'steps[2] (order): side: expected one of buy, sell, got "by"',
    ],
    [
      'an unknown instrument in an order',
      ['instrument: ESM6, side', 'instrument: ESZZ, side'],
      13,
      47,
      'steps[2] (order): instrument: expected a GLOBEX symbol',
    ],
    [
      'a missing required key: the mapping that lacks it',
      ['type: market', 'type: limit'],
      13,
      12,
      'steps[2] (order): limit_price: expected a decimal string (a limit order needs limit_price), got nothing',
    ],
    [
      'a value in a block mapping',
      ['starting_balance: "50000"', 'starting_balance: "-5"'],
      5,
      23,
      'plans.p.starting_balance: expected',
    ],
    ['an unknown top-level key', ['name: lines', 'name: lines\nsed: 3'], 2, 6, 'sed: unknown key'],
    ['an unknown step key', ['  - at: 2026', '  - wait: 5m\n  - at: 2026'], 11, 11, 'steps[0]: wait: unknown step key'],
    [
      'an at step with no value',
      ['  - at: 2026-03-02T09:00:00-06:00', '  - at:'],
      11,
      5,
      'steps[0] (at): expected an ISO 8601 time',
    ],
  ])('%s', (_label, [from, to], line, column, message) => {
    expect(SCENARIO.includes(from), 'the change applies').toBe(true);
    const file = write(SCENARIO.replace(from, to));
    const error = scenarioErrorOf(() => loadScenarioFile(file));
    expect({ line: error.line, column: error.column }, 'where the value was written').toEqual({ line, column });
    expect(error.message).toContain(`${file}:${line}:${column}: ${message}`);
  });

  it('names the line in a JSON scenario too', () => {
    const json = JSON.stringify(
      { name: 'j', start: '2026-03-02T08:00:00-06:00', steps: [{ advance: '5 minutes' }] },
      null,
      2,
    );
    const error = scenarioErrorOf(() => loadScenarioFile(write(json, 'json')));
    // {⏎ "name"⏎ "start"⏎ "steps": [⏎ {⏎ "advance": "5 minutes" is line 6.
    expect(error.message).toMatch(/file-\d+\.json:6:18: steps\[0\] \(advance\): expected a duration/);
  });

  it('a problem with the whole file has no line (nothing in it to point at)', () => {
    const error = scenarioErrorOf(() => loadScenarioFile(write('- just\n- a list\n')));
    expect(error.line).toBeUndefined();
    expect(error.message).toMatch(/file-\d+\.yaml: expected a mapping/);
  });

  it('the built CLI prints the line: file:LINE:COLUMN: steps[i] (kind): field: …, exit 2', () => {
    const file = write(SCENARIO.replace('instrument: ESM6, side', 'instrument: ESZZ, side'));
    const { status, stdout, stderr } = runCli(['replay', file, '--out', join(dir, 'out')]);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      new RegExp(`^propsim replay: ${file}:13:47: steps\\[2\\] \\(order\\): instrument: expected a GLOBEX symbol`),
    );
  });
});

describe('back-test config errors name the line and column', () => {
  const CONFIG = `name: lines
market:
  files: [ { path: ../nowhere.csv, format: ticks, instrument: ESM6 } ]
period: { from: 2026-04-07, to: 2026-04-09 }
traders: { synthetic: { count: 2, strategy: random_bracket } }
base_plan: eval-50k-eod
grid:
  risk_profile.max_drawdown_value: []
`;

  it('a market file path', () => {
    const file = write(CONFIG.replace('max_drawdown_value: []', 'max_drawdown_value: ["1500"]'));
    const error = scenarioErrorOf(() => loadBacktestConfig(file));
    expect(error.message).toContain(`${file}:3:20: market.files[0].path: expected an existing file`);
  });

  it('a grid axis whose key holds dots', () => {
    const file = write(
      CONFIG.replace('../nowhere.csv', JSON.stringify(join(process.cwd(), 'test/backtest/fixtures/esm6-ticks.csv'))),
    );
    const error = scenarioErrorOf(() => loadBacktestConfig(file));
    expect(error.message).toContain(`${file}:8:36: grid.risk_profile.max_drawdown_value: expected a non-empty list`);
  });
});
