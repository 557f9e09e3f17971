// What the gateway adds to every operation of the OpenAPI document (docs/api.md#gateway, docs/api.md#errors): the
// X-Request-Id header on every answer, Retry-After on 429 and 503, and the error answers every route may give, 500
// `internal` and 503 among them (a failed store commit answers 503 `store_unavailable` on any route,
// docs/api.md#persistence). An error answer that a route adds nothing to is one shared `components/responses`
// entry; one that carries a route's own header (Idempotent-Replayed) stays written out in full. Each of these headers
// is a `components/headers` entry whose value is a named schema (RequestId, RetryAfter, IdempotentReplayed): client
// generators that type no response headers (hey-api, orval) still give each value a type of its own.
import { operationsOf } from './lift-components.js';

type Json = Record<string, unknown>;

const ERROR_SCHEMA = '#/components/schemas/ErrorEnvelope';

/** The values of the headers below, as `components/schemas`. */
const HEADER_VALUES: Record<string, Json> = {
  RequestId: {
    type: 'string',
    pattern: '^[A-Za-z0-9._-]{1,128}$',
    description: 'the X-Request-Id of an answer: the one you sent when valid, else a new UUID',
  },
  RetryAfter: {
    type: 'integer',
    minimum: 1,
    description: 'the Retry-After of a 429 or 503: whole seconds, at least 1',
  },
  IdempotentReplayed: {
    type: 'string',
    enum: ['true'],
    description: 'the Idempotent-Replayed of an answer given again for a repeated Idempotency-Key',
  },
};

const value = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The headers the gateway sends, and those a route declares by name (answer-headers.ts), as `components/headers`. */
const NAMED_HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description: 'the request id: the one you sent when it is 1-128 characters of A-Za-z0-9._-, else a new UUID',
    required: true,
    schema: value('RequestId'),
  },
  'Retry-After': { description: 'whole seconds to wait before trying again, at least 1', schema: value('RetryAfter') },
  'Idempotent-Replayed': {
    description: 'true when this is the stored answer of an earlier request with the same Idempotency-Key',
    schema: value('IdempotentReplayed'),
  },
};

/** The headers every answer, or every 429 and 503, carries. */
const GATEWAY_HEADERS = new Set(['X-Request-Id', 'Retry-After']);

const RETRY_AFTER_STATUSES = new Set(['429', '503']);

/** Each error status: its shared response's name and what it means, with the codes it carries. */
const ERROR_ANSWERS: Record<string, { name: string; description: string }> = {
  '400': {
    name: 'BadRequest',
    description:
      'invalid_request (details names each bad field), invalid_json, invalid_cursor, firm_id_header_forbidden, ' +
      'firm_id_required or fill_in_future',
  },
  '401': {
    name: 'Unauthorized',
    description:
      'missing_credentials, invalid_credentials, multiple_credentials, invalid_login, token_expired or invalid_ticket',
  },
  '403': {
    name: 'Forbidden',
    description:
      'missing_scope, operator_required, firm_key_forbidden_route, user_forbidden_route, admin_required, ' +
      'session_required or entity_mismatch',
  },
  '404': {
    name: 'NotFound',
    description: "the account, order, trade, OCO group, user, role or firm is unknown or outside the caller's reach",
  },
  '409': {
    name: 'Conflict',
    description: "the request conflicts with the resource's state, e.g. order_final or idempotency_key_reused",
  },
  '413': { name: 'PayloadTooLarge', description: 'body_too_large: the body is larger than 1 MiB' },
  '415': {
    name: 'UnsupportedMediaType',
    description: 'unsupported_media_type: send the body as application/json, uncompressed',
  },
  '421': { name: 'MisdirectedRequest', description: 'wrong_shard: a sandbox fault window' },
  '429': {
    name: 'TooManyRequests',
    description:
      "rate_limited: the caller's rate limit, its address's failed authentications, or a sandbox fault window; " +
      'Retry-After says when to retry',
  },
  '500': { name: 'InternalError', description: 'internal: a bug, logged with the request id' },
  '502': { name: 'BadGateway', description: 'bad_gateway: a sandbox fault window' },
  '503': {
    name: 'ServiceUnavailable',
    description:
      'risk_loading (the risk engine is loading the account; Retry-After: 1), service_unavailable (a sandbox ' +
      'fault window, with Retry-After) or store_unavailable (the sandbox cannot keep its state: restart it)',
  },
};

/** The errors every operation may answer, whatever its route declares. */
const ALWAYS = ['500', '503'];

const SUCCESS_DESCRIPTIONS: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };

export function declareGatewayAnswers(document: Json, errorExample: (status: string) => unknown): void {
  const shared: Record<string, Json> = {};
  for (const operation of operationsOf(document)) {
    const responses = (operation.responses ?? {}) as Record<string, Json>;
    for (const status of ALWAYS) responses[status] ??= errorResponse();
    const declared: Record<string, Json> = {};
    for (const status of Object.keys(responses).sort()) {
      const response = withGatewayHeaders(status, responses[status]!);
      const answer = ERROR_ANSWERS[status];
      if (answer && isPlainError(response)) {
        shared[answer.name] ??= sharedResponse(status, answer.description, errorExample(status));
        declared[status] = { $ref: `#/components/responses/${answer.name}` };
      } else declared[status] = response;
    }
    operation.responses = declared;
  }
  const components = (document.components ??= {}) as Json;
  components.headers = NAMED_HEADERS;
  Object.assign(components.schemas as Json, HEADER_VALUES);
  components.responses = sortedByKey(shared);
}

function errorResponse(): Json {
  return { description: 'Default Response', content: { 'application/json': { schema: { $ref: ERROR_SCHEMA } } } };
}

/** The response with X-Request-Id (and Retry-After where it applies) before its own headers, and a description. */
function withGatewayHeaders(status: string, response: Json): Json {
  const own = Object.fromEntries(
    Object.entries((response.headers ?? {}) as Json).map(([name, header]) => [
      name,
      name in NAMED_HEADERS ? { $ref: `#/components/headers/${name}` } : header,
    ]),
  );
  const headers: Json = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
  if (RETRY_AFTER_STATUSES.has(status)) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
  const description =
    response.description === 'Default Response'
      ? (SUCCESS_DESCRIPTIONS[status] ?? ERROR_ANSWERS[status]?.description ?? `HTTP ${status}`)
      : response.description;
  return { ...response, description, headers: { ...headers, ...own } };
}

/** An error answer in the envelope with no header of the route's own: the shared response says all of it. */
function isPlainError(response: Json): boolean {
  const content = (response.content ?? {}) as Record<string, Json>;
  const media = Object.keys(content);
  const headers = Object.keys((response.headers ?? {}) as Json);
  return (
    media.length === 1 &&
    (content['application/json']?.schema as Json | undefined)?.$ref === ERROR_SCHEMA &&
    headers.every((name) => GATEWAY_HEADERS.has(name))
  );
}

function sharedResponse(status: string, description: string, example: unknown): Json {
  const response = withGatewayHeaders(status, { description, content: {} });
  return { ...response, content: { 'application/json': { schema: { $ref: ERROR_SCHEMA }, example } } };
}

function sortedByKey(record: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
}
