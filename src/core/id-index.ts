// Lookup by id over a list that only grows (every order, every fill, every trade): an open-addressing hash table in
// typed arrays, holding each item's position in the list and the hash of its id (docs/architecture.md#indexes-by-id).
// A Map from id to item would do the same, but a restart would rebuild three of them from the snapshot, one string
// key at a time (the restart benchmark: docs/performance.md). This one is not in the snapshot at all: it is derived
// from its list, which it catches up with whenever it is asked, so it can never disagree with the list, and a
// restore only catches it up.

const EMPTY = -1;
const FIRST_CAPACITY = 1024;

/** FNV-1a over the id's UTF-16 code units: cheap, and spreads the ids the project makes (UUIDs, `exec-000123`). */
export function idHash(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

export class IdIndex<T> {
  /** Positions in the list (EMPTY for a free slot), by slot. */
  private slots = new Int32Array(FIRST_CAPACITY).fill(EMPTY);
  /** The hash of the id in each slot: a probe compares ids only when hashes match. */
  private hashes = new Uint32Array(FIRST_CAPACITY);
  /** The list the table indexes, and how many of its items are in the table (the first ones). */
  private list: readonly T[] | undefined;
  private indexed = 0;

  /**
   * @param items the list, as its owner holds it now (a restore replaces the owner's array, so it is asked each time)
   * @param idOf an item's id; ids are unique in the list (its owner refuses a repeated one before adding it)
   */
  constructor(
    private readonly items: () => readonly T[],
    private readonly idOf: (item: T) => string,
  ) {}

  /** The item with this id, or undefined. */
  get(id: string): T | undefined {
    const items = this.catchUp();
    const hash = idHash(id);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = this.slots[slot]!;
      if (at === EMPTY) return undefined;
      if (this.hashes[slot] === hash && this.idOf(items[at]!) === id) return items[at];
    }
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /**
   * Adds the items the list gained since the last call, and returns the list. A list its owner replaced (a restore
   * writes the snapshot's arrays into the parts) is indexed from its start.
   */
  catchUp(): readonly T[] {
    const items = this.items();
    if (items !== this.list) {
      this.list = items;
      this.indexed = 0;
      this.slots.fill(EMPTY);
    }
    if (items.length < this.indexed)
      throw new Error(`an indexed list went from ${this.indexed} to ${items.length} items`);
    while (this.indexed < items.length) {
      // At most half full: probes stay short.
      if ((this.indexed + 1) * 2 > this.slots.length) this.grow();
      this.put(idHash(this.idOf(items[this.indexed]!)), this.indexed);
      this.indexed++;
    }
    return items;
  }

  private put(hash: number, at: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = at;
    this.hashes[slot] = hash;
  }

  /** Twice the slots; each entry moves by its kept hash, no id is hashed again. */
  private grow(): void {
    const { slots, hashes } = this;
    this.slots = new Int32Array(slots.length * 2).fill(EMPTY);
    this.hashes = new Uint32Array(slots.length * 2);
    for (let slot = 0; slot < slots.length; slot++) if (slots[slot] !== EMPTY) this.put(hashes[slot]!, slots[slot]!);
  }
}
