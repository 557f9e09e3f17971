// What the sandbox keeps outside the kernel, as journal records (docs/api.md#persistence): logins (for the shared-device
// events), revoked session tokens, idempotency answers, fault windows, and two markers the streams' numbering
// depends on (the seed's end, the first subscription). The durable store writes them between the kernel's input lines
// in the order they happened, so a restart that applies both in order rebuilds the same sandbox.
import type { FieldDetail } from '../../core/outcome.js';
import type { Login } from './device-logins.js';
import type { FaultWindow } from './fault-windows.js';

/** An idempotency answer as stored: an error answer keeps its envelope fields. */
export interface StoredIdempotencyAnswer {
  firm: string;
  key: string;
  fingerprint: string;
  status: number;
  body: unknown;
  expires_at_ms: number;
}

export interface StoredError {
  error: string;
  code: string;
  details?: readonly FieldDetail[];
}

export type SandboxRecord =
  | { type: 'sandbox.seeded' }
  | { type: 'sandbox.streams_activated' }
  | { type: 'sandbox.login'; data: Login }
  /** `expires_at_ms`: when the token expires, and its id can go (absent in records of earlier versions). */
  | { type: 'sandbox.token_revoked'; data: { token_id: string; expires_at_ms?: number } }
  | { type: 'sandbox.idempotency_stored'; data: StoredIdempotencyAnswer }
  | { type: 'sandbox.fault_opened'; data: FaultWindow }
  | { type: 'sandbox.faults_cleared' };

/** The record's journal line: keys in a fixed order, so the same session stores the same bytes. */
export function recordLine(record: SandboxRecord): string {
  return JSON.stringify(record);
}

/** Whether a parsed journal line is a sandbox record (the others are the kernel's `input.*` lines). */
export function isSandboxRecord(line: { type: string }): line is SandboxRecord {
  return line.type.startsWith('sandbox.');
}
