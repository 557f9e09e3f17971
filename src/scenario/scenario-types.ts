// The validated, typed form of a scenario file (docs/scenarios.md). Produced by
// parse-scenario.ts; consumed by the runner and expectations. Field names follow the project's conventions
// (camelCase, units last); decimal strings that reach the kernel or a report are kept exactly as written.
import type { PlanTemplate } from '../core/accounts/plans.js';
import type { MarketFileSpec } from '../market/market-file-spec.js';

export interface FillModelConfig {
  /** Order placement reaches the venue after this many ms. */
  readonly latencyMs: number;
  /** Cancels travel this long; `cancel_latency_ms`, default latency_ms. */
  readonly cancelLatencyMs: number;
  /** Modifies travel this long; `modify_latency_ms`, default latency_ms. */
  readonly modifyLatencyMs: number;
  readonly slippageTicks: number;
  readonly limitFill: 'touch' | 'through';
}

export interface ScenarioAccount {
  readonly alias: string;
  /** Key of the plan in `Scenario.plans`. */
  readonly planName: string;
  /** The account's own template: the plan with the account's overlays merged in (a fresh object). */
  readonly plan: PlanTemplate;
  readonly pricePaidCents?: number;
}

export interface Scenario {
  /** The file as named to the loader; messages and reports use it. */
  readonly file: string;
  readonly name: string;
  readonly description?: string;
  readonly startMs: number;
  readonly seed: number;
  readonly fillModel: FillModelConfig;
  /** The risk engine's loading window after create and unlock, ms (default 250). */
  readonly riskLoadDelayMs?: number;
  /** The events_sha256 the run must write (`expect_events_sha256`: a session export names its own). */
  readonly expectEventsSha256?: string;
  /** The file's own plans, and the plan files its accounts refer to by name. */
  readonly plans: ReadonlyMap<string, PlanTemplate>;
  readonly accounts: readonly ScenarioAccount[];
  /** Paths resolved against the scenario file's folder; each file existed when the scenario was loaded. */
  readonly market: readonly MarketFileSpec[];
  readonly steps: readonly ScenarioStep[];
}

export const HTTP_STATUSES = [200, 201, 202, 400, 403, 404, 409, 421, 429, 502, 503] as const;
export type HttpStatus = (typeof HTTP_STATUSES)[number];

export const FIRM_CONTROL_KINDS = [
  'lockout',
  'unlock',
  'flatten',
  'adjust',
  'daily_loss_trigger',
  'reanchor',
  'max_loss_limit',
] as const;
export type FirmControlKind = (typeof FIRM_CONTROL_KINDS)[number];

export const TRADING_KINDS = ['tick', 'fill', 'order', 'modify', 'cancel', 'oco'] as const;

export const STEP_KINDS = ['at', 'advance', ...TRADING_KINDS, ...FIRM_CONTROL_KINDS, 'expect', 'input'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** Steps that may carry `expect_status`. */
export const STATUS_STEP_KINDS: readonly StepKind[] = ['order', 'modify', 'cancel', 'oco', ...FIRM_CONTROL_KINDS];

interface StepBase<K extends StepKind> {
  /** Position in `steps`, from 0. */
  readonly index: number;
  readonly kind: K;
  /** Simulated time the step runs at (for `at` and `advance`: the time the clock is advanced to). */
  readonly timeMs: number;
}

export interface AtStep extends StepBase<'at'> {
  readonly atMs: number;
}

export interface AdvanceStep extends StepBase<'advance'> {
  readonly durationMs: number;
}

/** A kernel input as a journal records it, applied at `timeMs` (docs/scenarios.md#input-steps). */
export interface InputStep extends StepBase<'input'> {
  /** A kernel command type, or `print`. */
  readonly type: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export type { Side } from '../core/positions/execution.js';
import type { Side } from '../core/positions/execution.js';

export interface TickStep extends StepBase<'tick'> {
  readonly instrument: string;
  /** Decimal string as written (up to 9 places). */
  readonly price: string;
  /** Absent: the print has no size limit. */
  readonly size?: number;
}

export interface FillStep extends StepBase<'fill'> {
  readonly account: string;
  readonly instrument: string;
  readonly side: Side;
  readonly quantity: number;
  readonly price: string;
  /** Execution time; absent = the step's time. */
  readonly atMs?: number;
}

export type OrderType = 'market' | 'limit' | 'stop' | 'stop_limit';
export type TimeInForce = 'day' | 'gtc' | 'ioc' | 'fok';

export interface OrderStep extends StepBase<'order'> {
  readonly ref: string;
  readonly account: string;
  /** A symbol the catalog knows, as written (validation refuses an unknown root). */
  readonly instrument: string;
  readonly side: Side;
  readonly quantity: number;
  readonly orderType: OrderType;
  /** Decimal strings as written; the tick grid is the venue's check, not the loader's. */
  readonly limitPrice?: string;
  readonly stopPrice?: string;
  readonly tif: TimeInForce;
  readonly expectStatus?: HttpStatus;
}

export interface ModifyStep extends StepBase<'modify'> {
  readonly ref: string;
  readonly quantity?: number;
  readonly limitPrice?: string;
  readonly stopPrice?: string;
  readonly expectStatus?: HttpStatus;
}

export interface CancelStep extends StepBase<'cancel'> {
  readonly ref: string;
  readonly expectStatus?: HttpStatus;
}

export interface OcoStep extends StepBase<'oco'> {
  readonly group: string;
  /** `link`: a new group of ≥ 2 orders; `companion`: one order added to a group an earlier step made. */
  readonly action: 'link' | 'companion';
  readonly refs: readonly string[];
  readonly expectStatus?: HttpStatus;
}

/** Typed arguments of each firm-control step, when it was fully validated (no expect_status). */
export interface FirmControlArgs {
  lockout: { readonly reasonCode?: string; readonly flatten: boolean };
  unlock: Record<string, never>;
  flatten: Record<string, never>;
  adjust: { readonly amountCents: number; readonly reasonCode?: string; readonly shiftFloors: boolean };
  daily_loss_trigger: { readonly dailyLossLimitTriggerCents: number; readonly reasonCode: string };
  reanchor: { readonly reasonCode: string };
  /** `null`: remove the cap. */
  max_loss_limit: { readonly maxDrawdownLimitCents: number | null };
}

/**
 * A firm-control operation. `body` is the request body exactly as written (every field but `account`), which
 * is what the operation receives. Without `expectStatus` the step was fully validated up front and `args`
 * holds the typed values; with it only its shape was checked, `args` is absent, and `account` may name no
 * account (the operation answers 404).
 */
export type FirmControlStep = {
  [K in FirmControlKind]: StepBase<K> & {
    readonly account: string;
    readonly body: Readonly<Record<string, unknown>>;
    readonly expectStatus?: HttpStatus;
    readonly args?: FirmControlArgs[K];
  };
}[FirmControlKind];

export type ExpectSubject =
  | { readonly kind: 'account'; readonly account: string }
  | { readonly kind: 'order'; readonly ref: string }
  | { readonly kind: 'position'; readonly account: string; readonly instrument: string };

/** Expected values as written: decimal strings compare by value; `null` means absent. */
export type ExpectedValue = string | number | boolean | null;

export interface ExpectCheck {
  readonly field: string;
  readonly expected: ExpectedValue;
}

export interface ExpectStep extends StepBase<'expect'> {
  readonly subject: ExpectSubject;
  /** In the order written. */
  readonly checks: readonly ExpectCheck[];
}

export type ScenarioStep =
  | AtStep
  | AdvanceStep
  | TickStep
  | FillStep
  | OrderStep
  | ModifyStep
  | CancelStep
  | OcoStep
  | FirmControlStep
  | ExpectStep
  | InputStep;
