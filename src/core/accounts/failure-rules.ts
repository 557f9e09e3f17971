// The rules that can fail an evaluation account (docs/risk-rules.md#statuses-and-locks), by name. A max-loss breach
// has its own lock, max_loss_breach, as it always had; every other rule fails the account through the machine's
// RULE_FAILURE event (lock evaluation_failed, the rule on the status record), which the risk desk sends from
// `failByRule`. A new rule adds its name here and says, in `planFailureRules`, when a plan enables it: the
// risk-state item's failed_rule, scenario expectations, and the back-test's causes and chart follow from this list.
import type { PlanTemplate } from './plans.js';

/** Every rule's name, in the order the back-test's causes list them (max loss first, as it always was). */
export const FAILURE_RULES = [
  'max_loss_breach',
  'daily_loss_failure',
  'time_limit',
  'flat_by_violation',
  'news_violation',
] as const;
export type FailureRule = (typeof FAILURE_RULES)[number];

/** The rules RULE_FAILURE carries: all but max loss, whose breach keeps its own event and lock. */
export type PlanRule = Exclude<FailureRule, 'max_loss_breach'>;

/**
 * Rules judged at a session roll rather than at a mark in a session: a back-test counts such a failure on the trade
 * date the roll closes, as it counts a pass (docs/backtesting.md#what-is-measured).
 */
export const JUDGED_AT_ROLL: ReadonlySet<FailureRule> = new Set<FailureRule>(['time_limit']);

/** The rules a plan can fail an account by: max loss always, the others when the plan turns them on. */
export function planFailureRules(plan: PlanTemplate): FailureRule[] {
  return FAILURE_RULES.filter((rule) => {
    switch (rule) {
      case 'max_loss_breach':
        return true;
      case 'daily_loss_failure':
        return plan.riskProfile.dailyLossAction === 'fail';
      case 'time_limit':
        return plan.passingCriteria.timeLimitDays !== undefined;
      case 'flat_by_violation':
        return plan.riskProfile.flatByAction === 'fail';
      case 'news_violation':
        return plan.riskProfile.news?.action === 'fail';
    }
  });
}
