// What a snapshot keeps of each long-lived part (docs/architecture.md#snapshots), declared by the part's class, below
// it: each of its own fields is either kept (state: a restore writes it into the fresh part) or skipped (a restore
// leaves it as the fresh part's constructor made it). takeSnapshot refuses a part whose class declares nothing, or
// that has a field declared neither way, so a new field is noticed by the snapshot tests, not kept or lost by a guess.

export interface SnapshotFields {
  /** The part's state, and the parts it holds (a restore writes into those too). */
  readonly kept: readonly string[];
  /**
   * What the constructor builds and a restore must not overwrite: functions and the context objects that hand them
   * over, the calendar, RxJS streams, indexes by id (a restore catches them up: docs/architecture.md#indexes-by-id),
   * and what belongs to the running process only (requests in flight, events waiting for a commit).
   */
  readonly skipped: readonly string[];
}

export interface SnapshotDeclaration {
  readonly kept: ReadonlySet<string>;
  readonly skipped: ReadonlySet<string>;
}

const declarations = new WeakMap<object, SnapshotDeclaration>();

/** Declares what a snapshot keeps of the parts of class `type` (its instances exactly, not a subclass's). */
export function declareSnapshot(type: abstract new (...args: never[]) => object, fields: SnapshotFields): void {
  const both = fields.kept.filter((field) => fields.skipped.includes(field));
  if (both.length > 0) throw new Error(`${type.name} declares ${both.join(', ')} both kept and skipped`);
  declarations.set(type.prototype as object, { kept: new Set(fields.kept), skipped: new Set(fields.skipped) });
}

/** What the class of `part` declares, if it does. */
export function snapshotDeclaration(part: object): SnapshotDeclaration | undefined {
  return declarations.get(Object.getPrototypeOf(part) as object);
}
