// No holding over the weekend (docs/risk-rules.md#no-holding-over-the-weekend): risk_profile.hold_over_weekend false.
// The last session before a weekly roll (a weekend, or a gap that crosses one) is flattened at flat_by when the plan
// has one, else one minute before that session's close; the account is locked flat_by until the next session opens.
// Other sessions are left alone. Plans: 50,000 static $2,000; ES = $50 a point.
import { describe, expect, it } from 'vitest';
import { ms, plan, riskHarness } from './risk-harness.js';

const NO_WEEKEND = { max_drawdown_mode: 'static', max_drawdown_value: '2000', hold_over_weekend: false };

describe('docs/risk-rules.md#no-holding-over-the-weekend: positions do not cross a weekend', () => {
  it('Thu 03-12 15:59 CDT: nothing; Fri 03-13 15:59 CDT (20:59Z): flattened and locked until the Sun 17:00 roll', () => {
    const h = riskHarness({ startMs: ms('2026-03-12T14:00:00Z') });
    const a = h.open(plan(NO_WEEKEND));
    const locked = h.events('accounts.locked');
    const flattened = h.events('accounts.flattened');
    h.fill(a, 'buy', 1, '5000.00');
    h.at('2026-03-12T21:30:00Z');
    expect(h.item(a).is_locked, 'Thursday is followed by Friday: held overnight').toBe(false);
    expect(h.net(a)).toBe(1);
    h.at('2026-03-13T20:59:00Z');
    expect(locked).toEqual([
      expect.objectContaining({
        lock: 'flat_by',
        reason:
          'the weekend flat at 15:59 CT, one minute before the 16:00 CT close of trade date 2026-03-13: flat, and no new orders until the next session opens',
      }),
    ]);
    expect(flattened).toEqual([expect.objectContaining({ rule: 'hold_over_weekend', closing_orders: 1 })]);
    h.tick('5010.00', { afterMs: 59_000 });
    expect(h.net(a), 'the risk sell met the 15:59:59 print').toBe(0);
    expect(h.item(a).balance, '+10 x 50').toBe('50500.00');
    h.at('2026-03-15T22:00:00Z');
    expect(h.item(a).is_locked, 'the Sunday 17:00 CDT roll opens Monday').toBe(false);
  });

  it('with flat_by, the weekend flat is flat_by itself (rule flat_by)', () => {
    const h = riskHarness({ startMs: ms('2026-03-13T14:00:00Z') });
    const a = h.open(plan({ ...NO_WEEKEND, flat_by: '15:00' }));
    const flattened = h.events('accounts.flattened');
    h.fill(a, 'buy', 1, '5000.00');
    h.at('2026-03-13T20:00:00Z');
    expect(flattened).toEqual([expect.objectContaining({ rule: 'flat_by' })]);
  });

  it('Christmas 2026: Thu 12-24 closes 12:15 CST and Fri 12-25 has no session, so Thursday is flattened at 12:14 CST (18:14Z)', () => {
    const h = riskHarness({ startMs: ms('2026-12-24T15:00:00Z') });
    const a = h.open(plan(NO_WEEKEND));
    h.fill(a, 'sell', 1, '5000.00');
    h.at('2026-12-24T18:13:59.999Z');
    expect(h.item(a).is_locked).toBe(false);
    h.at('2026-12-24T18:14:00Z');
    expect(h.item(a).lockout_reason).toBe('flat_by');
    h.tick('4999.00', { afterMs: 1_000 });
    expect(h.net(a)).toBe(0);
    h.at('2026-12-27T23:00:00Z');
    expect(h.item(a).is_locked, 'Sun 12-27 17:00 CST: the next session opens').toBe(false);
  });

  it('Wed 12-31 2025 before New Year (Thu closed, Fri open): no weekend between, so no flat', () => {
    const h = riskHarness({ startMs: ms('2025-12-31T15:00:00Z') });
    const a = h.open(plan(NO_WEEKEND));
    h.fill(a, 'buy', 1, '5000.00');
    h.at('2026-01-01T23:30:00Z');
    expect(h.item(a).is_locked, 'Wednesday to Friday crosses a holiday, not a weekend').toBe(false);
    expect(h.net(a)).toBe(1);
    h.at('2026-01-02T21:59:00Z');
    expect(h.item(a).lockout_reason, 'Friday 15:59 CST').toBe('flat_by');
  });
});
