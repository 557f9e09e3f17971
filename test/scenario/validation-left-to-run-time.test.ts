// What scenario validation leaves to run time (docs/scenarios.md#validation-errors): off-grid prices, the values of a
// firm-control step with expect_status; and what it keeps as written: expect_status, OCO links, defaults, expectations.
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse-scenario.js';
import { FILE, errorOf, orderBody, steps, withChange } from './scenario-docs.js';

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
