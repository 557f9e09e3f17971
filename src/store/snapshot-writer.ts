// A snapshot's state graph written as its parts (snapshot-format.ts), in one walk.
// Whoever writes a graph may look at what is not plain data as it is met (`inspect`): state-snapshot.ts notes each
// class instance and has each decimal written as its string there, so a snapshot walks its graph once (a walk of its
// own first, to check it, would add to the time a snapshot stops the server).
import { BYTE_ORDER, Head, HEADER_BYTES, Kind, MAGIC, partLayout } from './snapshot-format.js';

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
