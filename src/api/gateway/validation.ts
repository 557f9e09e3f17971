// Fastify validates bodies, query strings and path parameters with the same TypeBox checker the kernel uses
// (docs/architecture.md#one-schema-source), so an HTTP request and a scenario step get the same `expected …, got …`
// per field. Validation is strict: no coercion of bodies. A query string is text by nature, so digits become a
// number where the schema asks for an integer, and nothing else is converted.
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { checkerOf } from '../../core/validation/request-body.js';
import { invalidRequest } from './api-error.js';

type Json = Record<string, unknown>;

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = checkerOf(schema);
  const optionalBody =
    httpPart === 'body' && ((schema as Json).required as unknown[] | undefined)?.length === undefined;
  return (data: unknown) => {
    let value = data;
    if (httpPart === 'querystring') value = coerceQuery(schema as Json, data as Json);
    else if (optionalBody && (value === null || value === undefined)) value = {};
    const problems = check.problems(value);
    return problems.length === 0 ? { value } : { error: invalidRequest(problems) };
  };
};

function coerceQuery(schema: Json, query: Json): Json {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const coerced: Json = {};
  for (const [name, value] of Object.entries(query)) {
    const type = properties[name]?.type;
    coerced[name] =
      (type === 'integer' || type === 'number') && typeof value === 'string' && /^-?\d+$/.test(value)
        ? Number(value)
        : value;
  }
  return coerced;
}
