// Sends a kernel Outcome as the HTTP answer: the body as it is on success, the error envelope otherwise
// (docs/api.md#errors): `error` first, then `code`, `details` when there are any, and the request id.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Outcome } from '../core/outcome.js';

export interface FieldDetail {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: string;
  code: string;
  details?: FieldDetail[] | Record<string, unknown>;
  request_id: string;
}

export function errorBody(
  request: FastifyRequest,
  code: string,
  error: string,
  details?: ErrorBody['details'],
): ErrorBody {
  return details === undefined
    ? { error, code, request_id: request.id }
    : { error, code, details, request_id: request.id };
}

/** Answers an error with the envelope; `Retry-After` (whole seconds) for 429 and 503 when given. */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  error: string,
  options: { details?: ErrorBody['details']; retryAfterS?: number } = {},
): FastifyReply {
  if (options.retryAfterS !== undefined)
    reply.header('Retry-After', String(Math.max(1, Math.ceil(options.retryAfterS))));
  return reply.code(status).send(errorBody(request, code, error, options.details));
}

/**
 * The kernel's answer as the HTTP answer. A kernel refusal that names one field (`details.field`) becomes the
 * API's per-field list, `details: [{field, message}]`.
 */
export function sendOutcome<T>(request: FastifyRequest, reply: FastifyReply, outcome: Outcome<T>): FastifyReply {
  if (outcome.ok) return reply.code(outcome.status).send(outcome.body);
  const { error, code, details } = outcome.body;
  const field = details?.field;
  const shaped = typeof field === 'string' ? [{ field, message: error }] : details;
  return sendError(request, reply, outcome.status, code, error, {
    ...(shaped === undefined ? {} : { details: shaped }),
    ...(outcome.status === 503 ? { retryAfterS: 1 } : {}),
  });
}
