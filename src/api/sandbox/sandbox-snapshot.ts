// What a durable sandbox's snapshot keeps (docs/api.md#persistence): the kernel and what the gateway keeps, but not
// the journal's lines (the store has them), and how often one is taken.
import type { Kernel } from '../../core/kernel/kernel.js';
import type { RevokedTokens } from '../auth/revoked-tokens.js';
import type { StreamLog } from '../streams/stream-log.js';
import type { DeviceLogins } from './device-logins.js';
import type { FaultWindows } from './fault-windows.js';
import type { IdempotencyRecords } from './idempotency.js';

/**
 * A snapshot every 250,000 journal lines: a restart after a kill applies at most that many lines. A snapshot stops the
 * server while it is taken, for a time that grows with the state, so a large state is snapshotted less often: only
 * once as many lines have come since the last one as it covers. That bounds the share of time spent on snapshots
 * (the restart benchmark, docs/performance.md).
 */
export const SNAPSHOT_EVERY_LINES = 250_000;

/** The parts of a sandbox a snapshot keeps, by the name it keeps each under. */
export type SandboxSnapshotParts = {
  kernel: Kernel;
  idempotency: IdempotencyRecords;
  deviceLogins: DeviceLogins;
  faults: FaultWindows;
  streams: StreamLog;
  revokedTokens: RevokedTokens;
};

/** The parts, with the journal's lines left out: the store has them. */
export function snapshotParts(parts: SandboxSnapshotParts) {
  const omit = new Map<object, readonly string[]>([[parts.kernel.journal, ['chunks', 'recent']]]);
  return { parts, omit };
}

/** Whether the store is due a snapshot: as many lines since the last as `every`, and as the last one covers. */
export function snapshotDue(linesSinceSnapshot: number, linesInSnapshot: number, every: number): boolean {
  return linesSinceSnapshot >= Math.max(every, linesInSnapshot);
}

/** A count as the restart and snapshot notes print it. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Milliseconds as the notes print them. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
