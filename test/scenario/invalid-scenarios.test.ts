import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse-scenario.js';
import { ScenarioError } from '../../src/scenario/scenario-error.js';
import { makeScenarioFolder } from './scenario-files.js';

const folder = makeScenarioFolder();
afterAll(() => rmSync(folder.root, { recursive: true, force: true }));
const FILE = join(folder.root, 'scenarios', 'bad.yaml');

type Doc = Record<string, unknown>;

/** A valid scenario: steps[0] at, steps[1] tick, steps[2] order o1, steps[3] expect. */
function valid(): Doc {
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

function withChange(change: (doc: Doc) => void): Doc {
  const doc = valid();
  change(doc);
  return doc;
}

function steps(doc: Doc): Doc[] {
  return doc.steps as Doc[];
}

function printInput(data: Doc): Doc {
  return { input: { time_ms: Date.parse('2026-03-02T15:00:00Z'), type: 'print', data } };
}

function orderBody(doc: Doc): Doc {
  return steps(doc)[2]?.order as Doc;
}

function errorOf(doc: Doc): ScenarioError {
  try {
    parseScenario(doc, FILE);
  } catch (error) {
    if (error instanceof ScenarioError) return error;
    throw error;
  }
  throw new Error('expected a ScenarioError');
}

describe('scenario validation: every error names the step, its type and the field', () => {
  it('accepts the base scenario of the table', () => {
    expect(parseScenario(valid(), FILE).steps).toHaveLength(4);
  });

  it.each<[string, (doc: Doc) => void, string, string]>([
    ['missing name', (d) => delete d.name, 'name', 'name: expected a non-empty string (required), got nothing'],
    [
      'a start without an offset',
      (d) => (d.start = '2026-03-02T08:00:00'),
      'start',
      'start: expected an ISO 8601 time with an offset or Z',
    ],
    [
      'an unknown top-level key',
      (d) => (d.sed = 3),
      'sed',
      'sed: unknown key; expected one of name, description, start',
    ],
    [
      'an unknown step key',
      (d) => steps(d).splice(1, 0, { wait: '5m' }),
      'steps[1].wait',
      'steps[1]: wait: unknown step key; expected one of at, advance, tick',
    ],
    [
      'two step keys in one step',
      (d) => (steps(d)[1] = { at: '2026-03-02T10:00:00-06:00', advance: '1m' }),
      'steps[1]',
      'steps[1]: expected exactly one step key (at, advance, tick, fill, order, modify, cancel, oco, lockout, unlock, flatten, adjust, daily_loss_trigger, reanchor, max_loss_limit, expect, input), got at and advance',
    ],
    [
      'a limit order without limit_price',
      (d) => delete orderBody(d).limit_price,
      'steps[2].order.limit_price',
      'steps[2] (order): limit_price: expected a decimal string (a limit order needs limit_price), got nothing',
    ],
    [
      'a market order with a limit_price',
      (d) => (orderBody(d).type = 'market'),
      'steps[2].order.limit_price',
      'steps[2] (order): limit_price: expected no limit_price on a market order (only limit and stop_limit orders take one), got "4999.75"',
    ],
    [
      'a stop order without stop_price',
      (d) => Object.assign(orderBody(d), { type: 'stop', limit_price: undefined }),
      'steps[2].order.stop_price',
      'steps[2] (order): stop_price: expected a decimal string (a stop order needs stop_price), got nothing',
    ],
    [
      'quantity 0',
      (d) => (orderBody(d).quantity = 0),
      'steps[2].order.quantity',
      'steps[2] (order): quantity: expected an integer of at least 1, got the number 0',
    ],
    [
      'quantity 1.5',
      (d) => (orderBody(d).quantity = 1.5),
      'steps[2].order.quantity',
      'steps[2] (order): quantity: expected an integer of at least 1, got the number 1.5',
    ],
    [
      'quantity as a string',
      (d) => (orderBody(d).quantity = '1'),
      'steps[2].order.quantity',
      'steps[2] (order): quantity: expected an integer of at least 1, got "1"',
    ],
    [
      'a limit price that is not a decimal',
      (d) => (orderBody(d).limit_price = '4999,75'),
      'steps[2].order.limit_price',
      'steps[2] (order): limit_price: expected a decimal string with at most 9 decimal places, like "5000.25", got "4999,75"',
    ],
    [
      'a price written as a YAML number',
      (d) => (steps(d)[1] = { tick: { instrument: 'ESM6', price: 5000.25 } }),
      'steps[1].tick.price',
      'steps[1] (tick): price: expected a decimal string with at most 9 decimal places, like "5000.25", got the number 5000.25 (quote it: "5000.25")',
    ],
    [
      'a tick on an unknown root',
      (d) => (steps(d)[1] = { tick: { instrument: 'XXM6', price: '1' } }),
      'steps[1].tick.instrument',
      'steps[1] (tick): instrument: expected a GLOBEX symbol like ESM6 or a bare root like ES: instrument "XXM6": unknown root "XX"',
    ],
    [
      'an order on an unknown root, like a tick',
      (d) => (orderBody(d).instrument = 'ZZZ9'),
      'steps[2].order.instrument',
      'steps[2] (order): instrument: expected a GLOBEX symbol like ESM6 or a bare root like ES: instrument "ZZZ9": unknown root "ZZ"; known roots: ES MES',
    ],
    [
      'a tick price too large to be exact in integer ticks',
      (d) => (steps(d)[1] = { tick: { instrument: 'ESM6', price: '99999999999999999999999.25' } }),
      'steps[1].tick.price',
      'steps[1] (tick): price: expected a price below 2^53 ticks of 0.25, got "99999999999999999999999.25"',
    ],
    [
      'an unknown account alias',
      (d) => (orderBody(d).account = 'bob'),
      'steps[2].order.account',
      'steps[2] (order): account: expected an account alias declared under accounts ("alice"), got "bob"',
    ],
    [
      'an unknown account alias among many: the first ten are listed, and how many there are',
      (d) => {
        d.accounts = Array.from({ length: 1200 }, (_, i) => ({ alias: `a${i}`, plan: 'eval-50k' }));
        orderBody(d).account = 'bob';
      },
      'steps[2].order.account',
      'steps[2] (order): account: expected an account alias declared under accounts ("a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", … (1,200 in all)), got "bob"',
    ],
    [
      'a modify of an unknown ref',
      (d) => steps(d).push({ modify: { ref: 'o9', quantity: 2 } }),
      'steps[4].modify.ref',
      'steps[4] (modify): ref: expected the ref of an order placed by an earlier step (placed so far: "o1"), got "o9"',
    ],
    [
      'a modify before its order',
      (d) => steps(d).splice(2, 0, { modify: { ref: 'o1', quantity: 2 } }),
      'steps[2].modify.ref',
      'steps[2] (modify): ref: expected the ref of an order placed by an earlier step ("o1" is placed later, by steps[3]), got "o1"',
    ],
    [
      'a modify that changes nothing',
      (d) => steps(d).push({ modify: { ref: 'o1' } }),
      'steps[4].modify',
      'steps[4] (modify): expected at least one change: quantity, limit_price or stop_price',
    ],
    [
      'a duplicate order ref',
      (d) => steps(d).push({ order: { ...orderBody(d) } }),
      'steps[4].order.ref',
      'steps[4] (order): ref: expected a ref no earlier order step uses (steps[2] places "o1"), got "o1"',
    ],
    [
      'an oco of one order in a new group',
      (d) => steps(d).push({ oco: { group: 'g', orders: ['o1'] } }),
      'steps[4].oco.orders',
      'steps[4] (oco): orders: expected at least 2 order refs to link a new group "g"',
    ],
    [
      'an expect with an unknown field',
      (d) => (steps(d)[3] = { expect: { account: 'alice', bal: '1' } }),
      'steps[3].expect.bal',
      'steps[3] (expect): bal: unknown field for an account expectation; expected one of account_id, max_drawdown_mode, max_drawdown_value',
    ],
    [
      'an expect with two subjects',
      (d) => (steps(d)[3] = { expect: { account: 'alice', order: 'o1', status: 'FILLED' } }),
      'steps[3].expect',
      'steps[3] (expect): expected exactly one subject (account, order or position), got account and order',
    ],
    [
      'an expect with no field to check',
      (d) => (steps(d)[3] = { expect: { order: 'o1' } }),
      'steps[3].expect',
      'steps[3] (expect): expected at least one field to check, one of status, quantity',
    ],
    [
      'an expected balance written as a number',
      (d) => (steps(d)[3] = { expect: { account: 'alice', balance: 50000 } }),
      'steps[3].expect.balance',
      'steps[3] (expect): balance: expected a decimal string with at most 12 decimal places, like "5000.25", got the number 50000 (quote it: "50000")',
    ],
    [
      'an unknown order status',
      (d) => (steps(d)[3] = { expect: { order: 'o1', status: 'DONE' } }),
      'steps[3].expect.status',
      'steps[3] (expect): status: expected one of SUBMITTED, PARTIALLY_FILLED, FILLED, CANCELLED, REJECTED, EXPIRED, got "DONE"',
    ],
    [
      'expect_status on an at step',
      (d) => (steps(d)[0] = { at: '2026-03-02T09:00:00-06:00', expect_status: 409 }),
      'steps[0].expect_status',
      'steps[0] (at): expect_status: not allowed on an at step; only on order, modify, cancel, oco, lockout',
    ],
    [
      'expect_status 418',
      (d) => steps(d).push({ lockout: { account: 'alice' }, expect_status: 418 }),
      'steps[4].expect_status',
      'steps[4] (lockout): expect_status: expected an HTTP status, one of 200, 201, 202, 400, 403, 404, 409, 421, 429, 502, 503, got the number 418',
    ],
    [
      'an at that moves the clock back',
      (d) => steps(d).push({ at: '2026-03-02T08:30:00-06:00' }),
      'steps[4].at',
      'steps[4] (at): expected a time no earlier than the simulated clock at this step (2026-03-02T09:00:00.000-06:00 CT): the clock never moves back, got "2026-03-02T08:30:00-06:00"',
    ],
    [
      'a bad duration',
      (d) => steps(d).push({ advance: '5 minutes' }),
      'steps[4].advance',
      'steps[4] (advance): expected a duration like 250ms, 15s, 30m, 2h or 1d, got "5 minutes"',
    ],
    [
      'a fill in the future',
      (d) =>
        steps(d).push({
          fill: {
            account: 'alice',
            instrument: 'ESM6',
            side: 'buy',
            quantity: 1,
            price: '1',
            at: '2026-03-02T10:00:00-06:00',
          },
        }),
      'steps[4].fill.at',
      'steps[4] (fill): at: expected a time no later than the simulated clock at this step (2026-03-02T09:00:00.000-06:00 CT), got "2026-03-02T10:00:00-06:00"',
    ],
    [
      'an adjust of zero',
      (d) => steps(d).push({ adjust: { account: 'alice', amount: '0' } }),
      'steps[4].adjust.amount',
      'steps[4] (adjust): amount: expected a decimal string other than zero, got "0"',
    ],
    [
      'a reason_code over 24 characters',
      (d) => steps(d).push({ reanchor: { account: 'alice', reason_code: 'x'.repeat(25) } }),
      'steps[4].reanchor.reason_code',
      'steps[4] (reanchor): reason_code: expected a string of 1 to 24 characters',
    ],
    [
      'a missing reason_code on a trigger',
      (d) => steps(d).push({ daily_loss_trigger: { account: 'alice', daily_loss_limit_trigger: '49500' } }),
      'steps[4].daily_loss_trigger.reason_code',
      'steps[4] (daily_loss_trigger): reason_code: expected a reason code (required), got nothing',
    ],
    [
      'an unknown key in a firm-control step',
      (d) => steps(d).push({ unlock: { account: 'alice', why: 'x' } }),
      'steps[4].unlock.why',
      'steps[4] (unlock): why: unknown key; expected one of account',
    ],
    [
      'a plan with an unknown drawdown mode',
      (d) =>
        (((d.plans as Doc)['eval-50k'] as Doc).risk_profile = {
          max_drawdown_mode: 'trailing',
          max_drawdown_value: '2000',
        }),
      'plans.eval-50k.risk_profile.max_drawdown_mode',
      'plans.eval-50k.risk_profile.max_drawdown_mode: expected one of static, realtime_balance, realtime_equity, eod_balance, got "trailing"',
    ],
    [
      'an account on an unknown plan',
      (d) => (d.accounts = [{ alias: 'alice', plan: 'eval-25k' }]),
      'accounts[0].plan',
      'accounts[0].plan: expected a plan defined under plans ("eval-50k"), or a bundled plan (eval-100k-balance, eval-100k-eod, eval-100k-intraday, eval-100k-static, eval-150k-balance, eval-150k-eod, eval-150k-intraday, eval-150k-static, eval-50k-balance, eval-50k-eod, eval-50k-intraday, eval-50k-static, funded-50k-eod), got "eval-25k"',
    ],
    [
      'a duplicate alias',
      (d) =>
        (d.accounts = [
          { alias: 'alice', plan: 'eval-50k' },
          { alias: 'alice', plan: 'eval-50k' },
        ]),
      'accounts[1].alias',
      'accounts[1].alias: expected an alias no earlier account uses, got "alice"',
    ],
    [
      'a bad overlay',
      (d) =>
        (d.accounts = [
          { alias: 'alice', plan: 'eval-50k' },
          { alias: 'bob', plan: 'eval-50k' },
          { alias: 'carol', plan: 'eval-50k', risk_profile: { daily_loss_value: 1000 } },
        ]),
      'accounts[2].risk_profile.daily_loss_value',
      'accounts[2].risk_profile.daily_loss_value: expected a decimal string greater than zero',
    ],
    [
      'a negative latency',
      (d) => (d.fill_model = { latency_ms: -1 }),
      'fill_model.latency_ms',
      'fill_model.latency_ms: expected an integer of at least 0, got the number -1',
    ],
    [
      'an unknown limit_fill',
      (d) => (d.fill_model = { limit_fill: 'cross' }),
      'fill_model.limit_fill',
      'fill_model.limit_fill: expected one of touch, through, got "cross"',
    ],
    [
      'a missing market file',
      (d) => (d.market = { files: [{ path: '../fixtures/market/nope.csv', format: 'ticks' }] }),
      'market.files[0].path',
      `market.files[0].path: expected an existing file (relative paths are from the scenario's folder; looked for ${join(folder.root, 'fixtures/market/nope.csv')}), got "../fixtures/market/nope.csv"`,
    ],
    [
      'a market file of unknown format',
      (d) => (d.market = { files: [{ path: '../fixtures/market/es-sample.csv', format: 'csv' }] }),
      'market.files[0].format',
      'market.files[0].format: expected one of ticks, bars, databento, got "csv"',
    ],
    [
      'an input step of an unknown type',
      (d) => steps(d).splice(1, 0, { input: { time_ms: Date.parse('2026-03-02T15:00:00Z'), type: 'teleport' } }),
      'steps[1].input.type',
      'steps[1] (input): type: expected one of advance, tick, register_firm',
    ],
    [
      'an input step before the clock',
      (d) => steps(d).splice(1, 0, { input: { time_ms: Date.parse('2026-03-02T14:30:00Z'), type: 'advance' } }),
      'steps[1].input.time_ms',
      'steps[1] (input): time_ms: expected a time no earlier than the simulated clock at this step (2026-03-02T09:00:00.000-06:00 CT): the clock never moves back, got the number 1772461800000',
    ],
    [
      'a print input without its data (the hot path takes prints unchecked)',
      (d) => steps(d).splice(1, 0, { input: { time_ms: Date.parse('2026-03-02T15:00:00Z'), type: 'print' } }),
      'steps[1].input.data.instrument',
      'steps[1] (input): data.instrument: expected a GLOBEX symbol (required), got nothing',
    ],
    [
      'a print input of a fraction of a tick',
      (d) => steps(d).splice(1, 0, printInput({ instrument: 'ESM6', price_ticks: 20000.5 })),
      'steps[1].input.data.price_ticks',
      'steps[1] (input): data.price_ticks: expected an integer number of ticks, got the number 20000.5',
    ],
    [
      'a print input of size 0',
      (d) => steps(d).splice(1, 0, printInput({ instrument: 'ESM6', price_ticks: 20000, size: 0 })),
      'steps[1].input.data.size',
      'steps[1] (input): data.size: expected an integer of at least 1, or null for a print without a size limit, got the number 0',
    ],
    [
      'a print input on a symbol spelled otherwise than a journal does (a book of its own)',
      (d) => steps(d).splice(1, 0, printInput({ instrument: 'ESM26', price_ticks: 20000 })),
      'steps[1].input.data.instrument',
      'steps[1] (input): data.instrument: expected the symbol as a journal writes it (ESM6), got "ESM26"',
    ],
    [
      'a negative risk_load_delay_ms',
      (d) => (d.risk_load_delay_ms = -1),
      'risk_load_delay_ms',
      'risk_load_delay_ms: expected an integer of at least 0, got the number -1',
    ],
    [
      'an expect_events_sha256 that is not a sha256 as replay prints it',
      (d) => (d.expect_events_sha256 = 'ABC'),
      'expect_events_sha256',
      'expect_events_sha256: expected a sha256 as propsim replay prints it (64 lowercase hex digits), got "ABC"',
    ],
  ])('refuses %s', (_label, change, path, message) => {
    const error = errorOf(withChange(change));
    expect(error.path).toBe(path);
    expect(error.file).toBe(FILE);
    expect(error.message).toContain(`${FILE}: ${message}`);
  });

  it('refuses a document that is not a mapping', () => {
    expect(errorOf(['name'] as unknown as Doc).message).toBe(
      `${FILE}: expected a mapping with name, start and steps, got a list`,
    );
  });
});

describe('scenario validation: what is left to run time', () => {
  it('accepts an order off the tick grid (the venue rejects it when run: REJECTED with its reason)', () => {
    const doc = withChange((d) => Object.assign(orderBody(d), { limit_price: '4999.13' }));
    expect(parseScenario(doc, FILE).steps[2]).toMatchObject({
      kind: 'order',
      instrument: 'ESM6',
      limitPrice: '4999.13',
    });
  });

  it('checks only the shape of a firm-control step with expect_status and keeps its values as written', () => {
    const doc = withChange((d) => {
      steps(d).push({ adjust: { account: 'nobody', amount: 12 }, expect_status: 404 });
      steps(d).push({ daily_loss_trigger: { account: 'alice', daily_loss_limit_trigger: 'lots' }, expect_status: 400 });
    });
    const parsed = parseScenario(doc, FILE).steps;
    expect(parsed[4]).toEqual({
      index: 4,
      kind: 'adjust',
      timeMs: Date.parse('2026-03-02T15:00:00Z'),
      account: 'nobody',
      body: { amount: 12 },
      expectStatus: 404,
    });
    expect(parsed[5]).toMatchObject({
      kind: 'daily_loss_trigger',
      body: { daily_loss_limit_trigger: 'lots' },
      expectStatus: 400,
    });
    expect(parsed[5]).not.toHaveProperty('args');
  });

  it('still refuses an unknown key in a firm-control step with expect_status', () => {
    const error = errorOf(
      withChange((d) => steps(d).push({ lockout: { account: 'alice', reson_code: 'x' }, expect_status: 400 })),
    );
    expect(error.path).toBe('steps[4].lockout.reson_code');
  });

  it('keeps expect_status on order steps', () => {
    const doc = withChange((d) => steps(d).push({ cancel: { ref: 'o1' }, expect_status: 409 }));
    expect(parseScenario(doc, FILE).steps[4]).toMatchObject({ kind: 'cancel', ref: 'o1', expectStatus: 409 });
  });

  it('links an OCO group, then adds a companion to it', () => {
    const doc = withChange((d) => {
      const o = orderBody(d);
      steps(d).push({ order: { ...o, ref: 'o2' } }, { order: { ...o, ref: 'o3' } });
      steps(d).push({ oco: { group: 'g', orders: ['o1', 'o2'] } }, { oco: { group: 'g', orders: ['o3'] } });
    });
    const parsed = parseScenario(doc, FILE).steps;
    expect(parsed[6]).toMatchObject({ kind: 'oco', group: 'g', action: 'link', refs: ['o1', 'o2'] });
    expect(parsed[7]).toMatchObject({ kind: 'oco', group: 'g', action: 'companion', refs: ['o3'] });
  });

  it('defaults seed, fill model and latencies; per-kind latencies default to latency_ms', () => {
    const scenario = parseScenario(
      withChange((d) => (d.fill_model = { latency_ms: 25, modify_latency_ms: 5 })),
      FILE,
    );
    expect(scenario.seed).toBe(1);
    expect(scenario.fillModel).toEqual({
      latencyMs: 25,
      cancelLatencyMs: 25,
      modifyLatencyMs: 5,
      slippageTicks: 0,
      limitFill: 'touch',
    });
  });

  it('accepts null and typed values in expectations, kept as written', () => {
    const doc = withChange(
      (d) =>
        (steps(d)[3] = {
          expect: {
            account: 'alice',
            daily_loss_limit_trigger: null,
            lockout_reason: null,
            is_locked: true,
            max_drawdown_mode: 'eod_balance',
          },
        }),
    );
    expect(parseScenario(doc, FILE).steps[3]).toMatchObject({
      checks: [
        { field: 'daily_loss_limit_trigger', expected: null },
        { field: 'lockout_reason', expected: null },
        { field: 'is_locked', expected: true },
        { field: 'max_drawdown_mode', expected: 'eod_balance' },
      ],
    });
  });
});
