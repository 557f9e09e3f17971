// Deterministic ids: lowercase UUID v4-format strings from a seeded generator
// (docs/architecture.md#determinism-is-a-feature). The same seed always yields the same sequence; the generator state
// can be saved and restored.
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';

export class IdGenerator {
  private readonly rng: ReturnType<typeof xoroshiro128plus>;

  constructor(seedOrState: number | readonly number[]) {
    if (typeof seedOrState === 'number' && !Number.isSafeInteger(seedOrState)) {
      throw new RangeError(`seed must be an integer, got ${seedOrState}`);
    }
    if (typeof seedOrState === 'number') {
      this.rng = xoroshiro128plus(seedOrState);
      // A small seed leaves the state mostly zero bits and the first outputs look alike; one jump mixes it.
      this.rng.jump();
    } else {
      this.rng = xoroshiro128plusFromState(seedOrState);
    }
  }

  /** The next id, e.g. "3b2f6c1e-9a4d-4f0b-8c7e-1d2a3b4c5d6e": 128 random bits with the v4 and variant bits set. */
  nextUuid(): string {
    const a = hex8(this.rng.next());
    const b = hex8((this.rng.next() & 0xffff0fff) | 0x00004000); // version 4
    const c = hex8((this.rng.next() & 0x3fffffff) | 0x80000000); // RFC 4122 variant
    const d = hex8(this.rng.next());
    return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
  }

  /** Generator state, for snapshots; `new IdGenerator(state)` continues the same sequence. */
  state(): readonly number[] {
    return this.rng.getState();
  }
}

const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A 32-bit value as 8 lowercase hex digits (table lookups: ids are minted on every order and fill). */
function hex8(value: number): string {
  return (
    HEX_BYTE[(value >>> 24) & 0xff]! +
    HEX_BYTE[(value >>> 16) & 0xff]! +
    HEX_BYTE[(value >>> 8) & 0xff]! +
    HEX_BYTE[value & 0xff]!
  );
}
