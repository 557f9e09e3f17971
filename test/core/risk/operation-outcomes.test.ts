// Outcomes of every firm-control operation (docs/risk-rules.md#firm-controls-and-the-order-gate): 400 for a malformed
// body, 404 for an unknown account, 409 where the rules name one — each answered with the error envelope {error,
// code, details?} and leaving the account unchanged.
import { describe, expect, it } from 'vitest';
import type { AccountCommandType } from '../../../src/core/kernel/write/commands.js';
import { plan, riskHarness } from './risk-harness.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const DAILY = { max_drawdown_mode: 'realtime_balance', max_drawdown_value: '2000', daily_loss_value: '1000' };

function setup() {
  const h = riskHarness();
  const a = h.open(plan(DAILY));
  const staticNoDaily = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
  const closed = h.open(plan(DAILY));
  h.kernel.dispatch({ type: 'replace_account', account_id: closed });
  return { ...h, a, staticNoDaily, closed };
}

/** [operation, body, why] with a malformed body: 400 invalid_request. */
const BAD_BODIES: Array<[AccountCommandType, unknown, string]> = [
  ['set_daily_loss_trigger', { daily_loss_limit_trigger: '49500' }, 'reason_code missing'],
  ['set_daily_loss_trigger', { reason_code: '', daily_loss_limit_trigger: '49500' }, 'reason_code empty'],
  [
    'set_daily_loss_trigger',
    { reason_code: 'x'.repeat(25), daily_loss_limit_trigger: '49500' },
    'reason_code of 25 characters',
  ],
  ['set_daily_loss_trigger', { reason_code: 'ops' }, 'trigger missing'],
  ['set_daily_loss_trigger', { reason_code: 'ops', daily_loss_limit_trigger: 49500 }, 'trigger a JSON number'],
  ['set_daily_loss_trigger', { reason_code: 'ops', daily_loss_limit_trigger: '4.5.6' }, 'trigger not a decimal'],
  ['set_daily_loss_trigger', { reason_code: 'ops', daily_loss_limit_trigger: '49500.001' }, 'trigger below a cent'],
  ['set_daily_loss_trigger', { reason_code: 'ops', daily_loss_limit_trigger: '49500', colour: 'red' }, 'unknown field'],
  ['set_daily_loss_trigger', [], 'body not an object'],
  ['reanchor_daily_loss', {}, 'reason_code missing'],
  ['reanchor_daily_loss', { reason_code: 7 }, 'reason_code not a string'],
  ['reanchor_daily_loss', { reason_code: 'ops', daily_loss_limit_trigger: '1' }, 'unknown field'],
  ['lockout', { reason_code: 'x'.repeat(25) }, 'reason_code of 25 characters'],
  ['lockout', { flatten: 'yes' }, 'flatten not a boolean'],
  ['lockout', { until: 'tomorrow' }, 'unknown field'],
  ['set_max_loss_limit', {}, 'max_drawdown_limit missing'],
  ['set_max_loss_limit', { max_drawdown_limit: '-1' }, 'negative cap'],
  ['set_max_loss_limit', { max_drawdown_limit: 100 }, 'cap a JSON number'],
  ['set_max_loss_limit', { max_drawdown_limit: '0.001' }, 'cap below a cent'],
  ['set_max_loss_limit', { max_drawdown_limit: '0', mode: 'static' }, 'unknown field'],
  ['adjust_balance', {}, 'amount missing'],
  ['adjust_balance', { amount: '0' }, 'amount zero'],
  ['adjust_balance', { amount: '0.00' }, 'amount zero with places'],
  ['adjust_balance', { amount: -250 }, 'amount a JSON number'],
  ['adjust_balance', { amount: '-250.001' }, 'amount below a cent'],
  ['adjust_balance', { amount: '-250', shift_floors: 'no' }, 'shift_floors not a boolean'],
  ['adjust_balance', { amount: '-250', reason_code: '' }, 'reason_code empty'],
  ['set_user_risk_halt', {}, 'user_risk_halt missing'],
  ['set_user_risk_halt', { user_risk_halt: 'true' }, 'user_risk_halt a string'],
];

describe('firm-control outcomes: 400 for a malformed body (checked before the account)', () => {
  it.each(BAD_BODIES)('%s %j (%s) -> 400 invalid_request, nothing changes', (operation, body) => {
    const h = setup();
    const before = h.item(h.a);
    const outcome = h.control(operation, h.a, body);
    expect(outcome.status).toBe(400);
    expect(!outcome.ok && outcome.body, 'the error envelope: error first, then code').toMatchObject({
      code: 'invalid_request',
      error: expect.any(String),
    });
    expect(Object.keys(outcome.body)[0]).toBe('error');
    expect(h.item(h.a)).toEqual(before);
  });
});

/** A well-formed body for each operation. */
const GOOD: Record<AccountCommandType, unknown> = {
  set_daily_loss_trigger: { reason_code: 'ops', daily_loss_limit_trigger: '49500' },
  reanchor_daily_loss: { reason_code: 'ops' },
  lockout: { reason_code: 'review' },
  unlock: undefined,
  flatten: undefined,
  cancel_all_orders: undefined,
  set_max_loss_limit: { max_drawdown_limit: '0' },
  adjust_balance: { amount: '-250.00' },
  set_user_risk_halt: { user_risk_halt: true },
};

describe('firm-control outcomes: 404 for an unknown account', () => {
  it.each(Object.keys(GOOD) as AccountCommandType[])(
    '%s on an unknown account -> 404 account_not_found',
    (operation) => {
      const h = setup();
      const outcome = h.control(operation, UNKNOWN, GOOD[operation]);
      expect([outcome.status, !outcome.ok && outcome.body.code]).toEqual([404, 'account_not_found']);
    },
  );

  it('replace and the risk-state read on an unknown account -> 404', () => {
    const h = setup();
    expect(h.kernel.dispatch({ type: 'replace_account', account_id: UNKNOWN }).status).toBe(404);
    expect(h.kernel.read.riskState({}, UNKNOWN).status).toBe(404);
  });

  it('each operation succeeds with its well-formed body on a known account', () => {
    for (const operation of Object.keys(GOOD) as AccountCommandType[]) {
      const h = setup();
      if (operation === 'unlock') h.ok('lockout', h.a, {});
      expect(h.control(operation, h.a, GOOD[operation]).status, operation).toBe(200);
    }
  });
});

describe('firm-control outcomes: 409 where the rules name one', () => {
  const CONFLICTS: Array<[string, AccountCommandType, (s: ReturnType<typeof setup>) => string, unknown, string]> = [
    [
      'setDailyLossTrigger without a daily-loss limit (docs/risk-rules.md#status-codes-of-the-two-operations)',
      'set_daily_loss_trigger',
      (s) => s.staticNoDaily,
      GOOD.set_daily_loss_trigger,
      'no_daily_loss_limit',
    ],
    [
      'reanchor without a daily-loss trigger (docs/risk-rules.md#status-codes-of-the-two-operations)',
      'reanchor_daily_loss',
      (s) => s.staticNoDaily,
      GOOD.reanchor_daily_loss,
      'no_daily_loss_allowance',
    ],
    [
      'reanchor with an allowance ≤ 0 (docs/risk-rules.md#status-codes-of-the-two-operations)',
      'reanchor_daily_loss',
      (s) => {
        s.ok('adjust_balance', s.a, { amount: '500.00', shift_floors: false }); // balance 50,500: a trigger at 50,000 does not breach
        s.ok('set_daily_loss_trigger', s.a, { reason_code: 'ops', daily_loss_limit_trigger: '50000' }); // allowance 50,000 - 50,000 = 0
        return s.a;
      },
      GOOD.reanchor_daily_loss,
      'no_daily_loss_allowance',
    ],
    [
      'unlock without a firm lockout (docs/risk-rules.md#lockout-and-unlock)',
      'unlock',
      (s) => s.a,
      undefined,
      'not_firm_locked',
    ],
    [
      'max-loss-limit change on a static account (docs/risk-rules.md#max-loss-limit-change)',
      'set_max_loss_limit',
      (s) => s.staticNoDaily,
      GOOD.set_max_loss_limit,
      'static_drawdown',
    ],
    ['lockout of a closed account', 'lockout', (s) => s.closed, GOOD.lockout, 'account_closed'],
    ['unlock of a closed account', 'unlock', (s) => s.closed, undefined, 'not_firm_locked'],
    ['adjust of a closed account', 'adjust_balance', (s) => s.closed, GOOD.adjust_balance, 'account_closed'],
  ];

  it.each(CONFLICTS)('%s -> 409', (_name, operation, target, body, code) => {
    const s = setup();
    const id = target(s);
    const before = s.item(id);
    const outcome = s.control(operation, id, body);
    expect([outcome.status, !outcome.ok && outcome.body.code]).toEqual([409, code]);
    expect(s.item(id), 'unchanged').toEqual(before);
  });

  it('replace of an already replaced account -> 409 account_closed', () => {
    const s = setup();
    const outcome = s.kernel.dispatch({ type: 'replace_account', account_id: s.closed });
    expect([outcome.status, !outcome.ok && outcome.body.code]).toEqual([409, 'account_closed']);
  });

  it('lockout again on a firm-locked account is not a conflict: 200 unchanged', () => {
    const s = setup();
    const first = s.ok('lockout', s.a, {});
    const locked = s.events('accounts.locked');
    const again = s.control('lockout', s.a, {});
    expect([again.status, again.body], 'the same risk-state item').toEqual([200, first]);
    expect(locked, 'unchanged: no lock event').toEqual([]);
  });
});

describe('firm-control outcomes: refused commands are journaled inputs too (a replay sees them)', () => {
  it('a 409 leaves an input record in the journal', () => {
    const s = setup();
    s.control('unlock', s.a);
    const last = s.kernel.journal
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string })
      .filter((r) => r.type.startsWith('input.'));
    expect(last[last.length - 1]!.type).toBe('input.unlock');
  });
});
