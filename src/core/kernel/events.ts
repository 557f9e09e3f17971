// Events the kernel publishes (and journals). Names follow the interface's event table where it has one
// (orders.state, positions.created, balance.updated); the payloads are the public JSON forms.

export type KernelEventType =
  | 'accounts.created'
  | 'accounts.locked'
  | 'accounts.unlocked'
  | 'accounts.adjusted'
  | 'accounts.replaced'
  | 'accounts.flattened'
  | 'session.rolled'
  | 'orders.state'
  | 'orders.modify_dropped'
  | 'fills.created'
  | 'fills.dropped'
  | 'positions.created'
  | 'trades.closed'
  | 'balance.updated';

export interface KernelEvent {
  type: KernelEventType;
  timeMs: number;
  data: Record<string, unknown>;
}

/** An API shape as event data without a copy: shapes are interfaces, which TypeScript does not take as records. */
export function eventData(shape: object): Record<string, unknown> {
  return shape as Record<string, unknown>;
}

/** Timer events the kernel schedules on its SimClock. */
export type KernelTimer =
  | { kind: 'order_arrives'; orderId: string }
  | { kind: 'cancel_arrives'; orderId: string }
  | { kind: 'modify_arrives'; orderId: string; change: { quantity?: number; limitPrice?: string; stopPrice?: string } }
  | { kind: 'order_expires'; orderId: string }
  | { kind: 'session_roll' }
  /** Accounts filed at this instant by a rule of the clock (timed-rules.ts: flat times, news windows). */
  | { kind: 'timed_rules' }
  | { kind: 'risk_loaded'; accountId: string; loadStartedAtMs: number };
