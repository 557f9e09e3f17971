// Where the generated OpenAPI document repeats a named schema (components.ts), a `$ref` to it instead
// (docs/api.md#the-openapi-document): the error envelope alone was written out ~476 times.
//
// Why the document is rewritten rather than the routes given `$ref`s: the routes' schemas are the TypeBox objects
// that gateway/validation.ts and the kernel check requests with, and a `$ref` there would need that checker to
// resolve references and could change its `expected …, got …` messages (docs/api.md#errors). @fastify/swagger
// renders the named schemas into `components/schemas` with the same conversion as the routes' schemas, so a schema
// of the document that is written out exactly like a named one is that schema. The document is built once, so the
// matching costs nothing per request, and it cannot change what a request is checked against.

type Json = Record<string, unknown>;

export function liftComponents(document: Json): void {
  const components = (document.components ?? {}) as { schemas?: Record<string, Json> };
  const schemas = components.schemas ?? {};
  const names = namesByShape(schemas);
  for (const operation of operationsOf(document)) {
    for (const media of Object.values(contentOf(operation.requestBody))) lift(media, 'schema', names);
    for (const response of Object.values((operation.responses ?? {}) as Record<string, Json>))
      for (const media of Object.values(contentOf(response))) lift(media, 'schema', names);
    for (const parameter of (operation.parameters ?? []) as Json[]) lift(parameter, 'schema', names);
  }
  for (const schema of Object.values(schemas)) liftChildren(schema, names);
}

/** Every operation of the document's paths. */
export function operationsOf(document: Json): Json[] {
  return Object.values((document.paths ?? {}) as Record<string, Record<string, Json>>).flatMap((item) =>
    Object.values(item),
  );
}

function contentOf(holder: unknown): Record<string, Json> {
  return ((holder as Json | undefined)?.content ?? {}) as Record<string, Json>;
}

/** The name of each named schema by its written form; two names for one form would make a `$ref` ambiguous. */
function namesByShape(schemas: Record<string, Json>): Map<string, string> {
  const names = new Map<string, string>();
  for (const [name, schema] of Object.entries(schemas)) {
    const shape = canonical(schema);
    const other = names.get(shape);
    if (other !== undefined) throw new Error(`components ${other} and ${name} are the same schema: name it once`);
    names.set(shape, name);
  }
  return names;
}

/** `holder[key]` replaced by a `$ref` when it is a named schema, else searched inside. */
function lift(holder: Json, key: string, names: Map<string, string>): void {
  const value = holder[key];
  if (typeof value !== 'object' || value === null) return;
  const name = Array.isArray(value) ? undefined : names.get(canonical(value));
  if (name !== undefined) holder[key] = { $ref: `#/components/schemas/${name}` };
  else liftChildren(value as Json, names);
}

function liftChildren(node: Json | unknown[], names: Map<string, string>): void {
  for (const key of Object.keys(node)) lift(node as Json, key, names);
}

/** JSON with every object's keys sorted: the same schema written in another key order is the same schema. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
