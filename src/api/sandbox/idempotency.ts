// Idempotency of POST /v1/orders (docs/api.md#idempotency): per firm and key, the fingerprint of the body and the
// whole answer, kept for 24 hours of simulated time. A key is "in flight" from the moment its request arrives until
// its answer is stored, so a concurrent duplicate is told so instead of placing a second order.
import { createHash } from 'node:crypto';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: unknown;
  expiresAtMs: number;
}

export type IdempotencyLookup =
  { kind: 'new' } | { kind: 'in_flight' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'reused' };

export class IdempotencyRecords {
  private readonly answers = new Map<string, StoredAnswer>();
  private readonly inFlight = new Set<string>();

  clear(): void {
    this.answers.clear();
    this.inFlight.clear();
  }

  /** Marks a key in flight as its request arrives; false when another request holds it. */
  claim(firmId: string, key: string): boolean {
    const id = `${firmId}\u0000${key}`;
    if (this.inFlight.has(id)) return false;
    this.inFlight.add(id);
    return true;
  }

  release(firmId: string, key: string): void {
    this.inFlight.delete(`${firmId}\u0000${key}`);
  }

  lookup(firmId: string, key: string, fingerprint: string, nowMs: number): IdempotencyLookup {
    const answer = this.answers.get(`${firmId}\u0000${key}`);
    if (!answer || answer.expiresAtMs <= nowMs) return { kind: 'new' };
    return answer.fingerprint === fingerprint ? { kind: 'replay', answer } : { kind: 'reused' };
  }

  store(firmId: string, key: string, answer: StoredAnswer): void {
    this.answers.set(`${firmId}\u0000${key}`, answer);
  }
}

/** A body's fingerprint: its canonical JSON (keys sorted), hashed. */
export function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
