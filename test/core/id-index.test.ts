import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdIndex, idHash } from '../../src/core/id-index.js';
import { IdGenerator } from '../../src/core/ids.js';

interface Item {
  id: string;
  n: number;
}

function indexOver(list: { items: Item[] }): IdIndex<Item> {
  return new IdIndex(
    () => list.items,
    (item) => item.id,
  );
}

describe('IdIndex', () => {
  it('finds every item of a growing list by its id, through the table growing many times', () => {
    const ids = new IdGenerator(7);
    const list = { items: [] as Item[] };
    const index = indexOver(list);
    for (let n = 0; n < 5_000; n++) {
      list.items.push({ id: ids.nextUuid(), n });
      if (n % 97 === 0) expect(index.get(list.items[n >> 1]!.id)?.n).toBe(n >> 1); // asked as the list grows
    }
    for (const item of list.items) expect(index.get(item.id)).toBe(item);
    expect(index.get(ids.nextUuid())).toBeUndefined();
    expect(index.has(list.items[4_999]!.id)).toBe(true);
    expect(index.has('')).toBe(false);
  });

  it('tells apart two ids with the same hash', () => {
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let n = 0; !pair; n++) {
      const id = `exec-${n}`;
      const other = seen.get(idHash(id));
      if (other !== undefined) pair = [other, id];
      seen.set(idHash(id), id);
    }
    const [first, second] = pair;
    expect(idHash(first)).toBe(idHash(second));
    const list = { items: [{ id: first, n: 1 }] };
    const index = indexOver(list);
    expect(index.get(second)).toBeUndefined(); // same hash, another id: not the first item
    list.items.push({ id: second, n: 2 });
    expect(index.get(first)?.n).toBe(1);
    expect(index.get(second)?.n).toBe(2);
  });

  it('indexes a list its owner replaced (a restore) from its start, and refuses one that shrank', () => {
    const list = { items: [{ id: 'x', n: 0 }] };
    const index = indexOver(list);
    expect(index.get('x')?.n).toBe(0);
    list.items = ['a', 'b', 'ç', '日本', '\ud800'].map((id, n) => ({ id, n }));
    expect(index.catchUp()).toBe(list.items);
    expect(['a', 'b', 'ç', '日本', '\ud800'].map((id) => index.get(id)?.n)).toEqual([0, 1, 2, 3, 4]);
    expect(index.get('x')).toBeUndefined(); // the replaced list's item is gone with it
    list.items.length = 2;
    expect(() => index.get('a')).toThrow('an indexed list went from 5 to 2 items');
  });

  it('answers as a Map of the same items would, for any ids and lookups', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 6 }), { maxLength: 300 }),
        fc.array(fc.string({ maxLength: 6 })),
        (ids, asked) => {
          const list = { items: [] as Item[] };
          const index = indexOver(list);
          const map = new Map<string, Item>();
          ids.forEach((id, n) => {
            const item = { id, n };
            list.items.push(item);
            map.set(id, item);
            if (n % 3 === 0) expect(index.get(id)).toBe(item);
          });
          for (const id of [...asked, ...ids]) expect(index.get(id)).toBe(map.get(id));
        },
      ),
    );
  });
});
