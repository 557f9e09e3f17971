// Plan templates for kernel tests, written as a firm writes them (decimal strings): `open_account` and firm
// registration take a plan as written and validate it themselves (docs/risk-rules.md#plan-templates). Each one
// is checked here too, so a typo in a test's plan fails where it was written.
import { parsePlanTemplate } from '../../../src/core/accounts/plans.js';

export function testPlan(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const written = {
    starting_balance: '50000',
    risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '2000' },
    passing_criteria: { profit_target: '3000' },
    ...overrides,
  };
  parsePlanTemplate(written, 'test plan');
  return written;
}
