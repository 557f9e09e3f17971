// Scenario validation (docs/scenarios.md#validation-errors) of the document and its top-level keys: name, start,
// plans, accounts and overlays, the fill model, market files, run options. The steps' refusals are in
// invalid-steps.test.ts and invalid-expectations-and-timing.test.ts.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse-scenario.js';
import { FILE, ROOT, errorOf, refuses, valid, type Doc } from './scenario-docs.js';

describe('scenario validation: every error names the step, its type and the field', () => {
  it('accepts the base scenario of the table', () => {
    expect(parseScenario(valid(), FILE).steps).toHaveLength(4);
  });

  refuses([
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
      `market.files[0].path: expected an existing file (relative paths are from the folder of the file that names it; looked for ${join(ROOT, 'fixtures/market/nope.csv')}), got "../fixtures/market/nope.csv"`,
    ],
    [
      'a market file of unknown format',
      (d) => (d.market = { files: [{ path: '../fixtures/market/es-sample.csv', format: 'csv' }] }),
      'market.files[0].format',
      'market.files[0].format: expected one of ticks, bars, databento, got "csv"',
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
  ]);

  it('refuses a document that is not a mapping', () => {
    expect(errorOf(['name'] as unknown as Doc).message).toBe(
      `${FILE}: expected a mapping with name, start and steps, got a list`,
    );
  });
});
