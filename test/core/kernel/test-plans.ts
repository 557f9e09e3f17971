// Plan templates for kernel tests and benchmarks, written as a firm would (decimal strings) and validated.
import { parsePlanTemplate, type PlanTemplate } from '../../../src/core/accounts/plans.js';

export function testPlan(overrides: Record<string, unknown> = {}): PlanTemplate {
  return parsePlanTemplate(
    {
      starting_balance: '50000',
      risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '2000' },
      passing_criteria: { profit_target: '3000' },
      ...overrides,
    },
    'test plan',
  );
}
