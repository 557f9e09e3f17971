// Historical fills the engine dropped because the account could not take them (docs/risk-rules.md#historical-fills),
// counted per trader and per cell by why (docs/backtesting.md#fills-the-engine-dropped).
import type { RiskStateJson } from '../../core/shapes/account.js';

export interface DroppedFills {
  /** A daily-loss or firm lock, or a closed or replaced account. */
  locked: number;
  /** The account had failed (max-loss breach). */
  failed: number;
  /** The account had passed, or was locked for its pass. */
  passed: number;
}

export function noDroppedFills(): DroppedFills {
  return { locked: 0, failed: 0, passed: 0 };
}

/** Why a fill was dropped, from the account's state then: its status first, then its most severe lock. */
export function droppedBecause(state: Pick<RiskStateJson, 'account_status' | 'lockout_reason'>): keyof DroppedFills {
  if (state.account_status === 'failed' || state.lockout_reason === 'max_loss_breach') return 'failed';
  if (state.account_status === 'passed' || state.lockout_reason === 'evaluation_passed') return 'passed';
  return 'locked';
}

export function addDroppedFills(total: DroppedFills, more: DroppedFills): DroppedFills {
  return { locked: total.locked + more.locked, failed: total.failed + more.failed, passed: total.passed + more.passed };
}
