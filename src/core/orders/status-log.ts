// An order's status history as the order machine keeps it (docs/order-lifecycle.md#status-history): one flat array,
// three entries per record (status, reason, time), the first record's time in milliseconds since the epoch and each
// later one's as milliseconds after it. Flat rather than one object per record, because an order's records are most
// of what a large sandbox holds: fewer objects to allocate at each transition and to decode at a restart (the restart
// benchmark, docs/performance.md). The records are read through the functions below, never by position.
import type { OrderStatus } from './order-status.js';

/** One status record: the order's status after a change, why, and when. */
export interface StatusRecord {
  status: OrderStatus;
  reason: string;
  occurredAtMs: number;
}

export type StatusLog = readonly (string | number)[];

const FIELDS = 3;

export function startStatusLog(status: OrderStatus, reason: string, occurredAtMs: number): StatusLog {
  return [status, reason, occurredAtMs];
}

/** The log with one more record (a new array: the machine's context is never changed in place). */
export function appendStatus(log: StatusLog, status: OrderStatus, reason: string, occurredAtMs: number): StatusLog {
  return [...log, status, reason, occurredAtMs - (log[2] as number)];
}

export function statusCount(log: StatusLog): number {
  return log.length / FIELDS;
}

/** The n-th record (0 is the first); n must be below statusCount. */
export function statusRecordAt(log: StatusLog, n: number): StatusRecord {
  const at = n * FIELDS;
  const firstMs = log[2] as number;
  return {
    status: log[at] as OrderStatus,
    reason: log[at + 1] as string,
    occurredAtMs: n === 0 ? firstMs : firstMs + (log[at + 2] as number),
  };
}

export function lastStatusRecord(log: StatusLog): StatusRecord {
  return statusRecordAt(log, statusCount(log) - 1);
}

export function statusRecords(log: StatusLog): StatusRecord[] {
  return Array.from({ length: statusCount(log) }, (_, n) => statusRecordAt(log, n));
}
