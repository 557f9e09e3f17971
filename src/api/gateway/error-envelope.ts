// One envelope for every 4xx and 5xx (docs/api.md#errors): `{error, code, details?, request_id}`, `error` first.
// Fastify's own errors (an unparsable body, a wrong content type, a body too large) are mapped to their codes;
// anything else is a bug: 500 `internal`, logged with the request id. A failed authentication is counted against the
// caller's address on its way out (failed-auth-limit.ts). Whatever a layer put in a message, the envelope carries it
// bounded and escaped (docs/api.md#what-an-error-echoes): each echo is bounded where it is made, and this is the net.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_FIELD_PROBLEMS } from '../../core/validation/body-check.js';
import { echoed } from '../../core/validation/echo.js';
import { ApiError } from './api-error.js';
import { routeNotFound } from './authenticate.js';
import type { FailedAuthLimit } from './failed-auth-limit.js';

export function installErrorEnvelope(app: FastifyInstance, failedAuth: FailedAuthLimit): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const api = toApiError(error);
    failedAuth.answered(request, api);
    if (api.code === 'internal') request.log.error({ err: error, request_id: request.id }, 'internal error');
    sendError(reply, request, api);
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, request, routeNotFound(request)));
}

/** The longest `error` an envelope carries, and the longest detail message. */
const MESSAGE_MAX_CHARS = 8192;
const DETAIL_MAX_CHARS = 1024;

export function sendError(reply: FastifyReply, request: FastifyRequest, error: ApiError): FastifyReply {
  const details = error.details?.slice(0, MAX_FIELD_PROBLEMS).map((d) => ({
    field: echoed(d.field, DETAIL_MAX_CHARS),
    message: echoed(d.message, DETAIL_MAX_CHARS),
  }));
  const body = {
    error: echoed(error.message, MESSAGE_MAX_CHARS),
    code: error.code,
    ...(details ? { details } : {}),
    request_id: request.id,
  };
  return reply.code(error.statusCode).headers(error.headers).type('application/json; charset=utf-8').send(body);
}

function toApiError(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'unsupported_media_type', 'send the body as application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'body_too_large', 'the body is larger than 1 MiB');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'invalid_request', 'the Content-Length does not match the body');
  }
  if (error.statusCode === 400 && /json/i.test(`${error.code} ${error.message}`))
    return new ApiError(400, 'invalid_json', `the body is not valid JSON: ${echoed(error.message, 200)}`);
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
    return new ApiError(error.statusCode, 'invalid_request', echoed(error.message, 200));
  return new ApiError(500, 'internal', 'internal error: the sandbox logged it with this request id');
}
