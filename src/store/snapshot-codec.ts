// How a snapshot's state is written into the db (docs/architecture.md#snapshots). V8's serializer alone writes every
// key of every object and every copy of a repeated string, and a large state is mostly objects of a few shapes (orders,
// fills, trades) that repeat the same keys and the same ids. So the state is laid out as columns:
// - each object's keys once per shape (all orders share one), its values in order;
// - each distinct string once, then its index;
// - whole numbers below 2^32 in a Uint32Array, other numbers in a Float64Array, a kind byte per value;
// - an object met again (a shared reference, a cycle) as the index of its first meeting.
// The columns are cut into parts of about a megabyte, each one row of the db, and a restore reads them one at a time:
// neither side ever holds the whole snapshot, or a second copy of it (fresh memory is dear on a VM). A part is self-contained: a header, then its slice of
// each column, the strings and shapes first used in it, all as bytes that typed arrays read in place.
// The graph is what takeSnapshot hands over: plain objects, arrays, Maps, Sets and primitives (a class instance is
// kept as its own fields; state-snapshot.ts gives it its prototype back). Array holes come back as undefined.
// Whoever writes a graph may look at what is not plain data as it is met (`inspect`): state-snapshot.ts notes each
// class instance and has each decimal written as its string there, so a snapshot walks its graph once (a walk of its
// own first, to check it, was a third of the time a snapshot stops the server).
import { compiledBuilder, type ShapeBuilder } from './shape-builder.js';

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

/**
 * The format's name, the first bytes of each part. Its number moves when the bytes change, or what the sandbox keeps
 * in them changes meaning (2: the journal holds none of the lines a snapshot covers; 3: the daily position history is
 * kept as columns; 4: parts; 5: the daily position history keeps positions and the records of closed sessions;
 * 6: an account's lifecycle is its state value and context, not an actor's persisted snapshot; 7: orders, fills and
 * trades are not kept by id as well, a restore indexes them; 8: an order's status history is a flat status log; 9: an
 * account keeps its first trade date and the trade dates closed, for the time limit, and its trading profit at the
 * last session roll, the scaling plan's; 10: the kernel keeps the accounts filed by their next timed rule, a flat time
 * or a news window, and an account the roots a news flatten is flattening; 11: the last roll's trade date is the time
 * keeper's): a restart passes over a snapshot of another
 * version and applies the journal instead. The name is 15 characters: the magic is 16 bytes with its NUL (from 10 on,
 * the number follows "parts" without a hyphen).
 */
const FORMAT = 'propsim-parts11';
const MAGIC = Buffer.from(`${FORMAT}\0`, 'latin1');

/**
 * A part's header: the magic (16 bytes), then eight u32 (in the writer's byte order, which BYTE_ORDER tells). The
 * columns follow, each aligned for its typed array: numbers (f64), uints (u32), string units (u32: a string's length
 * in UTF-16 code units times two, plus one if it is written as UTF-16 rather than Latin-1), kinds (u8), the string
 * bytes, and the JSON of the shapes first used in the part.
 */
const enum Head {
  Kinds = 4,
  Uints,
  Numbers,
  Strings,
  StringBytes,
  ShapeBytes,
  Part,
  ByteOrder,
}
const HEADER_BYTES = 48;
const BYTE_ORDER = 0x01020304;

/** A part holds at most this many values, and is cut once its strings pass this many bytes. */
const PART_VALUES = 1 << 17;
const PART_STRING_BYTES = 1 << 20;

/** A string with a character beyond Latin-1 (a lone surrogate included) is written as UTF-16. */
const WIDE = /[\u0100-\uffff]/;

/**
 * Called with each value met that is not plain data (a class instance, a function), where it is held: in `holder` at
 * `key` (an object's field, an array's index, a Map's value at its key); `holder` is undefined for a value held
 * elsewhere (the graph itself, a Map's key, a Set's entry). It returns what to write in its place (the value itself
 * to write its own fields), or throws. A class instance is inspected once, where it is first met; a value put in its
 * place is not kept as the instance (it is inspected wherever met).
 */
export type Inspect = (value: object, holder: object | undefined, key: unknown) => unknown;

/** The parts of a snapshot's state graph, each in its own buffer (so it can be handed to another thread). */
export function encodeSnapshot(graph: unknown, inspect?: Inspect): Uint8Array[] {
  return new PartWriter(inspect).parts(graph);
}

/** The state graph back from encodeSnapshot's parts, in order, read one at a time. */
export function decodeSnapshot(parts: Iterable<Uint8Array>): unknown {
  const iterator = parts[Symbol.iterator]();
  try {
    return new PartReader(iterator).graph();
  } finally {
    iterator.return?.(); // a db cursor left open would keep its connection busy
  }
}

class PartWriter {
  private readonly done: Uint8Array[] = [];
  private readonly kinds = new Uint8Array(PART_VALUES);
  private readonly uints = new Uint32Array(PART_VALUES);
  private readonly numbers = new Float64Array(PART_VALUES);
  private kindCount = 0;
  private uintCount = 0;
  private numberCount = 0;
  /** The strings and shapes first used in this part, with the units and bytes of those strings. */
  private newStrings: string[] = [];
  private newStringUnits: number[] = [];
  private newStringBytes = 0;
  private newShapes: string[][] = [];
  private readonly stringIndex = new Map<string, number>();
  private readonly shapes: string[][] = [];
  /** Shapes by their first key (property names are interned strings: comparing them is comparing pointers). */
  private readonly shapesByFirstKey = new Map<string | undefined, number[]>();
  private readonly objectIndex = new Map<object, number>();
  /** Where the value being written is held (for `inspect`). */
  private holder: object | undefined;
  private key: unknown;

  constructor(private readonly inspect: Inspect | undefined) {}

  parts(graph: unknown): Uint8Array[] {
    this.write(graph);
    this.cut();
    return this.done;
  }

  private write(value: unknown): void {
    switch (typeof value) {
      case 'string':
        return this.writeString(value);
      case 'number':
        if (value >>> 0 === value && !Object.is(value, -0)) this.put(Kind.Uint, value);
        else {
          this.kind(Kind.Number);
          this.numbers[this.numberCount++] = value;
        }
        return;
      case 'boolean':
        return this.kind(value ? Kind.True : Kind.False);
      case 'undefined':
        return this.kind(Kind.Undefined);
      case 'object':
        return value === null ? this.kind(Kind.Null) : this.writeObject(value);
      case 'function':
        if (this.inspect) return this.write(this.inspect(value, this.holder, this.key));
        throw new TypeError('a snapshot cannot hold a function');
      default:
        throw new TypeError(`a snapshot cannot hold a ${typeof value}`);
    }
  }

  /** Each value starts with its kind, in the part that will hold the rest of it: a full part is cut first. */
  private kind(kind: Kind): void {
    if (this.kindCount === PART_VALUES || this.newStringBytes >= PART_STRING_BYTES) this.cut();
    this.kinds[this.kindCount++] = kind;
  }

  private put(kind: Kind, uint: number): void {
    this.kind(kind);
    this.uints[this.uintCount++] = uint;
  }

  private writeString(value: string): void {
    this.kind(Kind.String);
    let index = this.stringIndex.get(value);
    if (index === undefined) {
      index = this.stringIndex.size;
      this.stringIndex.set(value, index);
      const wide = WIDE.test(value);
      this.newStrings.push(value);
      this.newStringUnits.push(value.length * 2 + (wide ? 1 : 0));
      this.newStringBytes += wide ? value.length * 2 : value.length;
    }
    this.uints[this.uintCount++] = index;
  }

  private writeObject(value: object): void {
    const seen = this.objectIndex.get(value);
    if (seen !== undefined) return this.put(Kind.Seen, seen);
    const proto = Object.getPrototypeOf(value) as object | null;
    if (proto !== Object.prototype && proto !== null && !isCollection(value)) {
      if (this.inspect) {
        const written = this.inspect(value, this.holder, this.key);
        if (written !== value) return this.write(written); // not kept as the instance: it is met again as itself
      } else if (isUnwritable(value)) throw new TypeError(`a snapshot cannot hold a ${value.constructor.name}`);
    }
    this.objectIndex.set(value, this.objectIndex.size);
    if (Array.isArray(value)) {
      this.put(Kind.Array, value.length);
      for (let i = 0; i < value.length; i++) {
        this.holder = value;
        this.key = i;
        this.write(value[i]);
      }
    } else if (value instanceof Map) {
      this.put(Kind.Map, value.size);
      for (const [key, entry] of value) {
        this.holder = this.key = undefined;
        this.write(key);
        this.holder = value;
        this.key = key;
        this.write(entry);
      }
    } else if (value instanceof Set) {
      this.put(Kind.Set, value.size);
      for (const entry of value) {
        this.holder = this.key = undefined;
        this.write(entry);
      }
    } else {
      const keys = Object.keys(value);
      this.kind(Kind.Object);
      this.uints[this.uintCount++] = this.shapeOf(keys);
      const fields = value as Record<string, unknown>;
      for (let i = 0; i < keys.length; i++) {
        this.holder = value;
        this.key = keys[i];
        this.write(fields[keys[i]!]);
      }
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
    this.newShapes.push(keys);
    candidates.push(id);
    return id;
  }

  /** Writes out the part so far and starts the next. */
  private cut(): void {
    const shapes = this.newShapes.length === 0 ? '' : JSON.stringify(this.newShapes);
    const counts = [this.kindCount, this.uintCount, this.numberCount, this.newStrings.length] as const;
    const layout = partLayout(...counts, this.newStringBytes, Buffer.byteLength(shapes));
    const part = new Uint8Array(layout.bytes);
    const bytes = Buffer.from(part.buffer);
    MAGIC.copy(bytes, 0);
    const head = new Uint32Array(part.buffer, 0, HEADER_BYTES / 4);
    head.set([...counts, this.newStringBytes, layout.bytes - layout.shapes, this.done.length, BYTE_ORDER], Head.Kinds);
    new Float64Array(part.buffer, layout.numbers, this.numberCount).set(this.numbers.subarray(0, this.numberCount));
    new Uint32Array(part.buffer, layout.uints, this.uintCount).set(this.uints.subarray(0, this.uintCount));
    new Uint32Array(part.buffer, layout.units, this.newStrings.length).set(this.newStringUnits);
    part.set(this.kinds.subarray(0, this.kindCount), layout.kinds);
    let at = layout.strings;
    for (let i = 0; i < this.newStrings.length; i++)
      at += bytes.write(this.newStrings[i]!, at, (this.newStringUnits[i]! & 1) === 1 ? 'utf16le' : 'latin1');
    bytes.write(shapes, layout.shapes, 'utf8');
    this.done.push(part);
    this.kindCount = this.uintCount = this.numberCount = this.newStringBytes = 0;
    this.newStrings = [];
    this.newStringUnits = [];
    this.newShapes = [];
  }
}

/** Where each column of a part starts, and the part's length. */
function partLayout(
  kinds: number,
  uints: number,
  numbers: number,
  strings: number,
  stringBytes: number,
  shapeBytes: number,
) {
  const numbersAt = HEADER_BYTES;
  const uintsAt = numbersAt + numbers * 8;
  const unitsAt = uintsAt + uints * 4;
  const kindsAt = unitsAt + strings * 4;
  const stringsAt = kindsAt + kinds;
  const shapesAt = stringsAt + stringBytes;
  return {
    numbers: numbersAt,
    uints: uintsAt,
    units: unitsAt,
    kinds: kindsAt,
    strings: stringsAt,
    shapes: shapesAt,
    bytes: shapesAt + shapeBytes,
  };
}

function isCollection(value: object): boolean {
  return Array.isArray(value) || value instanceof Map || value instanceof Set;
}

/** Objects whose state is not in their own fields. */
function isUnwritable(value: object): boolean {
  return value instanceof Date || value instanceof RegExp || ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const NOT_THE_FORMAT = 'the snapshot is not in the format this propsim writes';

/** Objects of a shape met this often are built by code compiled for the shape. */
const COMPILE_AFTER_USES = 8;

class PartReader {
  private partsRead = 0;
  private kinds: Uint8Array = new Uint8Array(0);
  private uints: Uint32Array = new Uint32Array(0);
  private numbers: Float64Array = new Float64Array(0);
  private kindAt = 0;
  private uintAt = 0;
  private numberAt = 0;
  private readonly strings: string[] = [];
  private readonly shapes: string[][] = [];
  private readonly objects: object[] = [];
  private readonly shapeUses: number[] = [];
  private readonly builders: (ShapeBuilder | null)[] = [];
  private readonly readValue = (): unknown => this.read();

  constructor(private readonly parts: Iterator<Uint8Array>) {}

  graph(): unknown {
    const graph = this.read();
    if (this.kindAt !== this.kinds.length) throw damaged('its state ends before its last part does');
    this.endPart();
    if (!this.parts.next().done) throw damaged('it has parts after the end of its state');
    return graph;
  }

  private read(): unknown {
    if (this.kindAt === this.kinds.length) this.nextPart();
    const kind = this.kinds[this.kindAt++];
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
        if (this.numberAt >= this.numbers.length) throw damaged('its numbers end early');
        return this.numbers[this.numberAt++];
      case Kind.String:
        return this.known(this.strings, this.uint());
      case Kind.Seen:
        return this.known(this.objects, this.uint());
      case Kind.Array: {
        const length = this.uint();
        // Made at its length (holey to V8, but no hole is left), not grown by pushes: a restore makes many short
        // arrays (an order's history, a trade's lots), and growing one copies it each time. The restart benchmark
        // measures it (docs/performance.md).
        const array = new Array<unknown>(length);
        this.objects.push(array);
        for (let i = 0; i < length; i++) array[i] = this.read();
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
        throw damaged(`value kind ${kind} in part ${this.partsRead - 1}`);
    }
  }

  private readObject(shapeId: number): object {
    const keys = this.known(this.shapes, shapeId);
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

  /** The next part's columns; its strings and shapes join those of the parts before. */
  private nextPart(): void {
    if (this.partsRead > 0) this.endPart();
    const next = this.parts.next();
    if (next.done) throw this.partsRead === 0 ? new Error(NOT_THE_FORMAT) : damaged('its parts end early');
    // Typed arrays read a part in place, so it must start on an 8-byte boundary (a copy, if not).
    const part = next.value.byteOffset % 8 === 0 ? next.value : new Uint8Array(next.value);
    const bytes = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    if (bytes.length < HEADER_BYTES || !MAGIC.equals(bytes.subarray(0, MAGIC.length)))
      throw this.partsRead === 0
        ? new Error(NOT_THE_FORMAT)
        : damaged(`part ${this.partsRead} is not one of its parts`);
    const head = new Uint32Array(part.buffer, part.byteOffset, HEADER_BYTES / 4);
    if (head[Head.ByteOrder] !== BYTE_ORDER)
      throw new Error(`${NOT_THE_FORMAT} (it was written in another byte order)`);
    if (head[Head.Part] !== this.partsRead) throw damaged(`part ${this.partsRead} is missing`);
    const [kinds, uints, numbers, strings, stringBytes, shapeBytes] = [
      head[Head.Kinds]!,
      head[Head.Uints]!,
      head[Head.Numbers]!,
      head[Head.Strings]!,
      head[Head.StringBytes]!,
      head[Head.ShapeBytes]!,
    ];
    const layout = partLayout(kinds, uints, numbers, strings, stringBytes, shapeBytes);
    if (layout.bytes !== part.byteLength)
      throw damaged(`part ${this.partsRead} is ${part.byteLength} bytes, not ${layout.bytes}`);
    const at = part.byteOffset;
    this.numbers = new Float64Array(part.buffer, at + layout.numbers, numbers);
    this.uints = new Uint32Array(part.buffer, at + layout.uints, uints);
    this.kinds = part.subarray(layout.kinds, layout.kinds + kinds);
    this.kindAt = this.uintAt = this.numberAt = 0;
    this.readStrings(bytes, new Uint32Array(part.buffer, at + layout.units, strings), layout.strings, layout.shapes);
    this.readShapes(shapeBytes === 0 ? '[]' : bytes.toString('utf8', layout.shapes, layout.bytes));
    this.partsRead++;
  }

  private readStrings(bytes: Buffer, units: Uint32Array, from: number, to: number): void {
    let at = from;
    for (let i = 0; i < units.length; i++) {
      const unit = units[i]!;
      const wide = (unit & 1) === 1;
      const end = at + (wide ? unit - 1 : unit >>> 1);
      this.strings.push(bytes.toString(wide ? 'utf16le' : 'latin1', at, end));
      at = end;
    }
    if (at !== to) throw damaged(`the strings of part ${this.partsRead} do not fill their bytes`);
  }

  /** A shape is a list of strings, which become code (shape-builder.ts): nothing else is taken. */
  private readShapes(json: string): void {
    let shapes: unknown;
    try {
      shapes = JSON.parse(json);
    } catch {
      throw new Error(NOT_THE_FORMAT);
    }
    if (
      !Array.isArray(shapes) ||
      !shapes.every((keys) => Array.isArray(keys) && keys.every((key) => typeof key === 'string'))
    )
      throw new Error(NOT_THE_FORMAT);
    this.shapes.push(...(shapes as string[][]));
  }

  /** Every value of a part read: its columns end together. */
  private endPart(): void {
    if (this.uintAt !== this.uints.length || this.numberAt !== this.numbers.length)
      throw damaged(`the columns of part ${this.partsRead - 1} do not end together`);
  }

  private uint(): number {
    if (this.uintAt >= this.uints.length) throw damaged('its columns end early');
    return this.uints[this.uintAt++]!;
  }

  private known<T>(list: readonly T[], index: number): T {
    if (index >= list.length) throw damaged(`a reference to ${index} of ${list.length}`);
    return list[index]!;
  }
}

const OWN_FIELD = { enumerable: true, writable: true, configurable: true };

function damaged(what: string): Error {
  return new Error(`the snapshot is damaged: ${what}`);
}
