// Deterministic ids: lowercase UUID v4-format strings from a seeded generator
// (docs/architecture.md#determinism-is-a-feature). The same seed always yields the same sequence; the generator state
// can be saved and restored.
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { declareSnapshot } from './snapshot/snapshot-fields.js';

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
    const a = this.rng.next();
    const b = (this.rng.next() & 0xffff0fff) | 0x00004000; // version 4
    const c = (this.rng.next() & 0x3fffffff) | 0x80000000; // RFC 4122 variant
    const d = this.rng.next();
    writeHex4(a >>> 16, 0);
    writeHex4(a, 4);
    writeHex4(b >>> 16, 9);
    writeHex4(b, 14);
    writeHex4(c >>> 16, 19);
    writeHex4(c, 24);
    writeHex4(d >>> 16, 28);
    writeHex4(d, 32);
    return String.fromCharCode.apply(null, UUID_CODES);
  }

  /** Generator state, for snapshots; `new IdGenerator(state)` continues the same sequence. */
  state(): readonly number[] {
    return this.rng.getState();
  }
}

declareSnapshot(IdGenerator, {
  kept: ['rng'],
  skipped: [],
});

/** pure-rand's generator is a part too (a restore writes into the fresh one): its four words of state are kept. */
type Generator = abstract new (...args: never[]) => object;
declareSnapshot((Object.getPrototypeOf(xoroshiro128plus(0)) as { constructor: Generator }).constructor, {
  kept: ['s00', 's01', 's10', 's11'],
  skipped: [],
});

const HEX_DIGITS = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
/**
 * The character codes of the id being written, dashes in place. An id is made as one flat string from them: joined
 * from pieces, it stayed a chain of about 17 small strings (~400 bytes instead of ~56) for as long as it was kept,
 * and ids are minted on every order, fill and trade.
 */
const UUID_CODES: number[] = Array.from('00000000-0000-0000-0000-000000000000', (char) => char.charCodeAt(0));

/** The low 16 bits of `value` as 4 lowercase hex digits into UUID_CODES from `at`. */
function writeHex4(value: number, at: number): void {
  for (let digit = 3; digit >= 0; digit--) {
    UUID_CODES[at + digit] = HEX_DIGITS[value & 0xf]!;
    value >>>= 4;
  }
}
