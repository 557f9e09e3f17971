// News blackouts (docs/risk-rules.md#news-blackouts): risk_profile.news with events, before_minutes, after_minutes and
// an action. The window of an event is [time - before, time + after): an order reaching the venue at its start is in
// it, one at its end is not. An entry (an order or fill that opens, adds to or reverses a position) in a root the
// event names (and that root's micros) is refused news_blackout (no_entry, flatten); exits are allowed. At the window's
// start, no_entry cancels working entries of those roots, flatten cancels their working orders and flattens their
// positions; fail lets entries through and fails the evaluation at the first one that fills (news_violation).
// CPI Wed 2026-03-11 07:30 CDT (12:30Z), roots ES, 2 minutes either side: [12:28Z, 12:32Z). ES = $50 a point.
import { describe, expect, it } from 'vitest';
import { parsePlanTemplate } from '../../../src/core/accounts/plans.js';
import { planJson } from '../../../src/core/kernel/read/risk-json.js';
import { ms, plan, riskHarness } from './risk-harness.js';

const STATIC = { max_drawdown_mode: 'static', max_drawdown_value: '2000' };
const CPI = { time: '2026-03-11T07:30:00-05:00', roots: ['ES'], name: 'CPI' };
const news = (action: string, events: unknown[] = [CPI]) => ({ ...STATIC, news: { events, action } });
const MESSAGE =
  'orders that open or add to a position in ES are refused in the news blackout from 07:28:00 to 07:32:00 CT around CPI at 2026-03-11T07:30:00.000-05:00';

describe('docs/risk-rules.md#news-blackouts: no_entry', () => {
  it('refuses entries in ES (and MES) inside the window, lets exits and other roots through, and cancels working entries at its start', () => {
    const h = riskHarness({ startMs: ms('2026-03-11T12:00:00Z') });
    const a = h.open(plan(news('no_entry')));
    h.fill(a, 'buy', 1, '5000.00');
    const entry = h.place(a, { side: 'buy', quantity: 1, type: 'limit', limit_price: '4990.00', time_in_force: 'gtc' });
    const exit = h.place(a, { side: 'sell', quantity: 1, type: 'limit', limit_price: '5010.00', time_in_force: 'gtc' });
    h.at('2026-03-11T12:27:59.999Z');
    expect(h.order(entry).status, '07:27:59.999: before the window').toBe('SUBMITTED');
    h.at('2026-03-11T12:28:00Z');
    expect(h.lastState(entry), 'the working entry is cancelled at the start').toMatchObject({
      status: 'CANCELLED',
      reason: 'news_blackout',
    });
    expect(h.order(exit).status, 'the working exit stays').toBe('SUBMITTED');
    const add = h.place(a, { side: 'buy', quantity: 1 });
    expect(h.order(add)).toMatchObject({ status: 'REJECTED', error: { code: 'news_blackout', message: MESSAGE } });
    const micro = h.place(a, { side: 'buy', quantity: 1, instrument_id: 'MESM6' });
    expect(h.order(micro).error, 'an ES event covers MES').toMatchObject({ code: 'news_blackout' });
    const reverse = h.place(a, { side: 'sell', quantity: 2 });
    expect(h.order(reverse).error, 'selling 2 when long 1 reverses: an entry').toMatchObject({ code: 'news_blackout' });
    const other = h.place(a, { side: 'buy', quantity: 1, instrument_id: 'NQM6' });
    expect(h.order(other).status, 'NQ is not in the event').toBe('SUBMITTED');
    const close = h.place(a, { side: 'sell', quantity: 1 });
    h.tick('5002.00', { afterMs: 1_000 });
    expect(h.order(close).status, 'an exit in the window fills').toBe('FILLED');
    expect(h.net(a)).toBe(0);
    expect(h.fill(a, 'buy', 1, '5002.00').body, 'a historical entry in the window is dropped').toMatchObject({
      dropped: true,
      reason: MESSAGE,
    });
    h.at('2026-03-11T12:31:59.999Z');
    expect(h.order(h.place(a, { side: 'buy', quantity: 1 })).error, '07:31:59.999: still in').toMatchObject({
      code: 'news_blackout',
    });
    h.at('2026-03-11T12:32:00Z');
    const after = h.place(a, { side: 'buy', quantity: 1 });
    expect(h.order(after).status, '07:32:00.000: the window has ended').toBe('SUBMITTED');
    expect(h.item(a), 'no lock: the rule refuses orders, not the account').toMatchObject({ is_locked: false });
  });
});

describe('docs/risk-rules.md#news-blackouts: flatten', () => {
  it('flattens the ES position at the window start and leaves NQ; an event without roots flattens everything', () => {
    const h = riskHarness({ startMs: ms('2026-03-11T12:00:00Z') });
    const all = { time: '2026-03-11T09:00:00-05:00', name: 'FOMC minutes' };
    const a = h.open(plan(news('flatten', [CPI, all])));
    const flattened = h.events('accounts.flattened');
    h.fill(a, 'buy', 2, '5000.00');
    h.fill(a, 'sell', 1, '20000.00', 'NQM6');
    const stop = h.place(a, { side: 'sell', quantity: 2, type: 'stop', stop_price: '4980.00', time_in_force: 'gtc' });
    h.at('2026-03-11T12:28:00Z');
    expect(h.lastState(stop)).toMatchObject({ status: 'CANCELLED', reason: 'news_blackout' });
    expect(flattened).toEqual([
      {
        account_id: a,
        rule: 'news_blackout',
        reason: 'news blackout from 07:28:00 to 07:32:00 CT around CPI at 2026-03-11T07:30:00.000-05:00',
        cancelled_orders: 1,
        closing_orders: 1,
      },
    ]);
    h.tick('5003.00', { afterMs: 1_000 });
    expect(h.net(a), 'ES: sold 2 at 5003.00').toBe(0);
    expect(h.net(a, 'NQM6'), 'NQ is not in the event').toBe(-1);
    expect(h.item(a).balance, '+3 x 2 x 50').toBe('50300.00');
    h.at('2026-03-11T13:58:00Z');
    h.tick('19990.00', { symbol: 'NQM6', afterMs: 1_000 });
    expect(h.net(a, 'NQM6'), '08:58: FOMC minutes names no root: NQ is flattened too').toBe(0);
    expect(h.item(a).balance, '50,300 + 10 x 20 (NQ $20 a point) = 50,500').toBe('50500.00');
  });
});

describe('docs/risk-rules.md#news-blackouts: fail', () => {
  it('an entry that fills in the window fails news_violation; exits and fills outside it do not', () => {
    const h = riskHarness({ startMs: ms('2026-03-11T12:00:00Z') });
    const a = h.open(plan(news('fail')));
    const b = h.open(plan(news('fail')));
    h.fill(a, 'buy', 1, '5000.00');
    h.at('2026-03-11T12:29:00Z');
    h.fill(a, 'sell', 1, '5001.00');
    expect(h.item(a).account_status, 'an exit in the window is allowed').toBe('active');
    const entry = h.place(b, { side: 'sell', quantity: 1 });
    h.tick('5000.00');
    expect(h.order(entry).status, 'fail refuses nothing: the order fills').toBe('FILLED');
    expect(h.item(b)).toMatchObject({
      account_status: 'failed',
      lockout_reason: 'evaluation_failed',
      failed_rule: 'news_violation',
    });
    h.tick('4999.00', { afterMs: 1 });
    expect(h.net(b), 'and flattened, as a failure is').toBe(0);
    expect(h.fill(a, 'buy', 1, '5000.00').status, 'a historical entry fills').toBe(201);
    expect(h.item(a).failed_rule, 'a historical entry in the window fails too').toBe('news_violation');
  });
});

describe('docs/risk-rules.md#news-blackouts: the rule as written', () => {
  it('defaults to 2 minutes either side and no_entry, events in time order, written back in UTC', () => {
    const written = plan({
      ...STATIC,
      news: { events: [{ time: '2026-03-11T13:00:00-05:00' }, CPI] },
    });
    expect(planJson(parsePlanTemplate(written, 'p')).risk_profile).toMatchObject({
      news: {
        events: [
          { time: '2026-03-11T12:30:00.000Z', roots: ['ES'], name: 'CPI' },
          { time: '2026-03-11T18:00:00.000Z' },
        ],
        before_minutes: 2,
        after_minutes: 2,
        action: 'no_entry',
      },
    });
  });

  it('a file is read only by a file that names it: a plan reaching the kernel with one is refused', () => {
    expect(() => plan({ ...STATIC, news: { file: 'news.csv' } })).toThrow(
      'risk_profile.news.file: a news file is read only from a file that names it',
    );
    expect(() => plan({ ...STATIC, news: { action: 'flatten' } })).toThrow(
      'risk_profile.news: expected events (inline) or file',
    );
  });
});
