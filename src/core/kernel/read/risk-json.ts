// Public JSON of an account's risk: the balance object and the live risk state item
// (docs/risk-rules.md#the-risk-state-item), money as decimal strings; a field that does not apply (a cap on a static
// plan, a daily trigger without a daily limit) is left out, never null.
import { flatRulesJson } from '../../accounts/flat-rules.js';
import { newsJson } from '../../accounts/news-rule.js';
import { failedRuleOf, lockoutReasonOf } from '../../accounts/account.machine.js';
import { ceilingCents } from '../../accounts/floors.js';
import { formatCents } from '../../money.js';
import type { PlanTemplate } from '../../accounts/plans.js';
import { accountLimitNow, positionLimitsJson, scalingJson } from '../../accounts/position-limits.js';
import type { BalanceJson, BalanceObjectJson, RiskStateJson } from '../../shapes/account.js';
import type { RiskAccount } from '../accounts.js';

export function balanceObjectJson(account: RiskAccount): BalanceObjectJson {
  const { floors } = account;
  return {
    account_id: account.id,
    balance: formatCents(account.balanceCents),
    start_of_day_balance: formatCents(floors.startOfDayBalanceCents),
    realized_day_pnl: formatCents(account.realizedDayCents),
    ...(floors.dailyLossTriggerCents === undefined
      ? {}
      : { daily_loss_limit_trigger: formatCents(floors.dailyLossTriggerCents) }),
    realized_week_pnl: formatCents(account.realizedWeekCents),
  };
}

/**
 * The live risk state item. Beyond the interface's table it carries the balance object's day and week fields,
 * account_status (the interface: "the risk state also includes daily and weekly triggers and peaks") and, once the
 * account has failed, the rule that failed it.
 */
export function riskStateJson(account: RiskAccount, equityCents: number): RiskStateJson {
  const { floors } = account;
  const ceiling = ceilingCents(floors);
  const lockoutReason = lockoutReasonOf(account.locks);
  const failedRule = failedRuleOf(account.lifecycle.context);
  return {
    account_id: account.id,
    max_drawdown_mode: floors.mode,
    max_drawdown_value: formatCents(floors.maxDrawdownValueCents),
    ...(ceiling === undefined
      ? {}
      : {
          max_drawdown_limit: formatCents(floors.maxDrawdownLimitCents!),
          max_drawdown_lock_ceiling: formatCents(ceiling),
        }),
    starting_balance: formatCents(floors.startingBalanceCents),
    balance: formatCents(account.balanceCents),
    equity: formatCents(equityCents),
    highest_realized_balance: formatCents(floors.peakCents),
    max_loss_limit_trigger: formatCents(floors.maxLossTriggerCents),
    ...(floors.dailyLossTriggerCents === undefined
      ? {}
      : { daily_loss_limit_trigger: formatCents(floors.dailyLossTriggerCents) }),
    is_locked: account.locks.length > 0,
    ...(lockoutReason === undefined ? {} : { lockout_reason: lockoutReason }),
    user_risk_halt: account.userRiskHalt,
    updated_at: new Date(account.updatedAtMs).toISOString(),
    start_of_day_balance: formatCents(floors.startOfDayBalanceCents),
    realized_day_pnl: formatCents(account.realizedDayCents),
    realized_week_pnl: formatCents(account.realizedWeekCents),
    account_status: account.status,
    ...contractLimitFields(account),
    ...(failedRule === undefined ? {} : { failed_rule: failedRule }),
  };
}

/**
 * The account-wide contract limit now (max_contracts or the scaling tier, the smaller) and, under a scaling plan, the
 * profit that picked the tier; omitted when the plan sets neither (docs/risk-rules.md#the-risk-state-item).
 */
function contractLimitFields(account: RiskAccount): { max_contracts_now?: number; scaling_profit?: string } {
  const { positionLimits, riskProfile } = account.plan;
  const limit = accountLimitNow(positionLimits, riskProfile.scaling, account.rollProfitCents);
  return {
    ...(limit === undefined ? {} : { max_contracts_now: limit.limit }),
    ...(riskProfile.scaling === undefined ? {} : { scaling_profit: formatCents(account.rollProfitCents) }),
  };
}

/** GET /v1/balances/{id}: the balance object with equity and the account's currency. */
export function balanceJson(account: RiskAccount, equityCents: number): BalanceJson {
  // The balance object with equity and currency after the balance, keys in the interface's order.
  const { account_id, balance, ...dayFigures } = balanceObjectJson(account);
  return { account_id, balance, equity: formatCents(equityCents), currency: account.plan.currency, ...dayFigures };
}

/** A plan template as decimal strings (journal inputs, state.json). */
export function planJson(plan: PlanTemplate): Record<string, unknown> {
  const { riskProfile: r, passingCriteria: p } = plan;
  return {
    starting_balance: formatCents(plan.startingBalanceCents),
    currency: plan.currency,
    risk_profile: {
      max_drawdown_mode: r.maxDrawdownMode,
      max_drawdown_value: formatCents(r.maxDrawdownValueCents),
      ...(r.maxDrawdownLimitCents === undefined ? {} : { max_drawdown_limit: formatCents(r.maxDrawdownLimitCents) }),
      ...(r.dailyLossValueCents === undefined ? {} : { daily_loss_value: formatCents(r.dailyLossValueCents) }),
      ...(r.scaling === undefined ? {} : { scaling: scalingJson(r.scaling) }),
      ...(r.dailyLossAction === undefined ? {} : { daily_loss_action: r.dailyLossAction }),
      ...flatRulesJson(r),
      ...(r.news === undefined ? {} : { news: newsJson(r.news) }),
    },
    passing_criteria: {
      profit_target: formatCents(p.profitTargetCents),
      ...(p.minTradingDays === undefined ? {} : { min_trading_days: p.minTradingDays }),
      ...(p.consistencyPct === undefined ? {} : { consistency_pct: p.consistencyPct }),
      ...(p.timeLimitDays === undefined ? {} : { time_limit_days: p.timeLimitDays }),
    },
    position_limits: positionLimitsJson(plan.positionLimits),
    commission_per_contract: formatCents(plan.commissionPerContractCents),
    enabled_families: plan.enabledFamilies,
  };
}
