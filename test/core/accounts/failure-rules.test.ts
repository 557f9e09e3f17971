// The rules that fail an account, by name (src/core/accounts/failure-rules.ts): the list the API's shape, scenario
// expectations and the back-test's causes read, and which of them a plan turns on.
import { describe, expect, it } from 'vitest';
import { FAILURE_RULES, planFailureRules } from '../../../src/core/accounts/failure-rules.js';
import { parsePlanTemplate } from '../../../src/core/accounts/plans.js';
import { FailedRuleShape } from '../../../src/core/shapes/account.js';

const plan = (risk: Record<string, unknown> = {}, passing: Record<string, unknown> = {}) =>
  parsePlanTemplate(
    {
      starting_balance: '50000',
      risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '2000', daily_loss_value: '1000', ...risk },
      passing_criteria: { profit_target: '3000', ...passing },
    },
    'p',
  );

describe('docs/risk-rules.md#statuses-and-locks: the rules that fail an account', () => {
  it("the API's failed_rule shape names exactly the rules of the list", () => {
    expect(FailedRuleShape.anyOf.map((literal) => literal.const)).toEqual([...FAILURE_RULES]);
  });

  it('max loss always; daily_loss_failure with daily_loss_action fail; time_limit with time_limit_days', () => {
    expect(planFailureRules(plan())).toEqual(['max_loss_breach']);
    expect(planFailureRules(plan({ daily_loss_action: 'fail' }))).toEqual(['max_loss_breach', 'daily_loss_failure']);
    expect(planFailureRules(plan({ daily_loss_action: 'lock' }, { time_limit_days: 5 }))).toEqual([
      'max_loss_breach',
      'time_limit',
    ]);
    expect(
      planFailureRules(
        plan({
          flat_by: '15:59',
          flat_by_action: 'fail',
          news: { events: [{ time: '2026-03-11T12:30:00Z' }], action: 'fail' },
        }),
      ),
      'flat_by_violation with flat_by_action fail; news_violation with news action fail',
    ).toEqual(['max_loss_breach', 'flat_by_violation', 'news_violation']);
    expect(planFailureRules(plan({ flat_by: '15:59', news: { events: [{ time: 0 }], action: 'flatten' } }))).toEqual([
      'max_loss_breach',
    ]);
  });
});
