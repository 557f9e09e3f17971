// Why a historical fill was dropped (docs/backtesting.md#fills-the-engine-dropped): the account's status first,
// then its most severe lock (docs/risk-rules.md#statuses-and-locks).
import { describe, expect, it } from 'vitest';
import { addDroppedFills, droppedBecause } from '../../../src/backtest/fills/dropped-fills.js';

describe('fills the engine dropped', () => {
  it('counts a failed account as failed, a passed one as passed, any other lock as locked', () => {
    expect(droppedBecause({ account_status: 'failed', lockout_reason: 'max_loss_breach' })).toBe('failed');
    expect(droppedBecause({ account_status: 'passed' })).toBe('passed');
    // Passed at the roll: locked for the pass while still active.
    expect(droppedBecause({ account_status: 'active', lockout_reason: 'evaluation_passed' })).toBe('passed');
    expect(droppedBecause({ account_status: 'active', lockout_reason: 'daily_loss_breach' })).toBe('locked');
    expect(droppedBecause({ account_status: 'active', lockout_reason: 'firm_lockout' })).toBe('locked');
    expect(droppedBecause({ account_status: 'closed' })).toBe('locked');
  });

  it('a cell sums its traders, reason by reason', () => {
    // (1 + 0, 3 + 1, 0 + 2)
    expect(addDroppedFills({ locked: 1, failed: 3, passed: 0 }, { locked: 0, failed: 1, passed: 2 })).toEqual({
      locked: 1,
      failed: 4,
      passed: 2,
    });
  });
});
