// A JSON schema in words, for the messages of HTTP bodies (body-check.ts, docs/api.md#errors) and of files
// (file-check.ts, docs/architecture.md#one-schema-source): `an integer of at least 1`, `one of day, gtc`, `a list of
// 1 to 5 items, each a string`. One translator so that a body and a file say the same thing of the same schema;
// they differ only in what they pass: which annotation overrides the derived words (a body's `description`, a
// file's `expected`, since a file schema's `description` is the help an editor shows) and what an object is called
// (a JSON object in a body, a mapping in a YAML or JSON file).
type Json = Record<string, unknown>;

export interface SchemaWordsOptions {
  /** The annotation that, when a schema has it, is its words: `description` (bodies) or `expected` (files). */
  annotation: 'description' | 'expected';
  /** What an object is called: `a JSON object` (bodies) or `a mapping` (files). */
  object: string;
}

/** What a schema accepts, in words: its annotation, or a phrase from its keywords. */
export function schemaWords(schema: Json, options: SchemaWordsOptions): string {
  const words = (s: Json) => schemaWords(s, options);
  const annotated = schema[options.annotation];
  if (typeof annotated === 'string') return annotated;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(String).join(', ')}`;
  if (Array.isArray(schema.allOf)) return words(schema.allOf[0] as Json);
  if (Array.isArray(schema.anyOf)) return unionWords(schema.anyOf as Json[], words);
  if ('const' in schema) return JSON.stringify(schema.const);
  switch (schema.type) {
    case 'string':
      return stringWords(schema);
    case 'integer':
      return `an integer${rangeWords(schema)}`;
    case 'number':
      return `a number${rangeWords(schema)}`;
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array':
      return listWords(schema, words);
    case 'object':
      return options.object;
    default:
      return 'a value';
  }
}

function unionWords(members: Json[], words: (schema: Json) => string): string {
  const nullable = members.some((m) => m.type === 'null');
  const rest = members.filter((m) => m.type !== 'null');
  const phrase = rest.every((m) => 'const' in m)
    ? `one of ${rest.map((m) => String(m.const)).join(', ')}`
    : rest.map(words).join(' or ');
  return nullable ? `${phrase}, or null` : phrase;
}

function stringWords(schema: Json): string {
  if (schema.format === 'email') return 'an email address';
  const min = schema.minLength as number | undefined;
  const max = schema.maxLength as number | undefined;
  if (typeof schema.pattern === 'string') return `a string matching /${schema.pattern}/`;
  if (min !== undefined && max !== undefined) return `a string of ${min} to ${max} characters`;
  if (min === 1) return 'a non-empty string';
  if (min !== undefined) return `a string of at least ${min} characters`;
  if (max !== undefined) return `a string of at most ${max} characters`;
  return 'a string';
}

function rangeWords(schema: Json): string {
  const min = schema.minimum as number | undefined;
  const max = schema.maximum as number | undefined;
  if (typeof schema.exclusiveMinimum === 'number') return ` greater than ${schema.exclusiveMinimum}`;
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}

function listWords(schema: Json, words: (schema: Json) => string): string {
  const min = schema.minItems as number | undefined;
  const max = schema.maxItems as number | undefined;
  const list =
    min !== undefined && max !== undefined
      ? `a list of ${min} to ${max} items`
      : min === 1
        ? 'a non-empty list'
        : min !== undefined && min > 1
          ? `a list of at least ${min} items`
          : max !== undefined
            ? `a list of at most ${max} items`
            : 'a list';
  return schema.items ? `${list}, each ${words(schema.items as Json)}` : list;
}
