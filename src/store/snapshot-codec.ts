// How a snapshot's state is written into the db (docs/architecture.md#snapshots). V8's serializer alone writes every
// key of every object and every copy of a repeated string: half a million orders, each with the same 28 keys and the
// same account id, come to ~1.3 KB each. So the state is first laid out as columns, then handed to V8:
// - each object's keys once per shape (all orders share one), its values in order;
// - each distinct string once, then its index;
// - whole numbers below 2^32 in a Uint32Array, other numbers in a Float64Array, a kind byte per value;
// - an object met again (a shared reference, a cycle) as the index of its first meeting.
// Typed arrays serialize as their bytes, so V8's part is quick and the file three times smaller. The graph is what
// takeSnapshot hands over: plain objects, arrays, Maps, Sets and primitives (a class instance is kept as its own
// fields, as V8 keeps it; state-snapshot.ts gives it its prototype back). Array holes come back as undefined.
import { deserialize, serialize } from 'node:v8';

const enum Kind {
  Undefined,
  Null,
  True,
  False,
  Uint,
  Number,
  String,
  Seen,
  Array,
  Map,
  Set,
  Object,
}

const OWN_FIELD = { enumerable: true, writable: true, configurable: true };

/**
 * The format's name. Its number moves when the bytes change, or what the sandbox keeps in them changes meaning (2: the
 * journal holds none of the lines a snapshot covers; 3: the daily position history is kept as columns): a restart
 * passes over a snapshot of another version and applies the journal instead.
 */
const FORMAT = 'propsim-columns-3';

/** The columns a graph is laid out in. */
interface Columns {
  format: typeof FORMAT;
  shapes: string[][];
  strings: string[];
  kinds: Uint8Array;
  uints: Uint32Array;
  numbers: Float64Array;
}

/** The bytes of a snapshot's state graph. */
export function encodeSnapshot(graph: unknown): Buffer {
  return serialize(new ColumnWriter().columns(graph));
}

/** The state graph back from encodeSnapshot's bytes. */
export function decodeSnapshot(bytes: Buffer): unknown {
  const copy = deserialize(bytes) as Partial<Columns> | null;
  return new ColumnReader(checkedColumns(copy)).graph();
}

/** The columns, if the copy is them: a shape is a list of strings (compiled into code that builds its objects). */
function checkedColumns(copy: Partial<Columns> | null): Columns {
  if (typeof copy !== 'object' || copy === null)
    throw new Error('the snapshot is not in the format this propsim writes');
  const { format, shapes, strings, kinds, uints, numbers } = copy;
  if (
    format !== FORMAT ||
    !Array.isArray(shapes) ||
    !shapes.every((keys) => Array.isArray(keys) && keys.every((key) => typeof key === 'string')) ||
    !Array.isArray(strings) ||
    !(kinds instanceof Uint8Array) ||
    !(uints instanceof Uint32Array) ||
    !(numbers instanceof Float64Array)
  )
    throw new Error('the snapshot is not in the format this propsim writes');
  return copy as Columns;
}

/** A growing typed array (doubling), cut to its length at the end. */
class Column<T extends Uint8Array | Uint32Array | Float64Array> {
  private values: T;
  private length = 0;

  constructor(private readonly make: (length: number) => T) {
    this.values = make(1 << 16);
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = this.make(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  cut(): T {
    return this.values.slice(0, this.length) as T;
  }
}

class ColumnWriter {
  private readonly kinds = new Column((n) => new Uint8Array(n));
  private readonly uints = new Column((n) => new Uint32Array(n));
  private readonly numbers = new Column((n) => new Float64Array(n));
  private readonly strings: string[] = [];
  private readonly stringIndex = new Map<string, number>();
  private readonly shapes: string[][] = [];
  /** Shapes by their first key (property names are interned strings: comparing them is comparing pointers). */
  private readonly shapesByFirstKey = new Map<string | undefined, number[]>();
  private readonly objectIndex = new Map<object, number>();

  columns(graph: unknown): Columns {
    this.write(graph);
    return {
      format: FORMAT,
      shapes: this.shapes,
      strings: this.strings,
      kinds: this.kinds.cut(),
      uints: this.uints.cut(),
      numbers: this.numbers.cut(),
    };
  }

  private write(value: unknown): void {
    switch (typeof value) {
      case 'string':
        return this.writeString(value);
      case 'number':
        if (value >>> 0 === value && !Object.is(value, -0)) this.put(Kind.Uint, value);
        else {
          this.kinds.push(Kind.Number);
          this.numbers.push(value);
        }
        return;
      case 'boolean':
        return this.kinds.push(value ? Kind.True : Kind.False);
      case 'undefined':
        return this.kinds.push(Kind.Undefined);
      case 'object':
        return value === null ? this.kinds.push(Kind.Null) : this.writeObject(value);
      default:
        throw new TypeError(`a snapshot cannot hold a ${typeof value}`);
    }
  }

  private put(kind: Kind, uint: number): void {
    this.kinds.push(kind);
    this.uints.push(uint);
  }

  private writeString(value: string): void {
    let index = this.stringIndex.get(value);
    if (index === undefined) {
      index = this.strings.length;
      this.strings.push(value);
      this.stringIndex.set(value, index);
    }
    this.put(Kind.String, index);
  }

  private writeObject(value: object): void {
    const seen = this.objectIndex.get(value);
    if (seen !== undefined) return this.put(Kind.Seen, seen);
    this.objectIndex.set(value, this.objectIndex.size);
    if (Array.isArray(value)) {
      this.put(Kind.Array, value.length);
      for (let i = 0; i < value.length; i++) this.write(value[i]);
    } else if (value instanceof Map) {
      this.put(Kind.Map, value.size);
      for (const [key, entry] of value) {
        this.write(key);
        this.write(entry);
      }
    } else if (value instanceof Set) {
      this.put(Kind.Set, value.size);
      for (const entry of value) this.write(entry);
    } else {
      if (value instanceof Date || value instanceof RegExp || ArrayBuffer.isView(value) || value instanceof ArrayBuffer)
        throw new TypeError(`a snapshot cannot hold a ${value.constructor.name}`);
      const keys = Object.keys(value);
      this.put(Kind.Object, this.shapeOf(keys));
      const fields = value as Record<string, unknown>;
      for (let i = 0; i < keys.length; i++) this.write(fields[keys[i]!]);
    }
  }

  private shapeOf(keys: string[]): number {
    let candidates = this.shapesByFirstKey.get(keys[0]);
    if (candidates === undefined) {
      candidates = [];
      this.shapesByFirstKey.set(keys[0], candidates);
    }
    for (const id of candidates) if (sameKeys(this.shapes[id]!, keys)) return id;
    const id = this.shapes.length;
    this.shapes.push(keys);
    candidates.push(id);
    return id;
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Objects of a shape met this often are built by code compiled for the shape. */
const COMPILE_AFTER_USES = 8;

interface ShapeBuilder {
  make(): object;
  fill(object: object, read: () => unknown): void;
}

/**
 * Code that builds an object of one shape: an object literal with every key (V8 gives each literal its own allocation
 * site, which it learns to allocate straight into the old generation: a restore's objects all live on, and copying
 * them out of the young one was half its time), then a store per key in order. The keys are written as JSON string
 * literals, so no key can be anything but a key. A shape with a __proto__ key keeps the plain path (null), since in a
 * literal that key sets the prototype.
 */
function compiledBuilder(keys: readonly string[]): ShapeBuilder | null {
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

class ColumnReader {
  private kindAt = 0;
  private uintAt = 0;
  private numberAt = 0;
  private readonly objects: object[] = [];
  private readonly shapeUses: number[] = [];
  private readonly builders: (ShapeBuilder | null)[] = [];
  private readonly readValue = (): unknown => this.read();

  constructor(private readonly columns: Columns) {}

  graph(): unknown {
    const graph = this.read();
    const { kinds, uints, numbers } = this.columns;
    if (this.kindAt !== kinds.length || this.uintAt !== uints.length || this.numberAt !== numbers.length)
      throw new Error('the snapshot is damaged: its columns do not end together');
    return graph;
  }

  private read(): unknown {
    const kind = this.columns.kinds[this.kindAt++];
    switch (kind) {
      case Kind.Undefined:
        return undefined;
      case Kind.Null:
        return null;
      case Kind.True:
        return true;
      case Kind.False:
        return false;
      case Kind.Uint:
        return this.uint();
      case Kind.Number:
        return this.columns.numbers[this.numberAt++];
      case Kind.String:
        return this.known(this.columns.strings, this.uint());
      case Kind.Seen:
        return this.known(this.objects, this.uint());
      case Kind.Array: {
        const length = this.uint();
        const array: unknown[] = []; // pushed: packed as the kernel made it (a new Array(length) stays holey for life)
        this.objects.push(array);
        for (let i = 0; i < length; i++) array.push(this.read());
        return array;
      }
      case Kind.Map: {
        const size = this.uint();
        const map = new Map<unknown, unknown>();
        this.objects.push(map);
        for (let i = 0; i < size; i++) map.set(this.read(), this.read());
        return map;
      }
      case Kind.Set: {
        const size = this.uint();
        const set = new Set<unknown>();
        this.objects.push(set);
        for (let i = 0; i < size; i++) set.add(this.read());
        return set;
      }
      case Kind.Object:
        return this.readObject(this.uint());
      default:
        throw new Error(`the snapshot is damaged: value kind ${kind} at ${this.kindAt - 1}`);
    }
  }

  private readObject(shapeId: number): object {
    const keys = this.known(this.columns.shapes, shapeId);
    let builder = this.builders[shapeId];
    if (builder === undefined) {
      const uses = (this.shapeUses[shapeId] = (this.shapeUses[shapeId] ?? 0) + 1);
      if (uses >= COMPILE_AFTER_USES) builder = this.builders[shapeId] = compiledBuilder(keys);
    }
    if (builder) {
      const object = builder.make();
      this.objects.push(object);
      builder.fill(object, this.readValue);
      return object;
    }
    const object: Record<string, unknown> = {};
    this.objects.push(object);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      // A key named __proto__ is data, not the prototype (as V8's own deserializer keeps it).
      if (key === '__proto__') Object.defineProperty(object, key, { ...OWN_FIELD, value: this.read() });
      else object[key] = this.read();
    }
    return object;
  }

  private uint(): number {
    if (this.uintAt >= this.columns.uints.length) throw new Error('the snapshot is damaged: its columns end early');
    return this.columns.uints[this.uintAt++]!;
  }

  private known<T>(list: readonly T[], index: number): T {
    if (index >= list.length) throw new Error(`the snapshot is damaged: a reference to ${index} of ${list.length}`);
    return list[index]!;
  }
}
