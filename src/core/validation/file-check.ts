// A decoded file (a scenario, a sandbox seed, a back-test config, a plan) checked against its TypeBox schema
// (docs/architecture.md#one-schema-source). The schema is the one declaration of the file's shape; this turns its
// first failure into a FieldError in the words every file reader uses (input-fields.ts):
//   plans.eval-50k.risk_profile.max_drawdown_mode: expected one of static, …, got "trailing"
//   seeed: unknown key; expected one of name, seed, market, …
// The words come from the failing schema's `expected` annotation, or from its keywords when it has none; a
// schema's `description` is the help an editor shows and is not used here.
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { FieldError, describeValue, isFields } from './input-fields.js';
import { lastPointerPart, pointerFieldName, schemaAt, valueAt } from './json-pointer.js';
import { schemaWords } from './schema-words.js';

interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
}

type Json = Record<string, unknown>;
type Checker = (value: unknown) => boolean;

const compiled = new WeakMap<TSchema, { check: Checker; errors: (value: unknown) => SchemaError[] }>();

function compiledOf(schema: TSchema): { check: Checker; errors: (value: unknown) => SchemaError[] } {
  let found = compiled.get(schema);
  if (!found) {
    const validator = Compile(schema);
    found = {
      check: (value) => validator.Check(value),
      errors: (value) => [...validator.Errors(value)] as SchemaError[],
    };
    compiled.set(schema, found);
  }
  return found;
}

/**
 * `value` as the schema's type, or a FieldError naming the first bad field; `path` prefixes every field
 * (`plans.eval-50k`), '' for a whole file.
 */
export function checkFileValue<S extends TSchema>(schema: S, value: unknown, path = ''): Static<S> {
  const { check, errors } = compiledOf(schema);
  if (check(value)) return value as Static<S>;
  throw firstProblem(schema as unknown as Json, value, errors(value), path);
}

function firstProblem(root: Json, value: unknown, all: SchemaError[], base: string): FieldError {
  const errors = keepChosenBranches(root, value, all);
  // A mapping's unknown key is told before what is wrong inside it, as a reader refuses the key first; a wrong
  // value before a missing key (a reader reads the keys it finds).
  const first = errors.find((e) => e.keyword !== 'required') ?? errors[0]!;
  const unknownKey = errors.find(
    (e) => e.keyword === 'additionalProperties' && isWithin(first.instancePath, e.instancePath),
  );
  const error = unknownKey ?? first;
  const field = (instancePath: string) => pointerFieldName(instancePath, base);
  if (error.keyword === 'additionalProperties') {
    const name = (error.params.additionalProperties as string[])[0]!;
    const allowed = Object.keys((schemaAt(root, error.schemaPath).properties ?? {}) as Json);
    return new FieldError(field(`${error.instancePath}/${name}`), `unknown key; expected one of ${allowed.join(', ')}`);
  }
  if (error.keyword === 'required') {
    const name = (error.params.requiredProperties as string[])[0]!;
    const properties = (schemaAt(root, error.schemaPath).properties ?? {}) as Json;
    const expected = expectation((properties[name] ?? {}) as Json);
    return new FieldError(field(`${error.instancePath}/${name}`), `expected ${expected} (required), got nothing`);
  }
  const node = schemaAt(root, error.schemaPath);
  if (error.keyword === 'uniqueItems')
    return repeatedItem(node, valueAt(value, error.instancePath) as unknown[], (i) =>
      field(`${error.instancePath}/${i}`),
    );
  // A key refused by propertyNames: the key is what came.
  const got = error.schemaPath.endsWith('/propertyNames')
    ? lastPointerPart(error.instancePath)
    : valueAt(value, error.instancePath);
  if (RANGE_KEYWORDS.has(error.keyword) && typeof node.type === 'string' && node.type !== 'object') {
    // A value of the right kind out of range: the range says what was expected (`a non-empty list`).
    const { expected: _kind, ...keywords } = node;
    return new FieldError(field(error.instancePath), `expected ${expectation(keywords)}, got ${describeValue(got)}`);
  }
  if (error.keyword === 'minProperties' && isFields(got) && Object.keys(got).length === 0)
    return new FieldError(field(error.instancePath), `expected ${expectation(node)}, got an empty mapping`);
  return new FieldError(
    field(error.instancePath),
    `expected ${expectation(node)}, got ${describeValue(got)}${quoteHint(node, got)}`,
  );
}

const RANGE_KEYWORDS = new Set([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
]);

/** A list whose items must differ: the first item that repeats an earlier one is named, by its index. */
function repeatedItem(node: Json, list: unknown[], field: (index: number) => string): FieldError {
  const keys = list.map((item) => JSON.stringify(item));
  const index = keys.findIndex((key, i) => keys.indexOf(key) !== i);
  const what = typeof node.uniqueExpected === 'string' ? node.uniqueExpected : 'an item not already listed';
  return new FieldError(field(index), `expected ${what}, got ${describeValue(list[index])}`);
}

/** YAML reads 50000.10 unquoted as a number: when the number, quoted, would match the pattern, say so. */
function quoteHint(node: Json, got: unknown): string {
  const pattern = node.pattern ?? (node.allOf as Json[] | undefined)?.[0]?.pattern;
  if (typeof got !== 'number' || !Number.isFinite(got) || typeof pattern !== 'string') return '';
  const quoted = String(got);
  return compiledOf(node as unknown as TSchema).check(quoted) ? ` (quote it: "${quoted}")` : '';
}

/**
 * A union (anyOf) whose value is of one branch's kind (a mapping where a branch is a mapping and the others are
 * strings) is explained by that branch's errors; otherwise by the union's own words ("one of …"). Lists of errors
 * of every branch say nothing useful to a person.
 */
function keepChosenBranches(root: Json, value: unknown, errors: SchemaError[]): SchemaError[] {
  let kept = errors.filter((e) => !isSummary(root, e));
  const unions = kept.filter((e) => e.keyword === 'anyOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const union of unions) {
    if (!kept.includes(union)) continue;
    const branches = (schemaAt(root, union.schemaPath).anyOf ?? []) as Json[];
    const got = valueAt(value, union.instancePath);
    const matching = branches.flatMap((branch, i) => (isOfKind(branch, got) ? [i] : []));
    const inBranches = `${union.schemaPath}/anyOf/`;
    const chosen = matching.length === 1 ? `${inBranches}${matching[0]}` : undefined;
    kept = kept.filter((e) => {
      if (e === union) return chosen === undefined;
      if (!e.schemaPath.startsWith(inBranches)) return true;
      return chosen !== undefined && (e.schemaPath === chosen || e.schemaPath.startsWith(`${chosen}/`));
    });
  }
  return kept;
}

/**
 * Errors that only repeat others: a key refused by `additionalProperties: false` (told once, by its parent), a
 * value refused by an additionalProperties schema or a key by propertyNames (told by the inner error).
 */
function isSummary(root: Json, error: SchemaError): boolean {
  if (error.keyword === 'boolean') return error.schemaPath.endsWith('/additionalProperties');
  if (error.keyword === 'propertyNames') return true;
  return error.keyword === 'additionalProperties' && schemaAt(root, error.schemaPath).additionalProperties !== false;
}

/** Whether a value is of the JSON kind a schema takes (its `type`, or its first allOf member's). */
function isOfKind(schema: Json, value: unknown): boolean {
  const type = schema.type ?? ((schema.allOf as Json[] | undefined)?.[0]?.type as unknown);
  switch (type) {
    case 'object':
      return isFields(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
    case 'number':
      return typeof value === 'number';
    case 'null':
      return value === null;
    case undefined:
      return false;
    default:
      return typeof value === type;
  }
}

function isWithin(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}

/** What a schema accepts, in a file reader's words: its `expected`, or a phrase from its keywords (schema-words.ts). */
export function expectation(schema: Json): string {
  return schemaWords(schema, { annotation: 'expected', object: 'a mapping' });
}
