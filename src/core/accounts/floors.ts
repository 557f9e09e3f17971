// The max-loss and daily-loss floors of one account (docs/risk-rules.md#equity-and-the-max-loss-floor,
// docs/risk-rules.md#daily-loss), in integer cents. Pure functions on a small mutable record: the risk engine calls
// them when a fill realizes P&L, a mark moves equity, a session rolls, or a firm operation changes a floor. "≤"
// everywhere: touching a floor breaches it.
//
//   static            trigger = starting_balance - max_drawdown_value, fixed
//   realtime_balance  peak = highest balance (moves when a fill realizes P&L)
//   realtime_equity   peak = highest equity on any mark
//   eod_balance       peak = highest end-of-session equity, taken at each session roll
//   trailing modes    trigger = peak - value, or min(peak - value, ceiling) when capped,
//                     ceiling = starting_balance + max_drawdown_limit
// Peaks never fall, so the trigger never falls, except by a cash adjustment or a max-loss-limit change.
import type { MaxDrawdownMode } from './plans.js';

export interface FloorParams {
  readonly mode: MaxDrawdownMode;
  readonly startingBalanceCents: number;
  readonly maxDrawdownValueCents: number;
  /** Cap offset from the starting balance; ignored by the static mode. */
  readonly maxDrawdownLimitCents?: number;
  readonly dailyLossValueCents?: number;
}

export interface Floors {
  mode: MaxDrawdownMode;
  startingBalanceCents: number;
  maxDrawdownValueCents: number;
  /** Trailing cap offset; undefined when uncapped (and always for static). */
  maxDrawdownLimitCents: number | undefined;
  /** The peak the trailing mode follows (static: the highest balance): highest_realized_balance. */
  peakCents: number;
  maxLossTriggerCents: number;
  dailyLossValueCents: number | undefined;
  startOfDayBalanceCents: number;
  dailyLossTriggerCents: number | undefined;
  /** Sum of cash adjustments that shifted the floors: the ceiling moves with them. */
  shiftCents: number;
}

export type Breach = 'max_loss' | 'daily_loss';

export function openFloors(params: FloorParams): Floors {
  const start = params.startingBalanceCents;
  const floors: Floors = {
    mode: params.mode,
    startingBalanceCents: start,
    maxDrawdownValueCents: params.maxDrawdownValueCents,
    maxDrawdownLimitCents: params.mode === 'static' ? undefined : params.maxDrawdownLimitCents,
    peakCents: start,
    maxLossTriggerCents: start - params.maxDrawdownValueCents,
    dailyLossValueCents: params.dailyLossValueCents,
    startOfDayBalanceCents: start,
    dailyLossTriggerCents: params.dailyLossValueCents === undefined ? undefined : start - params.dailyLossValueCents,
    shiftCents: 0,
  };
  floors.maxLossTriggerCents = trailingTrigger(floors);
  return floors;
}

/** max_drawdown_lock_ceiling: starting balance + cap (+ shifts), or undefined when uncapped or static. */
export function ceilingCents(floors: Floors): number | undefined {
  return floors.maxDrawdownLimitCents === undefined
    ? undefined
    : floors.startingBalanceCents + floors.maxDrawdownLimitCents + floors.shiftCents;
}

function trailingTrigger(floors: Floors): number {
  if (floors.mode === 'static') return floors.maxLossTriggerCents;
  const trailing = floors.peakCents - floors.maxDrawdownValueCents;
  const ceiling = ceilingCents(floors);
  return ceiling === undefined ? trailing : Math.min(trailing, ceiling);
}

/** Raises the peak (never lowers it) and the trailing trigger with it. True when the trigger moved. */
function raisePeak(floors: Floors, candidateCents: number): boolean {
  if (candidateCents <= floors.peakCents) return false;
  floors.peakCents = candidateCents;
  const before = floors.maxLossTriggerCents;
  floors.maxLossTriggerCents = Math.max(before, trailingTrigger(floors));
  return floors.maxLossTriggerCents !== before;
}

/** The balance changed by realized P&L or commissions: realtime_balance follows it, static reports it. */
export function onBalance(floors: Floors, balanceCents: number): boolean {
  if (floors.mode === 'realtime_balance' || floors.mode === 'static') return raisePeak(floors, balanceCents);
  return false;
}

/** A mark moved equity: realtime_equity follows its highs. */
export function onEquityMark(floors: Floors, equityCents: number): boolean {
  return floors.mode === 'realtime_equity' ? raisePeak(floors, equityCents) : false;
}

/**
 * Which floor a mark breaches, if any; max loss wins when both are crossed (docs/risk-rules.md#max-loss-wins).
 * With the trigger moved by this same mark first (realtime_equity), so a new high never breaches.
 */
export function breachAt(floors: Floors, equityCents: number): Breach | undefined {
  if (equityCents <= floors.maxLossTriggerCents) return 'max_loss';
  if (floors.dailyLossTriggerCents !== undefined && equityCents <= floors.dailyLossTriggerCents) return 'daily_loss';
  return undefined;
}

/**
 * The session roll (docs/risk-rules.md#session-rolls): eod_balance takes its peak from the end-of-session equity;
 * the daily-loss window restarts at the current balance.
 */
export function onSessionRoll(floors: Floors, balanceCents: number, equityAtCloseCents: number): void {
  if (floors.mode === 'eod_balance') raisePeak(floors, equityAtCloseCents);
  floors.startOfDayBalanceCents = balanceCents;
  if (floors.dailyLossValueCents !== undefined)
    floors.dailyLossTriggerCents = balanceCents - floors.dailyLossValueCents;
}

/**
 * A cash adjustment: with `shift`, the anchor, peak, both triggers and the ceiling move by the amount
 * (docs/risk-rules.md#cash-adjust).
 */
export function onAdjustment(floors: Floors, amountCents: number, shift: boolean): void {
  if (!shift) return;
  floors.shiftCents += amountCents;
  floors.peakCents += amountCents;
  floors.maxLossTriggerCents += amountCents;
  floors.startOfDayBalanceCents += amountCents;
  if (floors.dailyLossTriggerCents !== undefined) floors.dailyLossTriggerCents += amountCents;
}

/**
 * PATCH max-loss-limit: sets the cap (null removes it) and recomputes the trigger at once; it may fall.
 * Returns false for a static account (the API answers 409).
 */
export function setMaxDrawdownLimit(floors: Floors, limitCents: number | null): boolean {
  if (floors.mode === 'static') return false;
  floors.maxDrawdownLimitCents = limitCents ?? undefined;
  floors.maxLossTriggerCents = trailingTrigger(floors);
  return true;
}

/**
 * setDailyLossTrigger: replaces the daily-loss floor for the current session; balance, start-of-day balance
 * and realized P&L stay. Returns the previous trigger, or undefined when the account has no daily-loss
 * limit (the API answers 409).
 */
export function setDailyLossTrigger(floors: Floors, triggerCents: number): { previousCents: number } | undefined {
  const previousCents = floors.dailyLossTriggerCents;
  if (previousCents === undefined) return undefined;
  floors.dailyLossTriggerCents = triggerCents;
  return { previousCents };
}

export interface Reanchor {
  allowanceCents: number;
  previousStartOfDayBalanceCents: number;
  previousDailyLossTriggerCents: number;
}

/**
 * reanchorDailyLoss, the interface's steps in order: allowance = previous anchor - previous trigger; the
 * anchor moves to the current balance; the trigger is the new anchor minus the allowance. The caller clears
 * realized_day_pnl. Undefined when there is no trigger or the allowance is not positive (409).
 */
export function reanchorDailyLoss(floors: Floors, balanceCents: number): Reanchor | undefined {
  const previousDailyLossTriggerCents = floors.dailyLossTriggerCents;
  if (previousDailyLossTriggerCents === undefined) return undefined;
  const previousStartOfDayBalanceCents = floors.startOfDayBalanceCents;
  const allowanceCents = previousStartOfDayBalanceCents - previousDailyLossTriggerCents;
  if (allowanceCents <= 0) return undefined;
  floors.startOfDayBalanceCents = balanceCents;
  floors.dailyLossTriggerCents = balanceCents - allowanceCents;
  return { allowanceCents, previousStartOfDayBalanceCents, previousDailyLossTriggerCents };
}
