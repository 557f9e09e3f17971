// What step validation knows while it walks the steps in order: the account aliases, the order refs placed
// so far (and, for better messages, those placed later), the OCO groups, and the simulated clock.
import { fail, readFields, checkKeys, type Fields } from '../core/validation/input-fields.js';
import { listNames, readName } from './scenario-fields.js';
import type { HttpStatus } from './scenario-types.js';

export interface StepContext {
  readonly accounts: ReadonlySet<string>;
  /** Every ref an order step of the file places, with the first such step's index (found beforehand). */
  readonly refsInFile: ReadonlyMap<string, number>;
  /** Refs placed by the steps validated so far → the index of the order step. */
  readonly placedRefs: Map<string, number>;
  /** OCO group name → its refs, as the steps so far built them. */
  readonly ocoGroups: Map<string, Set<string>>;
  /** The simulated time the next step runs at. */
  nowMs: number;
}

/** One step being validated: where it is and what it carries besides its body. */
export interface StepInput {
  readonly index: number;
  /** Path of the step body relative to the step mapping: the step's kind. */
  readonly path: string;
  readonly ctx: StepContext;
  readonly expectStatus?: HttpStatus;
}

export function newStepContext(
  accounts: ReadonlySet<string>,
  rawSteps: readonly unknown[],
  startMs: number,
): StepContext {
  const refsInFile = new Map<string, number>();
  rawSteps.forEach((step, index) => {
    const order = (step as { order?: { ref?: unknown } } | null)?.order;
    if (typeof order?.ref === 'string' && !refsInFile.has(order.ref)) refsInFile.set(order.ref, index);
  });
  return { accounts, refsInFile, placedRefs: new Map(), ocoGroups: new Map(), nowMs: startMs };
}

/** The step body: a mapping with only `keys`. */
export function stepBody(raw: unknown, path: string, keys: readonly string[]): Fields {
  const doc = readFields(raw, path, `a mapping with ${keys.join(', ')}`);
  checkKeys(doc, path, keys);
  return doc;
}

/** An account alias declared under `accounts`. */
export function readAccount(value: unknown, path: string, ctx: StepContext): string {
  const alias = readName(value, path, 'an account alias');
  if (!ctx.accounts.has(alias))
    fail(path, `an account alias declared under accounts (${listNames(ctx.accounts)})`, value);
  return alias;
}

/** The ref of an order placed by an earlier step. */
export function readPlacedRef(value: unknown, path: string, ctx: StepContext): string {
  const ref = readName(value, path, 'an order ref');
  if (ctx.placedRefs.has(ref)) return ref;
  const later = ctx.refsInFile.get(ref);
  if (later !== undefined)
    fail(
      path,
      `the ref of an order placed by an earlier step (${JSON.stringify(ref)} is placed later, by steps[${later}])`,
      value,
    );
  return fail(
    path,
    `the ref of an order placed by an earlier step (placed so far: ${listNames(ctx.placedRefs.keys())})`,
    value,
  );
}
