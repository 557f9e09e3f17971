// Deterministic ids: lowercase UUID v4-format strings from a seeded generator (ARCHITECTURE decision 2).
// The same seed always yields the same sequence; the generator state can be saved and restored.
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export class IdGenerator {
  private readonly rng;

  constructor(seedOrState: number | readonly number[]) {
    if (typeof seedOrState === 'number' && !Number.isSafeInteger(seedOrState)) {
      throw new RangeError(`seed must be an integer, got ${seedOrState}`);
    }
    this.rng = typeof seedOrState === 'number' ? xoroshiro128plus(seedOrState) : xoroshiro128plusFromState(seedOrState);
  }

  /** The next id, e.g. "3b2f6c1e-9a4d-4f0b-8c7e-1d2a3b4c5d6e". */
  nextUuid(): string {
    const bytes = new Uint8Array(16);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < 16; i += 4) view.setInt32(i, this.rng.next());
    bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40; // version 4
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
    let out = '';
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) out += '-';
      out += HEX[bytes[i] ?? 0];
    }
    return out;
  }

  /** Generator state, for snapshots; `new IdGenerator(state)` continues the same sequence. */
  state(): readonly number[] {
    return this.rng.getState();
  }
}
