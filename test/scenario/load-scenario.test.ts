import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTimeMs } from '../../src/core/time.js';
import { decodeScenarioText, loadScenarioFile } from '../../src/scenario/load-scenario.js';
import { plainJsonValue } from '../../src/scenario/yaml-source.js';
import type { ScenarioStep } from '../../src/scenario/scenario-types.js';
import { EVERY_STEP_EXAMPLE, makeScenarioFolder, scenarioErrorOf } from './scenario-files.js';

const folder = makeScenarioFolder();
afterAll(() => rmSync(folder.root, { recursive: true, force: true }));

const ms = (iso: string): number => Date.parse(iso);
const T0900 = ms('2026-03-02T15:00:00Z');
const T0930 = ms('2026-03-02T15:30:00Z');

describe('scenario files: an example with every key and step (docs/scenarios.md)', () => {
  const file = folder.write('scenarios/example.yaml', EVERY_STEP_EXAMPLE);
  const scenario = loadScenarioFile(file);

  it('reads the top-level settings', () => {
    expect(scenario.name).toBe('eod trailing floor');
    expect(scenario.file).toBe(file);
    expect(scenario.startMs).toBe(ms('2026-03-02T14:00:00Z'));
    expect(scenario.seed).toBe(7);
    expect(scenario.fillModel).toEqual({
      latencyMs: 0,
      cancelLatencyMs: 0,
      modifyLatencyMs: 0,
      slippageTicks: 0,
      limitFill: 'touch',
    });
  });

  it('reads plans and accounts, each account with its own copy of the plan', () => {
    const plan = scenario.plans.get('eval-50k');
    expect(plan?.riskProfile).toEqual({
      maxDrawdownMode: 'eod_balance',
      maxDrawdownValueCents: 200_000,
      maxDrawdownLimitCents: 0,
      dailyLossValueCents: 100_000,
    });
    expect(scenario.accounts).toHaveLength(1);
    const [alice] = scenario.accounts;
    expect(alice).toMatchObject({ alias: 'alice', planName: 'eval-50k' });
    expect(alice?.plan).toEqual(plan);
    expect(alice?.plan.riskProfile).not.toBe(plan?.riskProfile);
  });

  it('resolves market file paths against the scenario folder', () => {
    expect(scenario.market).toEqual([{ path: join(folder.root, 'fixtures/market/es-sample.csv'), format: 'ticks' }]);
  });

  it('types every step, in order, with the simulated time it runs at', () => {
    const expected: ScenarioStep[] = [
      { index: 0, kind: 'at', timeMs: T0900, atMs: T0900 },
      { index: 1, kind: 'advance', timeMs: T0930, durationMs: 1_800_000 },
      { index: 2, kind: 'tick', timeMs: T0930, instrument: 'ESM6', price: '5000.00', size: 3 },
      {
        index: 3,
        kind: 'fill',
        timeMs: T0930,
        account: 'alice',
        instrument: 'ESM6',
        side: 'buy',
        quantity: 1,
        price: '5000.00',
      },
      {
        index: 4,
        kind: 'order',
        timeMs: T0930,
        ref: 'o1',
        account: 'alice',
        instrument: 'ESM6',
        side: 'buy',
        quantity: 2,
        orderType: 'limit',
        limitPrice: '4999.75',
        tif: 'day',
      },
      { index: 5, kind: 'modify', timeMs: T0930, ref: 'o1', limitPrice: '4999.50' },
      { index: 6, kind: 'cancel', timeMs: T0930, ref: 'o1' },
      {
        index: 7,
        kind: 'order',
        timeMs: T0930,
        ref: 'o2',
        account: 'alice',
        instrument: 'ESM6',
        side: 'sell',
        quantity: 1,
        orderType: 'limit',
        limitPrice: '5010.00',
        tif: 'day',
      },
      {
        index: 8,
        kind: 'order',
        timeMs: T0930,
        ref: 'o3',
        account: 'alice',
        instrument: 'ESM6',
        side: 'sell',
        quantity: 1,
        orderType: 'stop',
        stopPrice: '4990.00',
        tif: 'gtc',
      },
      { index: 9, kind: 'oco', timeMs: T0930, group: 'g1', action: 'link', refs: ['o2', 'o3'] },
      {
        index: 10,
        kind: 'lockout',
        timeMs: T0930,
        account: 'alice',
        body: { reason_code: 'review' },
        args: { reasonCode: 'review', flatten: false },
      },
      { index: 11, kind: 'unlock', timeMs: T0930, account: 'alice', body: {}, args: {} },
      { index: 12, kind: 'flatten', timeMs: T0930, account: 'alice', body: {}, args: {} },
      {
        index: 13,
        kind: 'adjust',
        timeMs: T0930,
        account: 'alice',
        body: { amount: '-250.00', reason_code: 'fee' },
        args: { amountCents: -25_000, reasonCode: 'fee', shiftFloors: true },
      },
      {
        index: 14,
        kind: 'daily_loss_trigger',
        timeMs: T0930,
        account: 'alice',
        body: { daily_loss_limit_trigger: '49500', reason_code: 'ops' },
        args: { dailyLossLimitTriggerCents: 4_950_000, reasonCode: 'ops' },
      },
      {
        index: 15,
        kind: 'reanchor',
        timeMs: T0930,
        account: 'alice',
        body: { reason_code: 'ops' },
        args: { reasonCode: 'ops' },
      },
      {
        index: 16,
        kind: 'max_loss_limit',
        timeMs: T0930,
        account: 'alice',
        body: { max_drawdown_limit: '100' },
        args: { maxDrawdownLimitCents: 10_000 },
      },
      {
        index: 17,
        kind: 'expect',
        timeMs: T0930,
        subject: { kind: 'account', account: 'alice' },
        checks: [
          { field: 'balance', expected: '50000' },
          { field: 'max_loss_limit_trigger', expected: '48000' },
          { field: 'is_locked', expected: false },
          { field: 'account_status', expected: 'active' },
        ],
      },
      {
        index: 18,
        kind: 'expect',
        timeMs: T0930,
        subject: { kind: 'order', ref: 'o1' },
        checks: [{ field: 'status', expected: 'CANCELLED' }],
      },
      {
        index: 19,
        kind: 'expect',
        timeMs: T0930,
        subject: { kind: 'position', account: 'alice', instrument: 'ESM6' },
        checks: [
          { field: 'net_quantity', expected: 1 },
          { field: 'average_price', expected: '5000' },
        ],
      },
    ];
    expect(scenario.steps).toEqual(expected);
  });

  it('reads the same scenario written as JSON', () => {
    const json = folder.write(
      'scenarios/example.json',
      JSON.stringify(decodeScenarioText(EVERY_STEP_EXAMPLE, 'x.yaml'), null, '\t'),
    );
    const fromJson = loadScenarioFile(json);
    expect(fromJson.steps).toEqual(scenario.steps);
    expect(fromJson.market).toEqual(scenario.market);
    expect(fromJson.startMs).toBe(scenario.startMs);
  });
});

describe('docs/scenarios.md#large-scenarios-as-json: a JSON scenario is read by JSON.parse', () => {
  const examples = readdirSync('scenarios')
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => decodeScenarioText(readFileSync(join('scenarios', name), 'utf8'), name));

  it('to the value the YAML path gives the same text (every example scenario, as JSON)', () => {
    for (const example of [...examples, decodeScenarioText(EVERY_STEP_EXAMPLE, 'x.yaml')]) {
      const json = JSON.stringify(example, null, 2);
      const fast = plainJsonValue(json);
      expect(fast, 'JSON.parse took it').toBeDefined();
      // A comment first makes it YAML that is not JSON: the YAML path decodes it.
      expect(fast).toEqual(decodeScenarioText(`# as YAML\n${json}`, 'x.yaml'));
    }
  });

  it('leaves to the YAML path what is not JSON, a key written twice (refused there, with its line) and __proto__', () => {
    expect(plainJsonValue('name: a\n')).toBeUndefined();
    expect(plainJsonValue('{ name: a }'), 'YAML flow, not JSON').toBeUndefined();
    expect(plainJsonValue('"a string"'), 'not an object or array').toBeUndefined();
    expect(plainJsonValue('{"steps": [{"a": 1}], "name": "x"}')).toEqual({ steps: [{ a: 1 }], name: 'x' });
    const twice = '{\n  "name": "a",\n  "steps": [{"at": "x", "at": "y"}]\n}';
    expect(plainJsonValue(twice), 'JSON.parse would keep the last').toBeUndefined();
    expect(scenarioErrorOf(() => decodeScenarioText(twice, 'dup.json')).message).toMatch(
      /^dup\.json:3:25: invalid YAML \(DUPLICATE_KEY\)/,
    );
    expect(plainJsonValue('{"a": "say \\"b\\": c", "b": 1}'), 'a colon after an escaped quote is not a key').toEqual({
      a: 'say "b": c',
      b: 1,
    });
    expect(plainJsonValue('{"dir": "C:\\\\", "b": 1}'), 'a string that ends in an escaped backslash').toEqual({
      dir: 'C:\\',
      b: 1,
    });
    expect(plainJsonValue('{"__proto__": {"x": 1}}')).toBeUndefined();
  });

  it('takes any JSON object or array a script writes (each key once), however spaced, as JSON.parse reads it', () => {
    const written = fc.tuple(
      fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue())),
      fc.constantFrom(undefined, 1, 2, '\t'),
    );
    fc.assert(
      fc.property(written, ([value, space]) => {
        const text = JSON.stringify(value, null, space);
        fc.pre(!text.includes('"__proto__"'));
        expect(plainJsonValue(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('still names the line and column of a field a validation refuses', () => {
    const scenario = JSON.parse(JSON.stringify(decodeScenarioText(EVERY_STEP_EXAMPLE, 'x.yaml'))) as {
      steps: Array<Record<string, unknown>>;
    };
    scenario.steps[0] = { advance: 'soon' };
    const file = folder.write('scenarios/refused.json', JSON.stringify(scenario, null, 2));
    const error = scenarioErrorOf(() => loadScenarioFile(file));
    expect(error.message, error.message).toMatch(/refused\.json:\d+:\d+: steps\[0\] \(advance\)/);
  });
});

describe('scenario files: YAML decoding keeps times as written', () => {
  it('leaves an unquoted ISO time a string, which parseTimeMs reads in its own offset', () => {
    const doc = decodeScenarioText('start: 2026-03-02T08:00:00-06:00\nday: 2026-03-02\n', 'x.yaml') as Record<
      string,
      unknown
    >;
    expect(doc.start).toBe('2026-03-02T08:00:00-06:00');
    expect(doc.day).toBe('2026-03-02');
    expect(parseTimeMs(doc.start, 'start')).toBe(ms('2026-03-02T14:00:00Z'));
  });

  it('does so even under a %YAML 1.1 directive', () => {
    const doc = decodeScenarioText('%YAML 1.1\n---\nstart: 2026-03-02T08:00:00-06:00\n', 'x.yaml') as Record<
      string,
      unknown
    >;
    expect(doc.start).toBe('2026-03-02T08:00:00-06:00');
  });

  it('refuses an explicit !!timestamp tag instead of making a Date', () => {
    const error = scenarioErrorOf(() =>
      decodeScenarioText('name: x\nstart: !!timestamp 2026-03-02T08:00:00-06:00\n', 'x.yaml'),
    );
    expect(error.message).toMatch(/^x\.yaml:2:8: invalid YAML \(TAG_RESOLVE_FAILED\)/);
  });

  it('reports a syntax error with its line and column', () => {
    const file = folder.write(
      'bad.yaml',
      'name: x\nstart: 2026-03-02T08:00:00-06:00\nsteps:\n  - tick: { instrument: ESM6, price: "1"\n  - advance: 1m\n',
    );
    const error = scenarioErrorOf(() => loadScenarioFile(file));
    expect(error.line).toBe(5);
    expect(error.column).toBeGreaterThan(0);
    expect(error.message.startsWith(`${file}:5:${error.column}: invalid YAML (`), error.message).toBe(true);
  });

  it('reports a duplicate key with its line', () => {
    const error = scenarioErrorOf(() => decodeScenarioText('name: a\nname: b\n', 'dup.yaml'));
    expect(error.message).toMatch(/^dup\.yaml:2:1: invalid YAML \(DUPLICATE_KEY\): Map keys must be unique/);
  });

  it('names a file that cannot be read', () => {
    expect(scenarioErrorOf(() => loadScenarioFile('/nonexistent/s.yaml')).message).toBe(
      '/nonexistent/s.yaml: cannot read the scenario file (ENOENT)',
    );
  });
});
