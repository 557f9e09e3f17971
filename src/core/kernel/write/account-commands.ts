// The kernel's commands about firms and accounts: registering a firm, opening and provisioning accounts, replacing
// one, and the firm-control operations on one account (docs/risk-rules.md#provisioning,
// docs/risk-rules.md#firm-controls-and-the-order-gate). Answers are in the API's shapes (docs/api.md#shapes).
import { parsePlanTemplate, type PlanTemplate } from '../../accounts/plans.js';
import type { Provisioning } from '../../accounts/provisioning.js';
import { readEmail, refuseFieldErrors } from '../../accounts/provisioning-request.js';
import { at, readFields, readList, readString } from '../../validation/input-fields.js';
import { parseCents } from '../../money.js';
import { CommandRefusal, success, type Outcome } from '../../outcome.js';
import type { ProvisionResultJson, RiskStateJson } from '../../shapes/account.js';
import type { AccountBook, OpenAccountInput, RiskAccount } from '../accounts.js';
import type { AccountCommandType, KernelCommand } from './commands.js';
import type { KernelContext } from '../context.js';
import type { FirmControl } from './firm-control.js';
import type { RiskDesk } from '../risk/risk-desk.js';
import { riskStateJson } from '../read/risk-json.js';
import type { TimedRules } from '../risk/timed-rules.js';
import { declareSnapshot } from '../../snapshot/snapshot-fields.js';

type Command<T extends KernelCommand['type']> = Extract<KernelCommand, { type: T }>;

export class AccountCommands {
  /** The first answer of each provisioning idempotency key, by firm: a repeat answers it again. */
  private readonly provisionAnswers = new Map<string, ProvisionResultJson>();
  /** Plans opened with, by their JSON: accounts on one plan share one frozen template, as they did in memory. */
  private readonly plans = new Map<string, PlanTemplate>();

  constructor(
    private readonly ctx: KernelContext,
    private readonly accounts: AccountBook,
    private readonly risk: RiskDesk,
    private readonly timedRules: TimedRules,
    private readonly firm: FirmControl,
    private readonly provisioning: Provisioning,
  ) {}

  /** A registered firm's id, or 404 `firm_not_found`. */
  firmOf(firmId: string): string {
    if (!this.provisioning.hasFirm(firmId))
      throw new CommandRefusal(404, 'firm_not_found', `firm ${firmId} is unknown`);
    return firmId;
  }

  /** `register_firm`: its id is drawn from the seeded generator, then its staff members' ids. */
  registerFirm(command: Command<'register_firm'>): Outcome<{ firm_id: string; slug: string }> {
    // The sandbox registers its seed's firms, already checked; a scenario's input step may hold anything.
    const { slug, name, plans, staff } = refuseFieldErrors(() => ({
      slug: readString(command.slug, 'slug'),
      name: command.name === undefined ? undefined : readString(command.name, 'name'),
      plans: new Map<string, PlanTemplate>(
        Object.entries(readFields(command.plans, 'plans', 'a mapping of plan_reference to plan template')).map(
          ([ref, plan]) => [ref, parsePlanTemplate(plan, at('plans', ref))],
        ),
      ),
      staff: readList(command.staff ?? [], 'staff', (member, path) => {
        const fields = readFields(member, path, 'a staff member {email, first_name?}');
        return {
          email: readEmail(fields.email, at(path, 'email')),
          ...(fields.first_name === undefined
            ? {}
            : { firstName: readString(fields.first_name, at(path, 'first_name')) }),
        };
      }),
    }));
    const firmId = this.ctx.ids.nextUuid();
    this.provisioning.registerFirm({ firmId, slug, name: name ?? slug }, plans);
    for (const member of staff)
      this.provisioning.addStaff(firmId, member, () => this.ctx.ids.nextUuid(), this.ctx.clock.nowMs);
    return success(201, { firm_id: firmId, slug });
  }

  /** `open_account`: an account on a plan template (scenario and back-test accounts). */
  openAccount(command: Command<'open_account'>): Outcome<RiskStateJson> {
    const key = JSON.stringify(command.plan);
    let plan = this.plans.get(key);
    if (!plan) {
      plan = refuseFieldErrors(() => parsePlanTemplate(command.plan, 'plan'));
      this.plans.set(key, plan);
    }
    const pricePaidCents = command.price_paid === undefined ? 0 : parseCents(command.price_paid, 'price_paid');
    const input: OpenAccountInput = {
      plan,
      pricePaidCents,
      ...(command.alias === undefined ? {} : { alias: command.alias }),
      ...(command.firm_id === undefined ? {} : { firmId: command.firm_id }),
    };
    return success(201, this.open(this.ctx.ids.nextUuid(), input));
  }

  /** POST /v1/firm-control/accounts: 201 with new accounts, 200 with the first answer for a repeated key. */
  provision(firmId: string, body: unknown): Outcome<ProvisionResultJson> {
    const result = this.provisioning.provision(
      this.firmOf(firmId),
      body,
      () => this.ctx.ids.nextUuid(),
      this.ctx.clock.nowMs,
    );
    const key = result.accounts[0]!.idempotencyKey;
    const answerKey = key === undefined ? undefined : `${firmId}|${key}`;
    if (result.status === 200 && answerKey !== undefined) return success(200, this.provisionAnswers.get(answerKey)!);
    const items = result.accounts.map((record) =>
      this.open(record.accountId, {
        plan: record.plan,
        firmId,
        userId: record.userId,
        pricePaidCents: record.pricePaidCents,
      }),
    );
    const answer = {
      user_id: result.user.userId,
      account_ids: result.accounts.map((a) => a.accountId),
      accounts: items,
    };
    if (answerKey !== undefined) this.provisionAnswers.set(answerKey, answer);
    return success(201, answer);
  }

  /** POST replace: flattens and closes the account and opens a new one from the same template
   * (docs/risk-rules.md#replace). */
  replace(accountId: string): Outcome<{ original_account_id: string; account_id: string }> {
    const original = this.accounts.get(accountId);
    if (original.status === 'closed')
      throw new CommandRefusal(409, 'account_closed', `account ${accountId} is already closed`);
    const nowMs = this.ctx.clock.nowMs;
    const minted = this.provisioning.hasAccount(accountId)
      ? this.provisioning.replace(undefined, accountId, () => this.ctx.ids.nextUuid(), nowMs).replacement
      : undefined;
    this.risk.cancelAndFlatten(original, 'account_replaced');
    this.risk.send(original, { type: 'REPLACE', reason: 'account replaced', occurredAtMs: nowMs });
    const input: OpenAccountInput = {
      plan: minted?.plan ?? original.templatePlan,
      firmId: original.firmId,
      ...(original.userId ? { userId: original.userId } : {}),
      ...(original.alias ? { alias: original.alias } : {}),
    };
    const replacement = this.open(minted?.accountId ?? this.ctx.ids.nextUuid(), input);
    this.ctx.emit('accounts.replaced', () => ({
      account_id: original.id,
      replaced_by_account_id: replacement.account_id,
    }));
    return success(201, { original_account_id: original.id, account_id: replacement.account_id });
  }

  /** A firm-control operation on one account. */
  run(command: { type: AccountCommandType; account_id: string; body?: unknown }): Outcome<unknown> {
    const { account_id: id, body } = command;
    const firm = this.firm;
    switch (command.type) {
      case 'set_daily_loss_trigger':
        return success(200, firm.setDailyLossTrigger(id, body));
      case 'reanchor_daily_loss':
        return success(200, firm.reanchor(id, body));
      case 'lockout':
        return success(200, firm.lockout(id, body));
      case 'unlock':
        return success(200, firm.unlock(id));
      case 'flatten':
        return success(200, firm.flatten(id));
      case 'cancel_all_orders':
        return success(200, firm.cancelAll(id));
      case 'set_max_loss_limit':
        return success(200, firm.setMaxLossLimit(id, body));
      case 'adjust_balance':
        return success(200, firm.adjust(id, body));
      case 'set_user_risk_halt':
        return success(200, firm.setUserRiskHalt(id, body));
    }
  }

  /** Opens an account; its risk engine loads for risk_load_delay_ms (docs/risk-rules.md#the-loading-window). */
  private open(id: string, input: OpenAccountInput): RiskStateJson {
    const nowMs = this.ctx.clock.nowMs;
    const firstTradeDate = this.ctx.calendar.tradeDateOfFamily(nowMs, this.ctx.rollFamily);
    const account: RiskAccount = this.accounts.open(id, input, nowMs, firstTradeDate);
    this.firm.scheduleRiskLoad(account);
    const body = riskStateJson(account, this.risk.equityCents(account));
    this.ctx.emit('accounts.created', () => ({ ...body }));
    // After accounts.created: an account opened after its session's flat time is locked at once, and answers so.
    this.timedRules.opened(account);
    return account.locks.length === 0 ? body : riskStateJson(account, this.risk.equityCents(account));
  }
}

declareSnapshot(AccountCommands, {
  kept: ['accounts', 'risk', 'timedRules', 'firm', 'provisioning', 'provisionAnswers', 'plans'],
  skipped: ['ctx'],
});
