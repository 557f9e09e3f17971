// The snapshot codec (src/store/snapshot-codec.ts): any graph of plain data comes back equal, with its shared
// references and cycles, its Maps and Sets, and the numbers JSON would lose; repeated keys and strings are written once;
// bytes that are not its format, or are cut, are refused instead of restored wrong.
import fc from 'fast-check';
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot, encodeSnapshot } from '../../src/store/snapshot-codec.js';

const primitive = fc.oneof(
  fc.string(),
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
    const compact = encodeSnapshot(orders).length;
    expect(decodeSnapshot(encodeSnapshot(orders))).toStrictEqual(orders);
    expect(compact).toBeLessThan(serialize(orders).length / 2.5);
  });

  it('refuses what it cannot write back the same: dates, typed arrays, functions, symbols', () => {
    expect(() => encodeSnapshot({ at: new Date(0) })).toThrow(/cannot hold a Date/);
    expect(() => encodeSnapshot([new Uint8Array(2)])).toThrow(/cannot hold a Uint8Array/);
    expect(() => encodeSnapshot({ f: () => 1 })).toThrow(/cannot hold a function/);
    expect(() => encodeSnapshot({ s: Symbol('x') })).toThrow(/cannot hold a symbol/);
  });

  it('refuses bytes that are not its format, or whose columns are cut', () => {
    expect(() => decodeSnapshot(serialize({ kernel: {} }))).toThrow(/not in the format this propsim writes/);
    expect(() => decodeSnapshot(serialize(null))).toThrow(/not in the format this propsim writes/);
    const columns = deserialize(encodeSnapshot([{ a: 1 }])) as { shapes: unknown[][] };
    columns.shapes[0] = [{ toString: 'not a key' }]; // a shape's keys become code: only strings are taken
    expect(() => decodeSnapshot(serialize(columns))).toThrow(/not in the format this propsim writes/);
    const bytes = encodeSnapshot({ list: [1, 2, 3], name: 'x' });
    const copy = deserialize(bytes) as { kinds: Uint8Array };
    copy.kinds = copy.kinds.slice(0, -1);
    expect(() => decodeSnapshot(serialize(copy))).toThrow(/the snapshot is damaged/);
  });
});
