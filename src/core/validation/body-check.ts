// Checks a value against a TypeBox schema and says, per bad field, what was expected and what came
// (docs/api.md#errors): `quantity: expected an integer of at least 1, got 0`. The schema is the one source: the
// expectation is its `description`, or a phrase derived from its keywords when it has none. What is echoed of the
// value and its keys is bounded and escaped, and so is the number of fields listed (docs/api.md#what-an-error-echoes).
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { echoed, echoedValue } from './echo.js';
import { pointerFieldName, schemaAt, valueAt } from './json-pointer.js';
import { schemaWords } from './schema-words.js';

export interface FieldProblem {
  field: string;
  message: string;
}

export type BodyParse<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

export interface BodyCheck<S extends TSchema> {
  readonly schema: S;
  problems(value: unknown): FieldProblem[];
  parse(value: unknown): BodyParse<Static<S>>;
}

interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
}

type Json = Record<string, unknown>;

export function bodyCheck<S extends TSchema>(schema: S): BodyCheck<S> {
  const compiled = Compile(schema);
  const problems = (value: unknown): FieldProblem[] =>
    compiled.Check(value) ? [] : describeErrors(schema, value, [...compiled.Errors(value)] as SchemaError[]);
  return {
    schema,
    problems,
    parse(value) {
      const found = problems(value);
      return found.length === 0 ? { ok: true, value: value as Static<S> } : { ok: false, problems: found };
    },
  };
}

/** At most this many fields are described; the last line then says how many more are wrong. */
export const MAX_FIELD_PROBLEMS = 20;

/** `field: message; field: message` for logs and CLI errors. */
export function problemText(problems: readonly FieldProblem[]): string {
  return problems.map((p) => `${p.field}: ${p.message}`).join('; ');
}

/** One problem per field: a union's branches all fail, but the caller needs the outermost expectation only. */
function describeErrors(root: TSchema, value: unknown, errors: SchemaError[]): FieldProblem[] {
  const byField = new Map<string, FieldProblem>();
  const outermost = new Map<string, SchemaError>();
  for (const error of errors) {
    if (error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties')) {
      // One per unknown key. The checker stops at its first few errors (maxErrors), so the summary error that lists
      // them all may never come: a body with many unknown fields had none described, and so passed.
      const parent = schemaAt(root, error.schemaPath.slice(0, -'/additionalProperties'.length));
      unknownField(byField, error.instancePath, parent);
    } else if (error.keyword === 'required') {
      const parent = schemaAt(root, error.schemaPath);
      const properties = (parent.properties ?? {}) as Record<string, Json>;
      for (const name of error.params.requiredProperties as string[]) {
        const field = fieldName(`${error.instancePath}/${name}`);
        if (!byField.has(field))
          byField.set(field, {
            field,
            message: `expected ${expectation(properties[name] ?? {})} (required), got nothing`,
          });
      }
    } else if (error.keyword === 'additionalProperties') {
      const parent = schemaAt(root, error.schemaPath);
      for (const name of error.params.additionalProperties as string[])
        unknownField(byField, `${error.instancePath}/${escapedPart(name)}`, parent);
    } else {
      const seen = outermost.get(error.instancePath);
      if (!seen || error.schemaPath.length < seen.schemaPath.length) outermost.set(error.instancePath, error);
    }
  }
  for (const [path, error] of outermost) {
    const field = fieldName(path);
    if (byField.has(field) || [...outermost.keys()].some((other) => other !== path && path.startsWith(`${other}/`)))
      continue;
    const got = echoedValue(valueAt(value, path));
    byField.set(field, { field, message: `expected ${expectation(schemaAt(root, error.schemaPath))}, got ${got}` });
  }
  // The checker refused the value, so something must be said, even if none of its errors could be described.
  if (byField.size === 0) byField.set('body', { field: 'body', message: `expected ${expectation(root as Json)}` });
  return bounded([...byField.values()]);
}

function unknownField(byField: Map<string, FieldProblem>, instancePath: string, parent: Json): void {
  const field = fieldName(instancePath);
  const allowed = Object.keys((parent.properties ?? {}) as Json).join(', ');
  byField.set(field, { field, message: `unknown field; expected one of ${allowed}` });
}

/** A key as a JSON pointer part (RFC 6901). */
function escapedPart(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The first problems, and a last one that counts the rest, when there are more than MAX_FIELD_PROBLEMS. */
function bounded(problems: FieldProblem[]): FieldProblem[] {
  if (problems.length <= MAX_FIELD_PROBLEMS) return problems;
  const more = problems.length - (MAX_FIELD_PROBLEMS - 1);
  return [
    ...problems.slice(0, MAX_FIELD_PROBLEMS - 1),
    { field: 'body', message: `and ${more.toLocaleString('en-US')} more fields are wrong; they are not listed` },
  ];
}

/** `/user/email` → `user.email`, `/order_ids/2` → `order_ids[2]`, the root → `body`; a long key echoed bounded. */
function fieldName(instancePath: string): string {
  return echoed(pointerFieldName(instancePath)) || 'body';
}

/** What a schema accepts, in a body's words: its `description`, or a phrase from its keywords (schema-words.ts). */
export function expectation(schema: Json): string {
  return schemaWords(schema, { annotation: 'description', object: 'a JSON object' });
}
