// Plans for benchmarks: allowances wide enough that no account breaches, so every run does the same work.
import { parsePlanTemplate, type PlanTemplate } from '../src/core/accounts/plans.js';

export function benchPlan(mode: 'static' | 'realtime_equity' | 'eod_balance' = 'static'): PlanTemplate {
  return parsePlanTemplate(
    {
      starting_balance: '10000000',
      risk_profile: { max_drawdown_mode: mode, max_drawdown_value: '5000000', daily_loss_value: '4000000' },
      passing_criteria: { profit_target: '9000000' },
    },
    'bench plan',
  );
}
