// Snapshots of a kernel's state (docs/architecture.md#snapshots): what a restart loads instead of applying the whole
// journal again, so its time does not grow with the history. The kernel's state is a graph of plain data (accounts,
// orders, positions, lots, timers) hanging off a few long-lived parts (the desks, the books, the clock) that the
// constructor wires together with closures. So a snapshot keeps the data, not the wiring:
// - a *part* is a class instance held in a field of another part (the roots given are parts): its class declares
//   which of its fields are kept and which skipped (snapshot-fields.ts), and a restore writes the kept ones into the
//   same part of a freshly constructed kernel, whose wiring (functions, the calendar, the RxJS subjects) stays as its
//   constructor made it; a part with a field declared neither way is refused, naming its class and the field;
// - everything below a part's fields is *data*, written by a serializer the caller gives (the store's column codec,
//   in the sandbox: core stays free of Node), which keeps shared references and cycles; the data classes (a Position,
//   its FifoLots…) are named so a restore gives them their prototypes back;
// - a decimal is kept as its string (an account's lifecycle is plain data: account-lifecycle.ts).
// Anything else (a function or an unknown class in the data) cannot be restored faithfully and is refused, naming
// where it is, so a new kind of state is noticed by the snapshot tests instead of lost.
import { Dec } from '../../money.js';
import { OcoGroups } from '../../orders/oco.js';
import { InstrumentBook } from '../../orders/instrument-book.js';
import { PriceLadder } from '../../orders/price-ladder.js';
import { FifoLots } from '../../positions/lots.js';
import { InstrumentMark } from '../../positions/marks.js';
import { Position } from '../../positions/positions.js';
import { SymbolFloors } from '../risk/floor-index.js';
import { snapshotDeclaration, type SnapshotDeclaration } from '../../snapshot/snapshot-fields.js';

/** The classes that occur inside the data, by the name a snapshot records them under. */
const DATA_CLASSES: ReadonlyMap<string, abstract new (...args: never[]) => object> = new Map<
  string,
  abstract new (...args: never[]) => object
>([
  ['Position', Position],
  ['FifoLots', FifoLots],
  ['InstrumentMark', InstrumentMark],
  ['InstrumentBook', InstrumentBook],
  ['PriceLadder', PriceLadder],
  ['OcoGroups', OcoGroups],
  ['SymbolFloors', SymbolFloors],
]);
const NAME_OF = new Map([...DATA_CLASSES].map(([name, type]) => [type.prototype as object, name]));

/** Fields of a part that are not its state (the caller restores them its own way): Journal lines live in the store. */
export interface SnapshotOptions {
  omit?: ReadonlyMap<object, readonly string[]>;
}

/** One part's kept fields; `parts` are its fields that are parts themselves. */
interface PartRecord {
  fields: Record<string, unknown>;
  parts: Record<string, PartRecord | { same: number }>;
  id: number;
}

/** A value written in a decimal's place, where the decimal stood (an object's field, an array's index, a Map's key). */
interface StandIn {
  holder: Record<string, unknown> | Map<unknown, unknown>;
  key: unknown;
}

interface Payload {
  roots: Record<string, PartRecord | { value: unknown }>;
  /** Data objects of a named class, to be given its prototype back. */
  classes: [object, string][];
  /** The stand-ins, each with what stands in its place: a decimal's string. */
  standIns: [StandIn, unknown][];
}

export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

/**
 * How the serializer shows takeSnapshot what is not plain data as it writes (a class instance, a function), held in
 * `holder` at `key` (undefined `holder`: not in a field, index or Map value): it writes what this returns instead
 * (the value itself, or a decimal's string), and it throws for what cannot be restored.
 */
export type SnapshotInspect = (value: object, holder: object | undefined, key: unknown) => unknown;

/**
 * The state of `roots` (parts, or plain data), written by `write`: a serializer that keeps shared references, Maps
 * and Sets, drops prototypes, and calls `inspect` for what is not plain data (the store's column codec); its copy is
 * what restoreSnapshot reads back. The data is walked once, by the serializer.
 */
export function takeSnapshot<T>(
  roots: Record<string, object>,
  write: (payload: unknown, inspect: SnapshotInspect) => T,
  options: SnapshotOptions = {},
): T {
  const walk = new Walk(options);
  const payload: Payload = { roots: {}, classes: walk.classes, standIns: walk.standIns };
  for (const [name, root] of Object.entries(roots))
    payload.roots[name] = isPlainData(root) ? { value: root } : walk.part(root, name);
  try {
    return write(payload, walk.inspect);
  } catch (error) {
    if (!(error instanceof Unrestorable)) throw error;
    return refuse(`${error.message} at ${pathOf(roots, error.value)}`);
  }
}

function setSlot({ holder, key }: StandIn, value: unknown): void {
  if (holder instanceof Map) holder.set(key, value);
  else holder[key as string] = value;
}

/**
 * Writes a snapshot (the serializer's copy of what takeSnapshot wrote, read back) into `targets` (parts built as
 * the snapshotted ones were, with their wiring) and returns the roots that were plain data.
 */
export function restoreSnapshot(copy: unknown, targets: Record<string, object>): Record<string, unknown> {
  const payload = copy as Payload;
  for (const [object, name] of payload.classes) Object.setPrototypeOf(object, DATA_CLASSES.get(name)!.prototype);
  for (const [standIn, written] of payload.standIns) setSlot(standIn, new Dec(written as string));
  const restored = new Map<number, object>();
  const values: Record<string, unknown> = {};
  for (const [name, root] of Object.entries(payload.roots)) {
    if ('value' in root) values[name] = root.value;
    else writePart(root, targets[name] ?? refuse(`the snapshot has a part ${name} that was not given`), restored);
  }
  return values;
}

function writePart(record: PartRecord, target: object, restored: Map<number, object>): void {
  restored.set(record.id, target);
  const fields = target as Record<string, unknown>;
  Object.assign(fields, record.fields);
  for (const [key, part] of Object.entries(record.parts)) {
    if ('same' in part) {
      fields[key] = restored.get(part.same);
      continue;
    }
    const into = fields[key];
    if (typeof into !== 'object' || into === null)
      refuse(`the part at ${key} is missing from the kernel restored into`);
    writePart(part, into as object, restored);
  }
}

/** What the serializer met that a restore could not give back; takeSnapshot names where it is. */
class Unrestorable extends Error {
  constructor(
    what: string,
    readonly value: object,
  ) {
    super(what);
  }
}

class Walk {
  readonly classes: [object, string][] = [];
  readonly standIns: [StandIn, unknown][] = [];
  private readonly partIds = new Map<object, number>();

  constructor(private readonly options: SnapshotOptions) {}

  /** A part's fields as its class declares them (snapshot-fields.ts); `path` names it in a refusal. */
  part(part: object, path: string): PartRecord {
    const id = this.partIds.size;
    this.partIds.set(part, id);
    const record: PartRecord = { fields: {}, parts: {}, id };
    const declared = declarationOf(part, path);
    const omitted = this.options.omit?.get(part) ?? [];
    for (const [key, value] of Object.entries(part)) {
      if (declared.skipped.has(key) || omitted.includes(key)) continue;
      if (!declared.kept.has(key))
        refuse(`${className(part)}.${key} (at ${path}.${key}) is declared neither kept nor skipped (declareSnapshot)`);
      if (typeof value === 'object' && value !== null && !isPlainData(value) && !NAME_OF.has(protoOf(value))) {
        const known = this.partIds.get(value);
        record.parts[key] = known === undefined ? this.part(value, `${path}.${key}`) : { same: known };
      } else record.fields[key] = value;
    }
    return record;
  }

  /** A class instance of the data is noted, a decimal written as its string where it stands; the rest is refused. */
  readonly inspect: SnapshotInspect = (value, holder, key) => {
    if (typeof value === 'function') throw new Unrestorable('a function', value);
    if (value instanceof Dec && holder !== undefined) {
      const written = value.toString();
      this.standIns.push([{ holder: holder as StandIn['holder'], key }, written]);
      return written;
    }
    const proto = protoOf(value);
    const name = NAME_OF.get(proto);
    if (name === undefined) throw new Unrestorable(`a ${proto.constructor?.name ?? 'foreign'}`, value);
    this.classes.push([value, name]);
    return value;
  };
}

/** Where `target` is below the roots, as a path (`kernel.desk.orders[3].spec`): looked for again, for an error only. */
function pathOf(roots: Record<string, object>, target: object): string {
  const seen = new Set<object>();
  const search = (value: unknown, path: string): string | undefined => {
    if (value === target) return path;
    if (typeof value !== 'object' || value === null || seen.has(value)) return undefined;
    seen.add(value);
    const entries: [unknown, unknown][] =
      value instanceof Map ? [...value] : value instanceof Set ? [...[...value].entries()] : Object.entries(value);
    for (const [key, entry] of entries) {
      const found = search(entry, path + stepOf(value, key));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  for (const [name, root] of Object.entries(roots)) {
    const found = search(root, name);
    if (found !== undefined) return found;
  }
  return `one of ${Object.keys(roots).join(', ')}`;
}

function stepOf(holder: object, key: unknown): string {
  return holder instanceof Map || holder instanceof Set || Array.isArray(holder)
    ? `[${String(key)}]`
    : `.${String(key)}`;
}

/** What the class of `part` declares a snapshot keeps, every name of it a field the part has. */
function declarationOf(part: object, path: string): SnapshotDeclaration {
  const declared =
    snapshotDeclaration(part) ??
    refuse(`a ${className(part)} (at ${path}) declares no snapshot fields (declareSnapshot)`);
  for (const key of [...declared.kept, ...declared.skipped])
    if (!Object.hasOwn(part, key)) refuse(`${className(part)} declares ${key}, a field it does not have (at ${path})`);
  return declared;
}

function className(value: object): string {
  return (protoOf(value).constructor as { name?: string } | undefined)?.name ?? 'foreign object';
}

function isPlainData(value: object): boolean {
  if (Array.isArray(value) || value instanceof Map || value instanceof Set) return true;
  const proto = protoOf(value);
  return proto === Object.prototype || proto === null;
}

function protoOf(value: object): object {
  return Object.getPrototypeOf(value) as object;
}

function refuse(what: string): never {
  throw new SnapshotError(`cannot snapshot the kernel's state: ${what}`);
}
