// docs/order-lifecycle.md#status-history: an order's status records kept flat, later times after the first.
import { describe, expect, it } from 'vitest';
import {
  appendStatus,
  lastStatusRecord,
  startStatusLog,
  statusCount,
  statusRecordAt,
  statusRecords,
} from '../../../src/core/orders/status-log.js';

/** Tuesday 2026-03-10 09:00 CDT. */
const PLACED_MS = 1_773_151_200_000;

describe('status log', () => {
  it('gives back every record as written, the later times kept as small offsets from the first', () => {
    const placed = startStatusLog('SUBMITTED', 'accepted', PLACED_MS);
    const partly = appendStatus(placed, 'PARTIALLY_FILLED', 'filled 1', PLACED_MS + 250);
    // A GTC order filled 40 days later: 3,456,000,000 ms after placement, beyond a small integer, still exact.
    const filled = appendStatus(partly, 'FILLED', 'filled 2', PLACED_MS + 40 * 86_400_000);
    expect(filled).toEqual([
      'SUBMITTED',
      'accepted',
      PLACED_MS,
      'PARTIALLY_FILLED',
      'filled 1',
      250,
      'FILLED',
      'filled 2',
      3_456_000_000,
    ]);
    expect(statusCount(filled)).toBe(3);
    expect(statusRecords(filled)).toEqual([
      { status: 'SUBMITTED', reason: 'accepted', occurredAtMs: PLACED_MS },
      { status: 'PARTIALLY_FILLED', reason: 'filled 1', occurredAtMs: 1_773_151_200_250 },
      { status: 'FILLED', reason: 'filled 2', occurredAtMs: 1_776_607_200_000 },
    ]);
    expect(statusRecordAt(filled, 1).occurredAtMs).toBe(1_773_151_200_250);
    expect(lastStatusRecord(filled)).toEqual({ status: 'FILLED', reason: 'filled 2', occurredAtMs: 1_776_607_200_000 });
    expect(lastStatusRecord(placed)).toEqual({ status: 'SUBMITTED', reason: 'accepted', occurredAtMs: PLACED_MS });
  });

  it('appends to a new log and leaves the one it was given as it was (the machine context is never changed in place)', () => {
    const placed = startStatusLog('SUBMITTED', 'accepted', PLACED_MS);
    const cancelled = appendStatus(placed, 'CANCELLED', 'cancelled by client', PLACED_MS + 5);
    expect(cancelled).not.toBe(placed);
    expect(statusCount(placed)).toBe(1);
    expect(statusCount(cancelled)).toBe(2);
  });
});
