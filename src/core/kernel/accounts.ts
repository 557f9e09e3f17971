// The accounts the kernel trades and guards (docs/risk-rules.md): cash ledger, floors, lifecycle with its locks,
// day and week P&L, adjustments. The account machine (run by account-lifecycle.ts) decides statuses and locks; the
// kernel keeps a mirror of them for the hot path and the reads.
import { initialAccountState, nextAccountState, type AccountLifecycleState } from '../accounts/account-lifecycle.js';
import {
  type AccountLifecycleEvent,
  type AccountStatus,
  type LockChange,
  type LockReason,
} from '../accounts/account.machine.js';
import { openFloors, type Floors } from '../accounts/floors.js';
import type { PlanTemplate } from '../accounts/plans.js';
import { CommandRefusal } from '../outcome.js';
import { declareSnapshot } from '../snapshot/snapshot-fields.js';

export interface AdjustmentRecord {
  adjustmentId: string;
  amountCents: number;
  reasonCode: string | undefined;
  shiftFloors: boolean;
  balanceAfterCents: number;
  occurredAtMs: number;
}

export interface RiskAccount {
  readonly id: string;
  /** Opening order among all accounts: lists page by it. */
  readonly seq: number;
  readonly openedAtMs: number;
  /** The trade date (on the roll family's calendar) of the session it was opened in, or of the next one when opened
   * while the market was closed: its first trade date (docs/risk-rules.md#time-limit). */
  readonly firstTradeDate: string;
  /** Its trade dates whose session a roll has closed while it was active: the time limit's count. */
  tradeDatesClosed: number;
  readonly alias: string | undefined;
  readonly firmId: string;
  readonly userId: string | undefined;
  readonly pricePaidCents: number;
  /** The account's own template (overlays applied; a max-loss-limit change edits this copy only). */
  plan: PlanTemplate;
  /** The template and overlays it was opened with: a replacement starts from these. */
  readonly templatePlan: PlanTemplate;
  readonly floors: Floors;
  balanceCents: number;
  realizedCents: number;
  commissionCents: number;
  adjustmentsCents: number;
  /** Net of commissions since the last roll / weekly roll (docs/risk-rules.md#balance-and-equity). */
  realizedDayCents: number;
  realizedWeekCents: number;
  /** Net realized P&L per trade date with a fill: trading days and consistency (docs/risk-rules.md#passing). */
  readonly dayPnlCents: Map<string, number>;
  readonly adjustments: AdjustmentRecord[];
  /** Trading profit at the last session roll, 0 before the first: picks the scaling tier
   * (docs/risk-rules.md#scaling-plan). */
  rollProfitCents: number;
  userRiskHalt: boolean;
  /** Historical fills refused because the account could not trade (docs/risk-rules.md#historical-fills). */
  droppedFills: number;
  /** Breached or flattened by the firm: keep sending offsetting orders until flat
   * (docs/risk-rules.md#what-a-breach-does). */
  flattening: boolean;
  /** While flattening for a news blackout: the roots it flattens (docs/risk-rules.md#news-blackouts); undefined:
   * every position. */
  flattenRoots: readonly string[] | undefined;
  updatedAtMs: number;
  /** The last print-crossing that marked the account (the risk desk's de-duplication). */
  markedAtCrossing: number;
  lifecycle: AccountLifecycleState;
  status: AccountStatus;
  locks: readonly LockReason[];
  riskReady: boolean;
}

export interface OpenAccountInput {
  alias?: string;
  firmId?: string;
  userId?: string;
  plan: PlanTemplate;
  pricePaidCents?: number;
}

export class AccountBook {
  private readonly byId = new Map<string, RiskAccount>();
  private readonly list: RiskAccount[] = [];

  open(id: string, input: OpenAccountInput, nowMs: number, firstTradeDate: string): RiskAccount {
    const { plan } = input;
    const start = plan.startingBalanceCents;
    const account: RiskAccount = {
      id,
      seq: this.list.length + 1,
      openedAtMs: nowMs,
      firstTradeDate,
      tradeDatesClosed: 0,
      alias: input.alias,
      firmId: input.firmId ?? 'default',
      userId: input.userId,
      pricePaidCents: input.pricePaidCents ?? 0,
      plan,
      templatePlan: plan,
      floors: openFloors({
        mode: plan.riskProfile.maxDrawdownMode,
        startingBalanceCents: start,
        maxDrawdownValueCents: plan.riskProfile.maxDrawdownValueCents,
        ...(plan.riskProfile.maxDrawdownLimitCents === undefined
          ? {}
          : { maxDrawdownLimitCents: plan.riskProfile.maxDrawdownLimitCents }),
        ...(plan.riskProfile.dailyLossValueCents === undefined
          ? {}
          : { dailyLossValueCents: plan.riskProfile.dailyLossValueCents }),
      }),
      balanceCents: start,
      realizedCents: 0,
      commissionCents: 0,
      adjustmentsCents: 0,
      realizedDayCents: 0,
      realizedWeekCents: 0,
      dayPnlCents: new Map(),
      adjustments: [],
      rollProfitCents: 0,
      userRiskHalt: false,
      droppedFills: 0,
      flattening: false,
      flattenRoots: undefined,
      updatedAtMs: nowMs,
      markedAtCrossing: 0,
      lifecycle: initialAccountState({ occurredAtMs: nowMs }),
      status: 'active',
      locks: [],
      riskReady: false,
    };
    this.byId.set(id, account);
    this.list.push(account);
    return account;
  }

  find(id: string): RiskAccount | undefined {
    return this.byId.get(id);
  }

  /** The account, or a 404 refusal naming it. */
  get(id: string): RiskAccount {
    const account = this.byId.get(id);
    if (!account) throw new CommandRefusal(404, 'account_not_found', `account ${id} is unknown`);
    return account;
  }

  /** Every account in opening order (live, read-only). */
  all(): readonly RiskAccount[] {
    return this.list;
  }

  get size(): number {
    return this.byId.size;
  }
}

declareSnapshot(AccountBook, {
  kept: ['byId', 'list'],
  skipped: [],
});

/** Sends a lifecycle event; returns the lock changes it made (empty when the machine ignored it). */
export function sendAccountEvent(account: RiskAccount, event: AccountLifecycleEvent): readonly LockChange[] {
  const next = nextAccountState(account.lifecycle, event);
  if (next === undefined) return [];
  const before = account.lifecycle.context.lockChanges.length;
  account.lifecycle = next;
  account.status = next.value.status;
  account.locks = next.context.locks;
  account.riskReady = next.value.riskEngine === 'ready';
  return next.context.lockChanges.slice(before);
}

/** Whether a lifecycle event would change anything (UNLOCK without a firm lock: no, so 409). */
export function accountAccepts(account: RiskAccount, event: AccountLifecycleEvent): boolean {
  return nextAccountState(account.lifecycle, event) !== undefined;
}
