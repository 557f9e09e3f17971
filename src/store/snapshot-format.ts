// How a snapshot's state is laid out in the db: the format its writer and reader share
// (docs/architecture.md#snapshots). V8's serializer alone writes every key of every object and every copy of a
// repeated string, and a large state is mostly objects of a few shapes (orders, fills, trades) that repeat the same
// keys and the same ids. So the state is laid out as columns:
// - each object's keys once per shape (all orders share one), its values in order;
// - each distinct string once, then its index;
// - whole numbers below 2^32 in a Uint32Array, other numbers in a Float64Array, a kind byte per value;
// - an object met again (a shared reference, a cycle) as the index of its first meeting.
// The columns are cut into parts of about a megabyte, each one row of the db, and a restore reads them one at a time:
// neither side ever holds the whole snapshot, or a second copy of it (fresh memory is dear on a VM). A part is
// self-contained: a header, then its slice of each column, the strings and shapes first used in it, all as bytes that
// typed arrays read in place.
// The graph is what takeSnapshot hands over: plain objects, arrays, Maps, Sets and primitives (a class instance is
// kept as its own fields; state-snapshot.ts gives it its prototype back). Array holes come back as undefined.
// The writer is snapshot-writer.ts, the reader snapshot-reader.ts.

/** A value's kind byte: what it is, and so which column holds the rest of it. */
export const Kind = {
  Undefined: 0,
  Null: 1,
  True: 2,
  False: 3,
  Uint: 4,
  Number: 5,
  String: 6,
  Seen: 7,
  Array: 8,
  Map: 9,
  Set: 10,
  Object: 11,
} as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/**
 * The format's name, the first bytes of each part. Its number moves when the bytes change, or what the sandbox keeps
 * in them changes meaning (docs/architecture.md#snapshot-format-versions): a restart passes over a snapshot of another
 * version and applies the journal instead. The name is 15 characters, so the magic is 16 bytes with its NUL.
 */
const FORMAT = 'propsim-parts11';
export const MAGIC = Buffer.from(`${FORMAT}\0`, 'latin1');

/**
 * A part's header: the magic (16 bytes), then eight u32 (in the writer's byte order, which BYTE_ORDER tells), at
 * these indexes of the header read as u32. The columns follow, each aligned for its typed array: numbers (f64), uints
 * (u32), string units (u32: a string's length in UTF-16 code units times two, plus one if it is written as UTF-16
 * rather than Latin-1), kinds (u8), the string bytes, and the JSON of the shapes first used in the part.
 */
export const Head = {
  Kinds: 4,
  Uints: 5,
  Numbers: 6,
  Strings: 7,
  StringBytes: 8,
  ShapeBytes: 9,
  Part: 10,
  ByteOrder: 11,
} as const;
export const HEADER_BYTES = 48;
export const BYTE_ORDER = 0x01020304;

/** Where each column of a part starts, and the part's length. */
export function partLayout(
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
