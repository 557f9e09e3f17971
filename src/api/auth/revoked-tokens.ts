// Session tokens revoked by a logout or a refresh (docs/api.md#keys-and-login), each kept until the token would have
// expired anyway (docs/api.md#memory-stays-bounded): an expired token is refused as expired whether or not it was
// revoked, so its id no longer matters, and keeping ids for good would grow every snapshot by one a refresh. Expired
// ids are dropped as the map grows (sweep-schedule.ts) and before each snapshot.
import { declareSnapshot } from '../../core/snapshot/snapshot-fields.js';
import { SweepSchedule } from '../gateway/sweep-schedule.js';

export class RevokedTokens {
  /** Token id → when the token expires (ms). */
  private readonly ids = new Map<string, number>();
  private readonly sweeps = new SweepSchedule();

  has(tokenId: string): boolean {
    return this.ids.has(tokenId);
  }

  /** Revokes a token that expires at `expiresAtMs`; those expired by `nowMs` go as the map grows. */
  revoke(tokenId: string, expiresAtMs: number, nowMs: number): void {
    this.sweeps.sweep(this.ids, (expires) => expires <= nowMs);
    this.ids.set(tokenId, expiresAtMs);
  }

  /** Drops every id whose token has expired by `nowMs` (before a snapshot keeps them). */
  prune(nowMs: number): void {
    for (const [tokenId, expiresAtMs] of this.ids) if (expiresAtMs <= nowMs) this.ids.delete(tokenId);
  }

  clear(): void {
    this.ids.clear();
  }

  /** The ids held, oldest first. */
  [Symbol.iterator](): IterableIterator<string> {
    return this.ids.keys();
  }

  /** How many ids are held (expired ones included until a sweep). */
  get size(): number {
    return this.ids.size;
  }
}

declareSnapshot(RevokedTokens, { kept: ['ids'], skipped: ['sweeps'] });
