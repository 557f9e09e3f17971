// Keys and passwords are compared in constant time (docs/api.md#gateway): each side is hashed to 32 bytes and the
// digests compared with timingSafeEqual, so neither a mismatch's position nor the secret's length shows in the time an
// answer takes. A key table compares the presented key with every key it holds, without stopping at a match.
import { createHash, timingSafeEqual } from 'node:crypto';

function digestOf(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(digestOf(presented), digestOf(expected));
}

/** Values by secret, looked up in constant time (a handful of seed keys: a scan is as fast as a hash). */
export class SecretTable<T> {
  private readonly entries: ReadonlyArray<readonly [Buffer, T]>;

  constructor(entries: Iterable<readonly [string, T]>) {
    this.entries = [...entries].map(([secret, value]) => [digestOf(secret), value] as const);
  }

  get(presented: string): T | undefined {
    const digest = digestOf(presented);
    let found: T | undefined;
    for (const [secret, value] of this.entries)
      if (timingSafeEqual(secret, digest) && found === undefined) found = value;
    return found;
  }
}
