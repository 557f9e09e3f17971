// Fault windows (docs/api.md#fault-windows): for `duration_ms` of simulated time, requests to a target (and path
// prefix) answer a chosen 421, 429, 502 or 503, so a client's retry policy can be tested.
import { randomUUID } from 'node:crypto';
import { declareSnapshot } from '../../core/snapshot/snapshot-fields.js';

export type FaultTarget = 'gateway' | 'trading' | 'balances' | 'risk' | 'accounts';
export const FAULT_TARGETS: readonly FaultTarget[] = ['gateway', 'trading', 'balances', 'risk', 'accounts'];
export type FaultStatus = 421 | 429 | 502 | 503;

export interface FaultWindow {
  faultId: string;
  target: FaultTarget;
  status: FaultStatus;
  untilMs: number;
  pathPrefix?: string;
}

export class FaultWindows {
  private windows: FaultWindow[] = [];

  /** A window with a new id, not yet open: the sandbox journals it, then `add`s it. */
  static make(window: Omit<FaultWindow, 'faultId'>): FaultWindow {
    return { faultId: randomUUID(), ...window };
  }

  add(window: FaultWindow): void {
    this.windows.push(window);
  }

  clear(): void {
    this.windows = [];
  }

  /** The first open window over this request, if any; windows past their end are dropped. */
  match(targets: readonly FaultTarget[], path: string, nowMs: number): FaultWindow | undefined {
    if (this.windows.length === 0) return undefined;
    this.windows = this.windows.filter((w) => w.untilMs > nowMs);
    return this.windows.find(
      (w) => targets.includes(w.target) && (w.pathPrefix === undefined || path.startsWith(w.pathPrefix)),
    );
  }
}

declareSnapshot(FaultWindows, {
  kept: ['windows'],
  skipped: [],
});
