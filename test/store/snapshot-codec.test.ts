// The snapshot codec (src/store/snapshot-writer.ts, snapshot-reader.ts): any graph of plain data comes back equal, with
// its shared references and cycles, its Maps and Sets, and the numbers JSON would lose; what is not plain data is shown
// to the writer's inspector once and written as it answers; repeated keys and strings are written once; the state is
// cut into parts read one at a time; bytes that are not its format, or a part missing, cut or out of place, are refused
// instead of restored wrong.
import fc from 'fast-check';
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../src/store/snapshot-reader.js';
import { encodeSnapshot } from '../../src/store/snapshot-writer.js';

const primitive = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }), // any code point: written as UTF-16 beyond Latin-1
  fc.double(), // NaN, -0, ±Infinity, fractions
  fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  fc.maxSafeInteger(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);

const { data } = fc.letrec((tie) => ({
  data: fc.oneof({ depthSize: 'small' }, primitive, tie('array'), tie('object'), tie('map'), tie('set')),
  array: fc.array(tie('data'), { maxLength: 5 }),
  object: fc.dictionary(fc.string(), tie('data'), { maxKeys: 5, noNullPrototype: true }),
  map: fc.array(fc.tuple(fc.oneof(fc.string(), fc.integer()), tie('data')), { maxLength: 4 }).map((e) => new Map(e)),
  set: fc.array(primitive, { maxLength: 4 }).map((e) => new Set(e)),
}));

describe('snapshot codec', () => {
  it('gives back any graph of plain data equal, -0, NaN and undefined included', () => {
    fc.assert(
      fc.property(data, (graph) => {
        expect(decodeSnapshot(encodeSnapshot(graph))).toStrictEqual(graph);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a field named __proto__ as a field, not as the prototype', () => {
    // Twenty of one shape: past the count at which a shape's objects are built by compiled code.
    const graph = Array.from(
      { length: 20 },
      () => JSON.parse('{"__proto__": {"polluted": true}, "plain": 1}') as Record<string, unknown>,
    );
    const back = decodeSnapshot(encodeSnapshot(graph)) as Record<string, unknown>[];
    for (const object of back) {
      expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
      expect(Object.keys(object)).toEqual(['__proto__', 'plain']);
    }
    expect(back).toStrictEqual(graph);
  });

  it('keeps shared references and cycles: an object met twice is one object after', () => {
    const account = { id: 'a-1', orders: [] as object[] };
    const order = { id: 'o-1', account };
    account.orders.push(order);
    // More orders of the same shape, each pointing back at the account that holds it (a cycle per order).
    for (let i = 2; i <= 20; i++) account.orders.push({ id: `o-${i}`, account });
    const byId = new Map([['o-1', order]]);
    const back = decodeSnapshot(encodeSnapshot({ account, byId, list: [order, order] })) as {
      account: typeof account;
      byId: Map<string, typeof order>;
      list: (typeof order)[];
    };
    expect(back.list[0]).toBe(back.list[1]);
    expect(back.byId.get('o-1')).toBe(back.list[0]);
    expect(back.account.orders[0]).toBe(back.list[0]);
    expect(back.list[0]!.account).toBe(back.account);
    for (const held of back.account.orders) expect((held as typeof order).account).toBe(back.account);
    expect(back.account.orders).toHaveLength(20);
  });

  it('writes a shape once for objects with the same keys, and a string once: far smaller than V8 alone', () => {
    const accountId = 'd45e8931-d660-4486-9f20-000d74ae5ad0';
    const orders = Array.from({ length: 10_000 }, (_, i) => ({
      id: `order-${i}`,
      seq: i + 1,
      clientOrderId: undefined,
      origin: 'client',
      accountId,
      symbol: 'ESM6',
      side: i % 2 === 0 ? 'buy' : 'sell',
      type: 'market',
      tif: 'day',
      createdAtMs: 1_773_151_200_000 + i,
      phase: 'done',
      triggered: false,
      status: 'FILLED',
      quantity: 1,
      filledQuantity: 1,
      history: [{ status: 'FILLED', reason: 'filled 1', occurredAtMs: 1_773_151_200_001 + i }],
    }));
    const compact = bytesOf(encodeSnapshot(orders));
    expect(decodeSnapshot(encodeSnapshot(orders))).toStrictEqual(orders);
    expect(compact).toBeLessThan(serialize(orders).length / 2.5);
  });

  it('refuses what it cannot write back the same: dates, typed arrays, functions, symbols', () => {
    expect(() => encodeSnapshot({ at: new Date(0) })).toThrow(/cannot hold a Date/);
    expect(() => encodeSnapshot([new Uint8Array(2)])).toThrow(/cannot hold a Uint8Array/);
    expect(() => encodeSnapshot({ f: () => 1 })).toThrow(/cannot hold a function/);
    expect(() => encodeSnapshot({ s: Symbol('x') })).toThrow(/cannot hold a symbol/);
  });

  it('shows its inspector each value that is not plain data, once, where it is held, and writes what it answers', () => {
    class Money {
      constructor(readonly cents: number) {}
    }
    class Lot {
      constructor(readonly quantity: number) {}
    }
    const lot = new Lot(3);
    const callback = () => 1;
    const graph = {
      price: new Money(125),
      lots: [lot, lot],
      byKey: new Map([['fee', new Money(7)]]),
      tags: new Set([new Money(1)]),
      callback,
    };
    const met: [string, unknown, unknown][] = [];
    const where = (holder: object | undefined) =>
      holder === graph ? 'graph' : holder === graph.lots ? 'lots' : holder === graph.byKey ? 'byKey' : String(holder);
    const back = decodeSnapshot(
      encodeSnapshot(graph, (value, holder, key) => {
        met.push([value.constructor.name, where(holder), key]);
        if (value instanceof Money) return `${value.cents} cents`;
        return value === callback ? 'a callback' : value;
      }),
    );
    expect(met).toEqual([
      ['Money', 'graph', 'price'],
      ['Lot', 'lots', 0], // once: the second is the same lot
      ['Money', 'byKey', 'fee'],
      ['Money', 'undefined', undefined], // a Set's entry is held in no slot
      ['Function', 'graph', 'callback'],
    ]);
    const written = back as { lots: object[] };
    expect(back).toEqual({
      price: '125 cents',
      lots: [{ quantity: 3 }, { quantity: 3 }],
      byKey: new Map([['fee', '7 cents']]),
      tags: new Set(['1 cents']),
      callback: 'a callback',
    });
    expect(written.lots[0]).toBe(written.lots[1]);
  });

  it('cuts a large state into parts of about a megabyte, each in its own buffer, and reads them back in order', () => {
    const accountId = 'd45e8931-d660-4486-9f20-000d74ae5ad0';
    // 200,000 values (two per fill) and 100,000 distinct strings: more than one part's worth of each.
    const fills = Array.from({ length: 50_000 }, (_, i) => ({ id: `fill-${i}`, accountId, at: 1.5 + i, n: i }));
    const parts = encodeSnapshot(fills);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.byteLength).toBeLessThan(2 * 1024 * 1024);
      expect(part.byteLength).toBe(part.buffer.byteLength); // can be handed to the writer thread
    }
    let read = 0;
    const counted = (function* () {
      for (const part of parts) {
        read++;
        yield part;
      }
    })();
    expect(decodeSnapshot(counted)).toStrictEqual(fills);
    expect(read).toBe(parts.length);
    // A part that starts off an 8-byte boundary (as a db row may) is read all the same.
    const shifted = parts.map((part) => new Uint8Array(new Uint8Array([0, ...part]).buffer, 1));
    expect(decodeSnapshot(shifted)).toStrictEqual(fills);
  });

  it('keeps strings beyond Latin-1 as they were: other scripts, emoji, a lone surrogate', () => {
    const graph = ['Zürich', 'Ελληνικά', '日本語', '🚀 launch', 'lone \ud800 surrogate', 'x'.repeat(300)];
    expect(decodeSnapshot(encodeSnapshot(graph))).toStrictEqual(graph);
  });

  it('refuses bytes that are not its format', () => {
    expect(() => decodeSnapshot([serialize({ kernel: {} })])).toThrow(/not in the format this propsim writes/);
    expect(() => decodeSnapshot([new Uint8Array(0)])).toThrow(/not in the format this propsim writes/);
    expect(() => decodeSnapshot([])).toThrow(/not in the format this propsim writes/);
    // A shape's keys become code: only strings are taken.
    const [part] = encodeSnapshot(Array.from({ length: 10 }, () => ({ a: 1 })));
    const text = Buffer.from(part!).toString('latin1').replace('[["a"]]', '[[{"a":1}]]');
    expect(text).not.toBe(Buffer.from(part!).toString('latin1'));
    expect(() => decodeSnapshot([withLength(Buffer.from(text, 'latin1'), 4)])).toThrow(
      /not in the format this propsim writes/,
    );
  });

  it('refuses a part missing, cut, out of place, or after the end of the state', () => {
    const parts = encodeSnapshot(Array.from({ length: 400_000 }, (_, i) => i + 0.5)); // a value per number
    expect(parts.length).toBeGreaterThan(2);
    expect(() => decodeSnapshot(parts.slice(0, -1))).toThrow(/the snapshot is damaged: its parts end early/);
    expect(() => decodeSnapshot([parts[0]!, ...parts.slice(2)])).toThrow(/the snapshot is damaged: part 1 is missing/);
    expect(() => decodeSnapshot([parts[0]!, parts[2]!, parts[1]!, ...parts.slice(3)])).toThrow(/part 1 is missing/);
    const cut = parts.map((part, i) => (i === 1 ? part.subarray(0, part.length - 1) : part));
    expect(() => decodeSnapshot(cut)).toThrow(/the snapshot is damaged: part 1 is \d+ bytes, not \d+/);
    expect(() => decodeSnapshot([...parts, parts[0]!])).toThrow(/parts after the end of its state/);
    // A kind byte overwritten: the values no longer match their columns.
    const [one] = encodeSnapshot({ list: [1, 2, 3], name: 'x' });
    const kinds = Buffer.from(one!).lastIndexOf(4); // the last whole number's kind
    const changed = new Uint8Array(one!);
    changed[kinds] = 0; // undefined: its uint is left over
    expect(() => decodeSnapshot([changed])).toThrow(/the snapshot is damaged/);
  });
});

function bytesOf(parts: readonly Uint8Array[]): number {
  return parts.reduce((sum, part) => sum + part.byteLength, 0);
}

/** A part whose shapes' JSON grew by `extra` bytes: the header's count of shape bytes is mended to match. */
function withLength(part: Buffer, extra: number): Uint8Array {
  const copy = new Uint8Array(part);
  const head = new Uint32Array(copy.buffer, 0, 12);
  head[9]! += extra;
  return copy;
}
