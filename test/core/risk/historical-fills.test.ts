// docs/risk-rules.md#historical-fills: fills replayed from history update positions and balances like venue fills; a
// fill for a failed, passed, closed or locked account is dropped and counted (the step still succeeds,
// `fills.dropped`).
// Plan: 50,000 static $2,000, $1,000 daily loss, $1,000 target. ES = $50 a point. T0 = Tue 09:00 CDT.
import { describe, expect, it } from 'vitest';
import { ms, plan, riskHarness } from './risk-harness.js';

const PLAN = () =>
  plan(
    { max_drawdown_mode: 'static', max_drawdown_value: '2000', daily_loss_value: '1000' },
    { passing_criteria: { profit_target: '1000' } },
  );

type Harness = ReturnType<typeof riskHarness>;

/** Ways to make an account unable to trade, each with its expected status and lock. */
const CASES: Array<[string, (h: Harness, a: string) => void, string, string]> = [
  [
    'failed (max-loss breach)',
    (h, a) => {
      h.fill(a, 'buy', 1, '5000.00');
      h.fill(a, 'sell', 1, '4960.00'); // -40 x 50 = -2,000: balance 48,000 = trigger
    },
    'failed',
    'max_loss_breach',
  ],
  [
    'passed (target met at the roll)',
    (h, a) => {
      h.fill(a, 'buy', 1, '5000.00');
      h.fill(a, 'sell', 1, '5020.00'); // +1,000
      h.kernel.dispatch({ type: 'advance', to_ms: ms('2026-03-10T22:00:00Z') });
    },
    'passed',
    'evaluation_passed',
  ],
  [
    'closed (replaced)',
    (h, a) => void h.kernel.dispatch({ type: 'replace_account', account_id: a }),
    'closed',
    'account_replaced',
  ],
  ['locked by the firm', (h, a) => void h.ok('lockout', a, {}), 'active', 'firm_lockout'],
  [
    'locked by a daily-loss breach',
    (h, a) => void h.ok('set_daily_loss_trigger', a, { reason_code: 'ops', daily_loss_limit_trigger: '60000' }),
    'active',
    'daily_loss_breach',
  ],
];

describe('docs/risk-rules.md#historical-fills: historical fills for an account that cannot trade are dropped', () => {
  it.each(CASES)(
    '%s: the fill answers 200 dropped, fills.dropped is published, nothing moves',
    (_name, setUp, status, lock) => {
      const h = riskHarness();
      const a = h.open(PLAN());
      setUp(h, a);
      expect(h.item(a)).toMatchObject({ account_status: status, lockout_reason: lock });
      const before = { item: h.item(a), net: h.net(a), fills: h.kernel.internals().positions.fills(a).length };
      const dropped = h.events('fills.dropped');
      const outcome = h.fill(a, 'buy', 3, '5000.00');
      expect(outcome.status, 'the step still succeeds').toBe(200);
      expect(outcome.body).toEqual({
        account_id: a,
        instrument_id: 'ESM6',
        dropped: true,
        reason: status === 'active' ? `account is locked (${lock})` : `account is ${status}`,
      });
      expect(dropped).toHaveLength(1);
      expect(dropped[0]).toMatchObject({ account_id: a, dropped: true });
      expect(h.net(a), 'no position change').toBe(before.net);
      expect(h.kernel.internals().positions.fills(a)).toHaveLength(before.fills);
      expect(h.item(a), 'balance and floors unchanged').toEqual(before.item);
      expect(h.kernel.internals().accounts.get(a).droppedFills, 'counted').toBe(1);
    },
  );

  it('an active account books the fill: 201, position and balance move', () => {
    const h = riskHarness();
    const a = h.open(PLAN());
    expect(h.fill(a, 'buy', 2, '5000.00').status).toBe(201);
    expect(h.fill(a, 'sell', 1, '5003.00').status).toBe(201);
    expect(h.net(a)).toBe(1);
    expect(
      h.item(a),
      '+3 x 50 realized; no print yet, so the open lot is marked at the last fill price 5003: +150',
    ).toMatchObject({ balance: '50150.00', equity: '50300.00', realized_day_pnl: '150.00' });
    expect(h.kernel.internals().accounts.get(a).droppedFills).toBe(0);
  });

  it('a fill on an account unknown to the kernel answers 404', () => {
    const h = riskHarness();
    expect(h.fill('00000000-0000-4000-8000-000000000000', 'buy', 1, '5000.00').status).toBe(404);
  });

  it('after a firm unlock the account takes fills again', () => {
    const h = riskHarness();
    const a = h.open(PLAN());
    h.ok('lockout', a, {});
    expect(h.fill(a, 'buy', 1, '5000.00').status).toBe(200);
    h.ok('unlock', a);
    expect(h.fill(a, 'buy', 1, '5000.00').status).toBe(201);
    expect(h.net(a)).toBe(1);
  });
});

describe('historical fills: a fill stamped after the current time is refused (400 fill_in_future)', () => {
  it('one ms ahead of the clock: 400, nothing booked; at the clock or earlier: booked', () => {
    const h = riskHarness();
    const a = h.open(PLAN());
    const fill = (occurredAtMs: number) =>
      h.kernel.dispatch({
        type: 'record_fill',
        account_id: a,
        instrument_id: 'ESM6',
        side: 'buy',
        quantity: 1,
        price: '5000.00',
        occurred_at: occurredAtMs,
      });
    const fills = h.events('fills.created');
    const ahead = fill(h.kernel.nowMs + 1);
    expect([ahead.status, !ahead.ok && ahead.body.code], 'the clock is at T0; T0 + 1 ms is the future').toEqual([
      400,
      'fill_in_future',
    ]);
    expect(h.net(a), 'nothing booked').toBe(0);
    expect(fills, 'no fill event').toEqual([]);
    expect(fill(h.kernel.nowMs).status, 'stamped now').toBe(201);
    expect(fill(h.kernel.nowMs - 60_000).status, 'stamped a minute ago').toBe(201);
    expect(h.net(a)).toBe(2);
    expect(fills.length, 'two fill events, for the two booked fills').toBe(2);
  });
});
