// A snapshot's state graph read back from its parts (snapshot-format.ts), one at a time.
// Each part is read in place by typed arrays. Bytes that are not the format, or a part missing, cut or out of place,
// are refused, not restored wrong.
import { compiledBuilder, type ShapeBuilder } from './shape-builder.js';
import { BYTE_ORDER, Head, HEADER_BYTES, Kind, MAGIC, partLayout } from './snapshot-format.js';

/** The state graph back from encodeSnapshot's parts, in order, read one at a time. */
export function decodeSnapshot(parts: Iterable<Uint8Array>): unknown {
  const iterator = parts[Symbol.iterator]();
  try {
    return new PartReader(iterator).graph();
  } finally {
    iterator.return?.(); // a db cursor left open would keep its connection busy
  }
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
