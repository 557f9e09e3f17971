// Response headers a route sends beyond the gateway's own (X-Request-Id, Retry-After: src/api/openapi/gateway-answers.ts),
// declared in the route's schema so that the OpenAPI document lists them on the answers that carry them
// (docs/api.md#the-openapi-document). Documentation only: @fastify/swagger reads a response schema's `headers`, and
// nothing validates or serializes with it (the app's serializer is JSON.stringify).
import type { TSchema } from 'typebox';

type HeaderSchemas = Record<string, { type: 'string'; description: string; pattern?: string }>;

/** A replayed answer of an Idempotency-Key (docs/api.md#idempotency), success or error alike. */
export const IDEMPOTENT_REPLAYED: HeaderSchemas = {
  'Idempotent-Replayed': {
    type: 'string',
    pattern: '^true$',
    description: 'true when this is the stored answer of an earlier request with the same Idempotency-Key',
  },
};

/** The session cookie login and refresh set and logout clears (docs/api.md#keys-and-login). */
export const SESSION_COOKIE: HeaderSchemas = {
  'Set-Cookie': {
    type: 'string',
    pattern: '^session=',
    description: 'the session cookie (HttpOnly, SameSite=Lax, Path=/): the token, or empty once logged out',
  },
};

/** The session export's file name and the events_sha256 its replay must write (docs/api.md#session-export). */
export const SESSION_EXPORT: HeaderSchemas = {
  'Content-Disposition': { type: 'string', description: 'attachment; filename="session.yaml"' },
  'X-Events-Sha256': {
    type: 'string',
    pattern: '^[0-9a-f]{64}$',
    description: "the events_sha256 that `propsim replay` of this file must write (the file's expect_events_sha256)",
  },
};

/** `schema` as the answer of a status, with the headers that answer carries. */
export function sentWith<S extends TSchema>(headers: HeaderSchemas, schema: S): S {
  return { ...schema, headers };
}

/** Every answer of a route's `response` map with the same headers. */
export function allSentWith<R extends Record<number, TSchema>>(headers: HeaderSchemas, responses: R): R {
  return Object.fromEntries(
    Object.entries(responses).map(([status, schema]) => [status, sentWith(headers, schema)]),
  ) as R;
}
