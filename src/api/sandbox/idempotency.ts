// Idempotency of POST /v1/orders (docs/api.md#idempotency): per firm and key, the fingerprint of the body and the
// whole answer, kept for 24 hours of simulated time. A key is "in flight" from the moment its request arrives until
// its answer is stored (or the request ends without one), so a concurrent duplicate is told so.
import { createHash } from 'node:crypto';
import { SweepSchedule } from '../gateway/sweep-schedule.js';
import { declareSnapshot } from '../../core/snapshot/snapshot-fields.js';

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
  /** Keys in flight, each with the request that holds it. */
  private readonly inFlight = new Map<string, object>();
  private readonly sweeps = new SweepSchedule();

  clear(): void {
    this.answers.clear();
    this.inFlight.clear();
  }

  /** Marks a key in flight for `holder` as its request arrives; false when another request holds it. */
  claim(firmId: string, key: string, holder: object): boolean {
    const id = `${firmId}\u0000${key}`;
    if (this.inFlight.has(id)) return false;
    this.inFlight.set(id, holder);
    return true;
  }

  /** Lets the key go if `holder` holds it (releasing twice, or after a reset, does nothing). */
  release(firmId: string, key: string, holder: object): void {
    const id = `${firmId}\u0000${key}`;
    if (this.inFlight.get(id) === holder) this.inFlight.delete(id);
  }

  lookup(firmId: string, key: string, fingerprint: string, nowMs: number): IdempotencyLookup {
    const answer = this.answers.get(`${firmId}\u0000${key}`);
    if (!answer || answer.expiresAtMs <= nowMs) return { kind: 'new' };
    return answer.fingerprint === fingerprint ? { kind: 'replay', answer } : { kind: 'reused' };
  }

  /** Keeps an answer; those expired by `nowMs` are dropped as the records grow (memory stays bounded). */
  store(firmId: string, key: string, answer: StoredAnswer, nowMs: number): void {
    this.sweeps.sweep(this.answers, (kept) => kept.expiresAtMs <= nowMs);
    this.answers.set(`${firmId}\u0000${key}`, answer);
  }

  /** How many answers are kept (expired ones included until a sweep). */
  get size(): number {
    return this.answers.size;
  }
}

// Snapshots keep the answers; the requests in flight are this process's only, and the sweep schedule starts afresh.
declareSnapshot(IdempotencyRecords, {
  kept: ['answers'],
  skipped: ['inFlight', 'sweeps'],
});

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
