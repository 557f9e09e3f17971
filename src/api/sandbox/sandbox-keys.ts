// The sandbox's secrets: the seed's API keys and what each grants, and the secret that signs session tokens.
import { randomBytes } from 'node:crypto';
import type { SandboxDb } from '../../store/sandbox-db.js';
import type { KeyRole, SandboxSeed, Scope } from './seed-file.js';

/** What a key in the seed grants. */
export type KeyGrant =
  { kind: 'firm_key'; firmSlug: string; role: KeyRole; scopes: readonly Scope[] } | { kind: 'admin' };

/** Each key of the seed with what it grants. */
export function keyGrants(seed: SandboxSeed): Map<string, KeyGrant> {
  const keys = new Map<string, KeyGrant>();
  for (const key of seed.platformAdminKeys) keys.set(key, { kind: 'admin' });
  for (const firm of seed.firms)
    for (const k of firm.apiKeys)
      keys.set(k.key, { kind: 'firm_key', firmSlug: firm.slug, role: k.role, scopes: k.scopes });
  return keys;
}

/** A new secret for session tokens: a reset makes one, which ends every earlier session. */
export function newTokenSecret(): Buffer {
  return randomBytes(32);
}

/**
 * The session tokens' secret: the store's, so that tokens outlive a restart; else a new one (a new store gets the one
 * its first reset makes, committed with it).
 */
export function tokenSecretOf(db: SandboxDb | undefined): Uint8Array {
  const kept = db?.meta('token_secret');
  return kept === undefined ? newTokenSecret() : Buffer.from(kept, 'hex');
}
