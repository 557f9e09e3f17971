// Outcomes of every firm-control operation (docs/risk-rules.md#firm-controls-and-the-order-gate): 400 for a malformed
// body, 404 for an unknown account, 409 where the rules name one — each answered with the error envelope {error,
// code, details?} and leaving the account unchanged.
import { describe, expect, it } from 'vitest';
import type { AccountOperation } from '../../../src/core/kernel/kernel.js';
import { plan, riskHarness } from './risk-harness.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const DAILY = { max_drawdown_mode: 'realtime_balance', max_drawdown_value: '2000', daily_loss_value: '1000' };

function setup() {
  const h = riskHarness();
  const a = h.open(plan(DAILY));
  const staticNoDaily = h.open(plan({ max_drawdown_mode: 'static', max_drawdown_value: '2000' }));
  const closed = h.open(plan(DAILY));
  h.kernel.replaceAccount(closed);
  return { ...h, a, staticNoDaily, closed };
}

/** [operation, body, why] with a malformed body: 400 invalid_request. */
const BAD_BODIES: Array<[AccountOperation, unknown, string]> = [
  ['setDailyLossTrigger', { daily_loss_limit_trigger: '49500' }, 'reason_code missing'],
  ['setDailyLossTrigger', { reason_code: '', daily_loss_limit_trigger: '49500' }, 'reason_code empty'],
  [
    'setDailyLossTrigger',
    { reason_code: 'x'.repeat(25), daily_loss_limit_trigger: '49500' },
    'reason_code of 25 characters',
  ],
  ['setDailyLossTrigger', { reason_code: 'ops' }, 'trigger missing'],
  ['setDailyLossTrigger', { reason_code: 'ops', daily_loss_limit_trigger: 49500 }, 'trigger a JSON number'],
  ['setDailyLossTrigger', { reason_code: 'ops', daily_loss_limit_trigger: '4.5.6' }, 'trigger not a decimal'],
  ['setDailyLossTrigger', { reason_code: 'ops', daily_loss_limit_trigger: '49500.001' }, 'trigger below a cent'],
  ['setDailyLossTrigger', { reason_code: 'ops', daily_loss_limit_trigger: '49500', colour: 'red' }, 'unknown field'],
  ['setDailyLossTrigger', [], 'body not an object'],
  ['reanchor', {}, 'reason_code missing'],
  ['reanchor', { reason_code: 7 }, 'reason_code not a string'],
  ['reanchor', { reason_code: 'ops', daily_loss_limit_trigger: '1' }, 'unknown field'],
  ['lockout', { reason_code: 'x'.repeat(25) }, 'reason_code of 25 characters'],
  ['lockout', { flatten: 'yes' }, 'flatten not a boolean'],
  ['lockout', { until: 'tomorrow' }, 'unknown field'],
  ['setMaxLossLimit', {}, 'max_drawdown_limit missing'],
  ['setMaxLossLimit', { max_drawdown_limit: '-1' }, 'negative cap'],
  ['setMaxLossLimit', { max_drawdown_limit: 100 }, 'cap a JSON number'],
  ['setMaxLossLimit', { max_drawdown_limit: '0.001' }, 'cap below a cent'],
  ['setMaxLossLimit', { max_drawdown_limit: '0', mode: 'static' }, 'unknown field'],
  ['adjust', {}, 'amount missing'],
  ['adjust', { amount: '0' }, 'amount zero'],
  ['adjust', { amount: '0.00' }, 'amount zero with places'],
  ['adjust', { amount: -250 }, 'amount a JSON number'],
  ['adjust', { amount: '-250.001' }, 'amount below a cent'],
  ['adjust', { amount: '-250', shift_floors: 'no' }, 'shift_floors not a boolean'],
  ['adjust', { amount: '-250', reason_code: '' }, 'reason_code empty'],
  ['setUserRiskHalt', {}, 'user_risk_halt missing'],
  ['setUserRiskHalt', { user_risk_halt: 'true' }, 'user_risk_halt a string'],
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
const GOOD: Record<AccountOperation, unknown> = {
  setDailyLossTrigger: { reason_code: 'ops', daily_loss_limit_trigger: '49500' },
  reanchor: { reason_code: 'ops' },
  lockout: { reason_code: 'review' },
  unlock: undefined,
  flatten: undefined,
  cancelAll: undefined,
  setMaxLossLimit: { max_drawdown_limit: '0' },
  adjust: { amount: '-250.00' },
  setUserRiskHalt: { user_risk_halt: true },
};

describe('firm-control outcomes: 404 for an unknown account', () => {
  it.each(Object.keys(GOOD) as AccountOperation[])('%s on an unknown account -> 404 account_not_found', (operation) => {
    const h = setup();
    const outcome = h.control(operation, UNKNOWN, GOOD[operation]);
    expect([outcome.status, !outcome.ok && outcome.body.code]).toEqual([404, 'account_not_found']);
  });

  it('replace and the risk-state read on an unknown account -> 404', () => {
    const h = setup();
    expect(h.kernel.replaceAccount(UNKNOWN).status).toBe(404);
    expect(h.kernel.riskState(UNKNOWN).status).toBe(404);
  });

  it('each operation succeeds with its well-formed body on a known account', () => {
    for (const operation of Object.keys(GOOD) as AccountOperation[]) {
      const h = setup();
      if (operation === 'unlock') h.ok('lockout', h.a, {});
      expect(h.control(operation, h.a, GOOD[operation]).status, operation).toBe(200);
    }
  });
});

describe('firm-control outcomes: 409 where the rules name one', () => {
  const CONFLICTS: Array<[string, AccountOperation, (s: ReturnType<typeof setup>) => string, unknown, string]> = [
    [
      'setDailyLossTrigger without a daily-loss limit (docs/risk-rules.md#status-codes-of-the-two-operations)',
      'setDailyLossTrigger',
      (s) => s.staticNoDaily,
      GOOD.setDailyLossTrigger,
      'no_daily_loss_limit',
    ],
    [
      'reanchor without a daily-loss trigger (docs/risk-rules.md#status-codes-of-the-two-operations)',
      'reanchor',
      (s) => s.staticNoDaily,
      GOOD.reanchor,
      'no_daily_loss_allowance',
    ],
    [
      'reanchor with an allowance ≤ 0 (docs/risk-rules.md#status-codes-of-the-two-operations)',
      'reanchor',
      (s) => {
        s.ok('adjust', s.a, { amount: '500.00', shift_floors: false }); // balance 50,500: a trigger at 50,000 does not breach
        s.ok('setDailyLossTrigger', s.a, { reason_code: 'ops', daily_loss_limit_trigger: '50000' }); // allowance 50,000 - 50,000 = 0
        return s.a;
      },
      GOOD.reanchor,
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
      'setMaxLossLimit',
      (s) => s.staticNoDaily,
      GOOD.setMaxLossLimit,
      'static_drawdown',
    ],
    ['lockout of a closed account', 'lockout', (s) => s.closed, GOOD.lockout, 'account_closed'],
    ['unlock of a closed account', 'unlock', (s) => s.closed, undefined, 'not_firm_locked'],
    ['adjust of a closed account', 'adjust', (s) => s.closed, GOOD.adjust, 'account_closed'],
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
    const outcome = s.kernel.replaceAccount(s.closed);
    expect([outcome.status, !outcome.ok && outcome.body.code]).toEqual([409, 'account_closed']);
  });

  it('lockout again on a firm-locked account is not a conflict: 200 unchanged', () => {
    const s = setup();
    s.ok('lockout', s.a, {});
    const again = s.control('lockout', s.a, {});
    expect([again.status, again.ok && again.body.changed]).toEqual([200, false]);
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
