// The account lifecycle (docs/risk-rules.md#statuses-and-locks) as an XState v5 machine with two parallel regions:
//   status     — active | failed | passed | closed (what the account is),
//   riskEngine — loading | ready (the risk engine's loading window after create and after an unlock,
//                docs/risk-rules.md#the-loading-window).
// Locks are a set in context, kept sorted by severity; is_locked and lockout_reason are read from it. The machine
// sees lifecycle events only: floors are checked on plain numbers by the kernel, and only a crossing, a session roll
// or an operation becomes an event here (docs/architecture.md#xstate-models-lifecycles-not-ticks). Time arrives
// inside events (occurredAtMs), never through XState delays: the kernel schedules RISK_LOADED itself.
//
// Decisions the rules leave open:
// - LOCKOUT is accepted on active, failed and passed accounts (a firm may lock a passed account); a closed
//   account takes nothing. LOCKOUT on a firm-locked account, like every other ignored event, changes nothing.
// - UNLOCK needs a firm_lockout on a non-closed account; otherwise it is refused and `snapshot.can(UNLOCK)`
//   is false, so the kernel answers 409. Other locks stay. An accepted UNLOCK restarts the loading window.
// - SESSION_ROLL lifts daily_loss_breach on an active account only; failed/passed/closed accounts keep it.
// - REPLACE closes an account from any non-closed status and keeps its locks, adding account_replaced.
// - Between the two lowest locks, account_replaced outranks evaluation_passed, so a passed account that is
//   replaced reads lockout_reason `account_replaced`, matching its status `closed`.
// - RISK_LOADED names the load it ends (loadStartedAtMs); a stale one (from a load an UNLOCK restarted) is
//   ignored, so the kernel never has to cancel the timer it scheduled.
// - Every accepted status or lock event appends exactly one lock change; RISK_LOADED appends none.
// - A rule of the plan other than max loss fails an active account through RULE_FAILURE (failure-rules.ts): status
//   failed, one lock for every such rule (evaluation_failed), the rule on the status record. One lock rather than one
//   per rule keeps the lock set, and lockout_reason's values, from growing with every rule a firm sells; the rule is
//   in failed_rule. A failed record always names its rule, max_loss_breach included.
// - FLAT_BY locks an active account at a flat time (flat_by, or the weekend flat of hold_over_weekend false:
//   docs/risk-rules.md#flat-by-a-time) until the next session opens: FLAT_BY_END, sent at the roll right after
//   SESSION_ROLL, lifts it. A lock of its own, ranked below daily_loss_breach (a breach says more) and above
//   firm_lockout, so lockout_reason names the rule while it holds; failed, passed and closed accounts keep it, as
//   they keep daily_loss_breach.
import { and, assign, not, setup, stateIn, type SnapshotFrom } from 'xstate';
import type { FailureRule, PlanRule } from './failure-rules.js';

export type AccountStatus = 'active' | 'failed' | 'passed' | 'closed';
export const ACCOUNT_STATUSES: readonly AccountStatus[] = ['active', 'failed', 'passed', 'closed'];

/** Most severe first (docs/risk-rules.md#statuses-and-locks): lockout_reason is the first of these present. */
export const LOCK_SEVERITY = [
  'max_loss_breach',
  'evaluation_failed',
  'daily_loss_breach',
  'flat_by',
  'firm_lockout',
  'account_replaced',
  'evaluation_passed',
] as const;
export type LockReason = (typeof LOCK_SEVERITY)[number];

export type RiskEngineState = 'loading' | 'ready';

export interface LockChange {
  lock: LockReason;
  change: 'added' | 'removed';
  reason: string;
  occurredAtMs: number;
}

export interface AccountStatusRecord {
  status: AccountStatus;
  reason: string;
  occurredAtMs: number;
  /** On a `failed` record: the rule that failed the account. */
  rule?: FailureRule;
}

export interface AccountLifecycleContext {
  /** The lock set, without duplicates, most severe first. */
  locks: readonly LockReason[];
  /** Every lock added or removed, in order; the kernel publishes the new tail after each send. */
  lockChanges: readonly LockChange[];
  /** Every status entered, starting with `active` at creation. */
  statusHistory: readonly AccountStatusRecord[];
  /** When the current (or last) risk-engine load began: creation or the last accepted UNLOCK. */
  riskLoadStartedAtMs: number;
}

export type AccountLifecycleEvent =
  | { type: 'MAX_LOSS_BREACH'; reason: string; occurredAtMs: number }
  | { type: 'RULE_FAILURE'; rule: PlanRule; reason: string; occurredAtMs: number }
  | { type: 'DAILY_LOSS_BREACH'; reason: string; occurredAtMs: number }
  | { type: 'SESSION_ROLL'; reason: string; occurredAtMs: number }
  | { type: 'FLAT_BY'; reason: string; occurredAtMs: number }
  | { type: 'FLAT_BY_END'; reason: string; occurredAtMs: number }
  | { type: 'LOCKOUT'; reason: string; occurredAtMs: number }
  | { type: 'UNLOCK'; reason: string; occurredAtMs: number }
  | { type: 'PASS'; reason: string; occurredAtMs: number }
  | { type: 'REPLACE'; reason: string; occurredAtMs: number }
  | { type: 'RISK_LOADED'; loadStartedAtMs: number; occurredAtMs: number };

export interface AccountLifecycleInput {
  occurredAtMs: number;
}

/** True while any lock is present (is_locked). */
export function isLocked(locks: readonly LockReason[]): boolean {
  return locks.length > 0;
}

/** The most severe lock present (lockout_reason), or undefined when unlocked. Accepts locks in any order. */
export function lockoutReasonOf(locks: readonly LockReason[]): LockReason | undefined {
  return LOCK_SEVERITY.find((lock) => locks.includes(lock));
}

/** The rule that failed the account (kept when it is then replaced), or undefined when it never failed. */
export function failedRuleOf(context: AccountLifecycleContext): FailureRule | undefined {
  return context.statusHistory.find((record) => record.status === 'failed')?.rule;
}

function withLock(locks: readonly LockReason[], lock: LockReason): readonly LockReason[] {
  return LOCK_SEVERITY.filter((candidate) => candidate === lock || locks.includes(candidate));
}

function withoutLock(locks: readonly LockReason[], lock: LockReason): readonly LockReason[] {
  return locks.filter((candidate) => candidate !== lock);
}

function reasonOf(event: AccountLifecycleEvent): string {
  return 'reason' in event ? event.reason : event.type;
}

/** What every account that is not closed takes: a firm lockout and unlock, and a replace. */
const NOT_CLOSED_TRANSITIONS = {
  LOCKOUT: {
    guard: { type: 'lacksLock', params: { lock: 'firm_lockout' } },
    actions: { type: 'addLock', params: { lock: 'firm_lockout' } },
  },
  UNLOCK: {
    guard: { type: 'hasLock', params: { lock: 'firm_lockout' } },
    actions: { type: 'removeLock', params: { lock: 'firm_lockout' } },
  },
  REPLACE: {
    target: 'closed',
    actions: [
      { type: 'recordStatus', params: { status: 'closed' } },
      { type: 'addLock', params: { lock: 'account_replaced' } },
    ],
  },
} as const;

type Args = { context: AccountLifecycleContext; event: AccountLifecycleEvent };

/** The machine's guards, named as its transitions name them; account-lifecycle.ts runs them without an actor. */
export const accountGuards = {
  hasLock: ({ context }: Args, params: { lock: LockReason }) => context.locks.includes(params.lock),
  lacksLock: ({ context }: Args, params: { lock: LockReason }) => !context.locks.includes(params.lock),
  /** RISK_LOADED ends only the load in progress, not one an UNLOCK has since restarted. */
  isCurrentRiskLoad: ({ context, event }: Args) =>
    event.type === 'RISK_LOADED' && event.loadStartedAtMs === context.riskLoadStartedAtMs,
};

/** The machine's assign actions, as the assignments given to `assign`. */
export const accountAssignments = {
  addLock: ({ context, event }: Args, params: { lock: LockReason }): Partial<AccountLifecycleContext> => ({
    locks: withLock(context.locks, params.lock),
    lockChanges: [
      ...context.lockChanges,
      { lock: params.lock, change: 'added' as const, reason: reasonOf(event), occurredAtMs: event.occurredAtMs },
    ],
  }),
  removeLock: ({ context, event }: Args, params: { lock: LockReason }): Partial<AccountLifecycleContext> => ({
    locks: withoutLock(context.locks, params.lock),
    lockChanges: [
      ...context.lockChanges,
      { lock: params.lock, change: 'removed' as const, reason: reasonOf(event), occurredAtMs: event.occurredAtMs },
    ],
  }),
  recordStatus: ({ context, event }: Args, params: { status: AccountStatus }): Partial<AccountLifecycleContext> => ({
    statusHistory: [
      ...context.statusHistory,
      { status: params.status, reason: reasonOf(event), occurredAtMs: event.occurredAtMs },
    ],
  }),
  /** The failed record names its rule: the event's, or max_loss_breach for a max-loss breach. */
  recordFailure: ({ context, event }: Args): Partial<AccountLifecycleContext> => ({
    statusHistory: [
      ...context.statusHistory,
      {
        status: 'failed' as const,
        reason: reasonOf(event),
        occurredAtMs: event.occurredAtMs,
        rule: event.type === 'RULE_FAILURE' ? event.rule : 'max_loss_breach',
      },
    ],
  }),
  beginRiskLoad: ({ event }: Args): Partial<AccountLifecycleContext> => ({ riskLoadStartedAtMs: event.occurredAtMs }),
};

/** A new account's context. */
export function initialAccountContext(input: AccountLifecycleInput): AccountLifecycleContext {
  return {
    locks: [],
    lockChanges: [],
    statusHistory: [{ status: 'active', reason: 'created', occurredAtMs: input.occurredAtMs }],
    riskLoadStartedAtMs: input.occurredAtMs,
  };
}

export const accountMachine = setup({
  types: {
    context: {} as AccountLifecycleContext,
    events: {} as AccountLifecycleEvent,
    input: {} as AccountLifecycleInput,
  },
  guards: accountGuards,
  actions: {
    addLock: assign(accountAssignments.addLock),
    removeLock: assign(accountAssignments.removeLock),
    recordStatus: assign(accountAssignments.recordStatus),
    recordFailure: assign(accountAssignments.recordFailure),
    beginRiskLoad: assign(accountAssignments.beginRiskLoad),
  },
}).createMachine({
  id: 'account',
  type: 'parallel',
  context: ({ input }) => initialAccountContext(input),
  states: {
    status: {
      initial: 'active',
      states: {
        active: {
          on: {
            MAX_LOSS_BREACH: {
              target: 'failed',
              actions: ['recordFailure', { type: 'addLock', params: { lock: 'max_loss_breach' } }],
            },
            RULE_FAILURE: {
              target: 'failed',
              actions: ['recordFailure', { type: 'addLock', params: { lock: 'evaluation_failed' } }],
            },
            DAILY_LOSS_BREACH: {
              guard: { type: 'lacksLock', params: { lock: 'daily_loss_breach' } },
              actions: { type: 'addLock', params: { lock: 'daily_loss_breach' } },
            },
            SESSION_ROLL: {
              guard: { type: 'hasLock', params: { lock: 'daily_loss_breach' } },
              actions: { type: 'removeLock', params: { lock: 'daily_loss_breach' } },
            },
            FLAT_BY: {
              guard: { type: 'lacksLock', params: { lock: 'flat_by' } },
              actions: { type: 'addLock', params: { lock: 'flat_by' } },
            },
            FLAT_BY_END: {
              guard: { type: 'hasLock', params: { lock: 'flat_by' } },
              actions: { type: 'removeLock', params: { lock: 'flat_by' } },
            },
            ...NOT_CLOSED_TRANSITIONS,
            PASS: {
              target: 'passed',
              actions: [
                { type: 'recordStatus', params: { status: 'passed' } },
                { type: 'addLock', params: { lock: 'evaluation_passed' } },
              ],
            },
          },
        },
        failed: {
          on: {
            ...NOT_CLOSED_TRANSITIONS,
          },
        },
        passed: {
          on: {
            ...NOT_CLOSED_TRANSITIONS,
          },
        },
        closed: { type: 'final' },
      },
    },
    riskEngine: {
      initial: 'loading',
      on: {
        // The same condition under which the status region accepts UNLOCK: guards see the pre-event context.
        UNLOCK: {
          guard: and([{ type: 'hasLock', params: { lock: 'firm_lockout' } }, not(stateIn({ status: 'closed' }))]),
          target: '.loading',
          actions: 'beginRiskLoad',
        },
      },
      states: {
        loading: { on: { RISK_LOADED: { guard: 'isCurrentRiskLoad', target: 'ready' } } },
        ready: {},
      },
    },
  },
});

export type AccountSnapshot = SnapshotFrom<typeof accountMachine>;

/** The status region of the state value. */
export function accountStatusOf(snapshot: AccountSnapshot): AccountStatus {
  return snapshot.value.status;
}

/** The risk-engine region: while `loading`, the kernel answers the risk-state read with 503. */
export function riskEngineStateOf(snapshot: AccountSnapshot): RiskEngineState {
  return snapshot.value.riskEngine;
}
