// Code that builds the snapshot's objects of one shape (snapshot-reader.ts): a restore builds hundreds of thousands of
// objects of a few shapes (orders, fills, trades), and generic code that adds their keys one by one is slow.

export interface ShapeBuilder {
  make(): object;
  fill(object: object, read: () => unknown): void;
}

/**
 * An object literal with every key (V8 gives each literal its own allocation site, which it learns to allocate
 * straight into the old generation: a restore's objects all live on, and copying them out of the young one was half
 * its time), then a store per key in order. The keys are written as JSON string literals, so no key can be anything
 * but a key. A shape with a __proto__ key gets no builder (null), since in a literal that key sets the prototype.
 */
export function compiledBuilder(keys: readonly string[]): ShapeBuilder | null {
  if (keys.includes('__proto__')) return null;
  const quoted = keys.map((key) => JSON.stringify(key));
  return {
    make: new Function(`return {${quoted.map((key) => `${key}: undefined`).join(', ')}};`) as () => object,
    fill: new Function('object', 'read', quoted.map((key) => `object[${key}] = read();`).join('\n')) as (
      object: object,
      read: () => unknown,
    ) => void,
  };
}
